/**
 * The model's vocabulary: the directive definitions every model file may use
 * without declaring them. The gateway supplies them to the model reader
 * (loadModel.ts) and to the executable schema, so a model file
 * holds only its own types. docs/model.md explains each one with an example.
 *
 * Core directives (@item … @unlink) describe where items live and how the
 * fields read and write them; the extensions below them describe what the
 * default model needs beyond that (catalog lists, narrowed ranges, write
 * sharding, the authorization rules, flags).
 */
import { SUBSCRIPTION_DIRECTIVES } from './subscriptionDirectives.js';

const MODEL_DIRECTIVES = /* GraphQL */ `
"The table's key attributes. Without @table and @index: PK/SK, GSI1 on GSI1PK/GSI1SK, GSI2 on GSI2PK/GSI2SK."
directive @table(pk: String! = "PK", sk: String = "SK") on SCHEMA

"""
A global secondary index the model reads: its name and key attributes; pk
and sk each name 1 to 4 attributes (multi-attribute keys, in key order).
An index's key attribute may be one of the table's own (pk: "SK", sk: "PK":
an inverted index over the table's keys).
"""
directive @index(name: String!, pk: [String!]!, sk: [String!]) repeatable on SCHEMA

"""
The item's key in an index: one template per key attribute of the index, in
its order. Omitted pk/sk: the index's key attributes are ones the item
already stores (fields under those attribute names, or the table's keys),
so nothing extra is written. An item without a value for one of them is
not in the index (a sparse index).
"""
directive @indexed(index: String!, pk: [String!], sk: [String!]) repeatable on OBJECT

"""
A connection read one Query per page from one partition of an index (the
table when index is omitted), ordered by the index's sort key: the items of
the connection's node type there. On a root field the arguments fill the
node type's pk template in that index by name ({customer} from customer or
customerId); on a field of a type, the parent's id fills the placeholder of
the node's @parent field. from and until name arguments that narrow the
page to from <= <the sort key's text from its first placeholder on> < until.
"""
directive @query(index: String, from: String, until: String) on FIELD_DEFINITION

"""
Where items of this type live. Templates: literal text with {placeholders};
{id} is the item's own id, {<f>} for an @parent field f stands for that
parent's id. With inverted: true the item also carries GSI1PK = its SK and
GSI1SK = its PK, so it can be read by its sort key alone.
"""
directive @item(pk: String!, sk: String!, inverted: Boolean = false) on OBJECT

"On a field of an @item type whose type is an @item type: the parent whose partition this item lives in."
directive @parent on FIELD_DEFINITION

"""
One-to-many: a connection field over the child items in the partition the
child's pk template names for the parent (the table's, or index's when
given): begins_with(<sort key>, <the child's literal sort-key prefix>),
ordered by the sort key. counter: the parent attribute kept equal to the
number of children.
"""
directive @children(counter: String, index: String) on FIELD_DEFINITION

"""
Many-to-many (adjacency list): a connection field over edge items, one per
relationship, in the parent's partition: PK = the parent's PK, SK = the
node's PK, GSI1PK = SK, GSI1SK = PK. The other direction is a second @edges
field naming this one in inverseOf, read through GSI1. copy: node fields
stored on every edge under the given attribute names, kept current after the
node changes. counter as for @children. Fields of the connection's edge type
other than cursor and node are attributes of the edge item.
pk and sk: the edge items' own key instead ({id} the owner's id, sk's one
placeholder the node's id: pk "u#{id}#follower", sk "u#{follower}"); on the
inverse side they make it a mirror, one item per edge written with the base
item in one transaction. index: the inverse side reads the base items
through this declared index over the table's keys swapped instead of GSI1.
"""
directive @edges(inverseOf: String, copy: [CopyField!], counter: String, pk: String, sk: String, index: String) on FIELD_DEFINITION
input CopyField { field: String!, attribute: String! }

"Set to the time (ISO-8601 UTC) the item or edge is first written."
directive @createdAt on FIELD_DEFINITION

"""
On a stored field of an item or edge type: how it is stored and what a
mutation may set it to. name: the stored attribute's name when it differs
from the field's. min and max (Int and Float fields): the smallest and
largest value accepted. format (String and ID fields): the form the text
must have. Without them a field takes any value of its kind.
"""
directive @attribute(name: String, min: Float, max: Float, format: ValueFormat) on FIELD_DEFINITION
"EMAIL: an email address (local part, @, a domain with a dot), at most 254 characters."
enum ValueFormat { EMAIL }

"""
Root field: one item of its type, or null. Arguments fill the key's
placeholders by name (id for {id}; f or fId for {f}); a type with
inverted: true is found by its sort key alone through GSI1.
"""
directive @get on FIELD_DEFINITION

"""
Root field: any item by its global id (Relay's Global Object
Identification), or null when absent. It returns an interface with one
field of type ID!, the global id, and takes it as its argument id; every
@item type implements the interface, and the gateway resolves that field.
"""
directive @node on FIELD_DEFINITION

"""
Root field: the caller's own items. Its type has one field per @owner type
it offers, each returning that type's item whose id the caller's token
names in the type's claim (null when the token names none).
"""
directive @me on FIELD_DEFINITION

"""
Mutations. @create takes an input object (id generated, time-ordered, when
absent) and, for a child type, the argument named by parent; @update takes
id and input, and changed fields reach every copy; @delete takes id and
removes the item with its children and edges (counters follow; type names
the item type when the field returns only its id). For a child type,
@update and @delete take the parent's id in the argument named by parent
(an inverted child type may leave it out: it is found by its id alone
through GSI1), and the parent's counter follows a delete. @link and
@unlink take the two ids named by from and to, and @link's other arguments
set the edge fields of the same name; phrase words their messages
("Team t1 is already signed to player p1"; default "linked to").
"""
directive @create(parent: String) on FIELD_DEFINITION
directive @update(parent: String) on FIELD_DEFINITION
directive @delete(type: String, parent: String) on FIELD_DEFINITION
directive @link(edges: String!, from: String!, to: String!, phrase: String) on FIELD_DEFINITION
directive @unlink(edges: String!, from: String!, to: String!, phrase: String) on FIELD_DEFINITION

"""
Root connection over every item of a type, ordered by one of its text
fields compared without case or accents, then id. Served by the sparse
index GSI2: GSI2PK = <key>#<k> (k = fnv1a32(id) mod shards), GSI2SK =
<sortKey>#<sortable text> U+0001 <id>; one counter item per shard
(PK <key>#<k>, SK COUNTER, attribute count) keeps totalCount exact.
prefixArgument names the argument that keeps only texts starting with it.
"""
directive @catalog(type: String!, by: String!, key: String!, sortKey: String!, prefixArgument: String, shards: Int = 8) on FIELD_DEFINITION

"""
On an @item type: the item also carries GSI2 keys, GSI2PK from the template
pk (same placeholders as @item) and GSI2SK = <the instant in field by,
ISO-8601 UTC with milliseconds>#<id>, so its parent's connection can be read
by that instant (@range).
"""
directive @byInstant(pk: String!, by: String!) on OBJECT

"""
On a @children connection: the arguments after and before narrow it to
after <= <the child's @byInstant field> < before, read through GSI2 in that
order; pages are filled.
"""
directive @range(after: String!, before: String!) on FIELD_DEFINITION

"On a connection narrowed by @range: the argument keeps only children whose field equals it (a filter)."
directive @where(argument: String!, field: String!) repeatable on FIELD_DEFINITION

"""
On the inverse side of @edges: the connection may be write-sharded. The
parent item's attribute count (1 to max, absent = 1) says over how many GSI1
partitions <parent PK>#<k> its edges and counter items (<parent PK>#<k> /
COUNTER) are spread, k = fnv1a32(the other side's id) mod count. copy names
the attribute of each edge holding a copy of the count, so a parent reached
through an edge is paged without reading its item.
"""
directive @sharded(count: String!, max: Int = 64, copy: String) on FIELD_DEFINITION

"True while a rename or delete of the item is still being carried to its copies and edges."
directive @propagating on FIELD_DEFINITION

"""
Who may read a type's fields (on a type) or a field, or run a mutation (on
a field). OWNER: the caller owns the item of type of whose id is the
argument named argument, or the parent's field named field (id: the item
itself; a @parent field: that parent), or the result's field (resultField).
"""
directive @access(rule: AccessRule!, of: String, argument: String, field: String, resultField: String) on OBJECT | FIELD_DEFINITION
enum AccessRule { ANYONE SIGNED_IN OWNER ADMIN }

"""
A caller owns the item of this type whose id is the value of the token's
claim (setting names the environment variable that may rename the claim).
"""
directive @owner(claim: String!, setting: String) on OBJECT
`;

/** Every definition a model file may use without declaring it: the model's directives and the subscriptions' (subscriptionDirectives.ts). */
export const DIRECTIVE_DEFINITIONS = MODEL_DIRECTIVES + SUBSCRIPTION_DIRECTIVES;

/** The directives the gateway supplies, by name (a model may not redefine them). */
export const DIRECTIVE_NAMES = [
  'table', 'index', 'indexed', 'query', 'item', 'parent', 'children', 'edges', 'createdAt', 'attribute', 'get', 'node', 'me', 'create', 'update', 'delete', 'link', 'unlink',
  'catalog', 'byInstant', 'range', 'where', 'sharded', 'propagating', 'access', 'owner', 'changes', 'collectionChanges',
] as const;
export type DirectiveName = (typeof DIRECTIVE_NAMES)[number];

/** Names of the supporting types the definitions declare (CopyField, ValueFormat, AccessRule). */
export const SUPPLIED_TYPE_NAMES = ['CopyField', 'ValueFormat', 'AccessRule'] as const;
