/**
 * The model's vocabulary: the directive definitions every model file may use
 * without declaring them. The gateway supplies them to the model reader
 * (loadModel.ts) and to the executable schema, so a model file
 * holds only its own types. docs/model.md explains each one with an example.
 *
 * Core directives (@table … @removeEdge) describe where items live and how the
 * fields read and write them, narrowed reads, write sharding and owner
 * claims included; the extensions below them describe what the default
 * model needs beyond that (catalog lists, the authorization rules, flags).
 * At most 20 in all, the subscriptions' included (test/unit/vocabulary.test.ts).
 */
import { SUBSCRIPTION_DIRECTIVES } from './subscriptionDirectives.js';

const MODEL_DIRECTIVES = /* GraphQL */ `
"""
The table's key attributes. Without @table and @index: PK/SK, GSI1 on
GSI1PK/GSI1SK, GSI2 on GSI2PK/GSI2SK. casing: the case the table's keys are
written in, literal text and values alike (LOWER: as ElectroDB writes its
keys by default); a value a cased key holds is read from its attribute.
"""
directive @table(pk: String! = "PK", sk: String = "SK", casing: KeyCasing = NONE) on SCHEMA
"How a key's text is written: as given (NONE), or all in LOWER or UPPER case."
enum KeyCasing { NONE LOWER UPPER }

"""
A global secondary index the model reads: its name and key attributes; pk
and sk each name 1 to 4 attributes (multi-attribute keys, in key order).
An index's key attribute may be one of the table's own (pk: "SK", sk: "PK":
an inverted index over the table's keys). casing: the case of the keys
items are given there by templates (absent: as given; an attribute that is
one of the table's keys is the table's).
"""
directive @index(name: String!, pk: [String!]!, sk: [String!], casing: KeyCasing) repeatable on SCHEMA

"""
The item's key in an index: one template per key attribute of the index, in
its order. Omitted pk/sk: the index's key attributes are ones the item
already stores (fields under those attribute names, or the table's keys),
so nothing extra is written. An item without a value for one of them is
not in the index (a sparse index). when: "field" / "!field": one of two
shapes of the type in one index, written while the stored field is set /
not set.
"""
directive @indexed(index: String!, pk: [String!], sk: [String!], when: String) repeatable on OBJECT

"""
A connection read one Query per page from one partition of an index (the
table when index is omitted), ordered by the index's sort key: the items of
the connection's node type there. On a root field the arguments fill the
node type's pk template in that index by name ({customer} from customer or
customerId); on a field of a type, the parent's id fills the placeholder of
the node's @parent field. from and until name arguments that narrow the
page to from <= <the sort key's text from its first placeholder on> < until.
order: DESCENDING reads the sort key from its highest value (newest first
for a time-ordered key): first: takes the highest, last: the lowest. Over a
sort key of several attributes, arguments named as the fields of its
leading attributes fix them left to right, and from/until narrow the first
one left unfixed.

Beside @children on the same field, @query is the read used when one of its
arguments is given (the children are read from the table otherwise): the
node type's key in that index is @indexed with pk naming its parent alone
and sk "{<DateTime field>}#{id}", the instant written as ISO-8601 UTC with
milliseconds, so from and until (DateTime arguments) bound that instant.
filter names arguments that each keep only the nodes whose stored field of
the same name equals the argument's value (pages are filled to their size).
"""
directive @query(index: String, from: String, until: String, filter: [String!], order: KeyOrder = ASCENDING) on FIELD_DEFINITION
"The order of a connection: its sort key ascending (the default) or descending (newest first)."
enum KeyOrder { ASCENDING DESCENDING }

"""
Where items of this type live. Templates: literal text with {placeholders};
{id} is the item's own id, {<f>} for an @parent field f stands for that
parent's id. With inverted: true the item also carries GSI1PK = its SK and
GSI1SK = its PK, so it can be read by its sort key alone. claim: the token
claim whose value is the id of the caller's own item of this type (an owner
type, for OWNER rules and @get(by: CALLER)); claimSetting names the
environment variable that may rename the claim. constants: attributes every
create writes with the same text (another library's ownership marks, such as
ElectroDB's __edb_e__ and __edb_v__); reads do not need them.
"""
directive @item(pk: String!, sk: String!, inverted: Boolean = false, claim: String, claimSetting: String, constants: [StoredConstant!]) on OBJECT
"An attribute written with the same text on every item of a type."
input StoredConstant { attribute: String!, value: String! }

"On a field of an @item type whose type is an @item type: the parent whose partition this item lives in."
directive @parent on FIELD_DEFINITION

"""
One-to-many: a connection field over the child items in the partition the
child's pk template names for the parent (the table's, or index's when
given): begins_with(<sort key>, <the child's literal sort-key prefix>),
ordered by the sort key (order: DESCENDING, from its highest value).
counter: the parent attribute kept equal to the number of children.
"""
directive @children(counter: String, index: String, order: KeyOrder = ASCENDING) on FIELD_DEFINITION

"""
Many-to-many (adjacency list): a connection field over edge items, one per
relationship, in the parent's partition: PK = the parent's PK, SK = the
node's PK, GSI1PK = SK, GSI1SK = PK. The other direction is a second @edges
field naming this one in inverseOf, read through GSI1. copy: node fields
stored on every edge under the given attribute names, kept current after the
node changes. counter as for @children. Fields of the connection's edge type
other than cursor and node are attributes of the edge item.

shards (on the inverse side): the connection is write-sharded. The parent
item's attribute it names holds a count (1 to maxShards, absent = 1) of GSI1
partitions <parent PK>#<k> its edges and counter items (<parent PK>#<k> /
COUNTER) are spread over, k = fnv1a32(the other side's id) mod count.
shardsCopy names the attribute of each edge holding a copy of the count, so
a parent reached through an edge is paged without reading its item.

pk and sk: the edge items' own key instead ({id} the owner's id, sk's one
other placeholder the node's id: pk "u#{id}#follower", sk "u#{follower}"; sk
may also name required edge fields set by @addEdge, "{since}#u#{follower}", and
{id}, the edge's own id, "L#{id}#B#{book}"); on the inverse side they make it
a mirror, one item per edge written with the base item in one transaction.
from and until name arguments narrowing the page to from <= <the sort key's
text from its first placeholder on> < until; the sort key must open with a
placeholder. index: the inverse side reads the base items
through this declared index over the table's keys swapped instead of GSI1.
order: DESCENDING reads the side's sort key from its highest value.
"""
directive @edges(inverseOf: String, copy: [CopyField!], counter: String, shards: String, maxShards: Int = 64, shardsCopy: String, pk: String, sk: String, index: String, order: KeyOrder = ASCENDING, from: String, until: String) on FIELD_DEFINITION
input CopyField { field: String!, attribute: String! }

"Set to the time (ISO-8601 UTC) the item or edge is first written."
directive @createdAt on FIELD_DEFINITION

"""
On a stored field of an item, edge or map type: how it is stored and what
a mutation may set it to. name: the stored attribute's name when it
differs from the field's (on id: an attribute the id is also stored
under). min and max (Int and Float fields): the smallest and largest value
accepted. format (String and ID fields): the form the text must have. On a
list field max is the most elements (required: an item holds at most 400
KB), min and format apply to its elements. Without them a field takes any
value of its kind. On an enum value: name is the text stored for it (in
attributes, keys, filters), when it is not the value's name (in-progress).

counter (on a reference to an @item type): the attribute of the referred
item kept equal to the number of items referring to it, moved in the same
transaction as each create and delete of one (a star counted on its
repository). sequence and pad (on an Int field of a child type): at
create the field takes the next number from the parent's attribute named
by sequence, and keys write it zero-padded to pad digits (default 10) so
that it sorts as text (issue numbers on a repository).
"""
directive @attribute(name: String, min: Float, max: Float, format: ValueFormat, counter: String, sequence: String, pad: Int) on FIELD_DEFINITION | ENUM_VALUE
"EMAIL: an email address (local part, @, a domain with a dot), at most 254 characters."
enum ValueFormat { EMAIL }

"""
Root field: one item, or null. by: KEY (the default): an item of its type;
arguments fill the key's placeholders by name (id for {id}; f or fId for
{f}); a type with inverted: true is found by its sort key alone through
GSI1. by: NODE: any item by its global id (Relay's Global Object
Identification); the field returns an interface with one field of type ID!,
the global id, and takes it as its argument id; every @item type
implements the interface, and the gateway resolves that field. by: CALLER:
the caller's own items; the field takes no arguments and its type has one
field per type with a claim (@item(claim:)), each returning that type's
item whose id the caller's token names in the claim (null when it names
none).
"""
directive @get(by: GetBy = KEY) on FIELD_DEFINITION
"How @get finds what it returns."
enum GetBy { KEY NODE CALLER }

"""
Mutations. @create takes an input object (id generated, time-ordered, when
absent) and, for a child type, the argument named by parent; @update takes
id and input, and changed fields reach every copy; @delete takes id and
removes the item with its children and edges (counters follow; type names
the item type when the field returns only its id). For a child type,
@update and @delete take the parent's id in the argument named by parent
(an inverted child type may leave it out: it is found by its id alone
through GSI1), and the parent's counter follows a delete. @addEdge and
@removeEdge take the two ids named by from and to, and @addEdge's other arguments
set the edge fields of the same name; phrase words their messages
("Team t1 is already signed to player p1"; default "linked to"). @delete's
match names stored fields of a top-level type, each with an argument of
the same name: the item is deleted only while it holds those values.
"""
directive @create(parent: String) on FIELD_DEFINITION
directive @update(parent: String) on FIELD_DEFINITION
directive @delete(type: String, parent: String, match: [String!]) on FIELD_DEFINITION
directive @addEdge(edges: String!, from: String!, to: String!, phrase: String) on FIELD_DEFINITION
directive @removeEdge(edges: String!, from: String!, to: String!, phrase: String) on FIELD_DEFINITION

"""
Root connection over every item of a type, ordered by one of its text
fields compared without case or accents, then id. Served by the sparse
index GSI2: GSI2PK = <key>#<k> (k = fnv1a32(id) mod shards), GSI2SK =
<sortKey>#<sortable text> U+0001 <id>; one counter item per shard
(PK <key>#<k>, SK COUNTER, attribute count) keeps totalCount exact.
prefixArgument names the argument that keeps only texts starting with it.
"""
directive @catalog(type: String!, by: String!, key: String!, sortKey: String!, prefixArgument: String, shards: Int = 8) on FIELD_DEFINITION

"True while a rename or delete of the item is still being carried to its copies and edges."
directive @propagating on FIELD_DEFINITION

"""
Who may read a type's fields (on a type) or a field, or run a mutation (on
a field). OWNER: the caller owns (@item(claim:)) the item of type of whose
id is the argument named argument, or the parent's field named field (id:
the item itself; a @parent field: that parent), or the result's field
(resultField).
"""
directive @access(rule: AccessRule!, of: String, argument: String, field: String, resultField: String) on OBJECT | FIELD_DEFINITION
enum AccessRule { ANYONE SIGNED_IN OWNER ADMIN }
`;

/** Every definition a model file may use without declaring it: the model's directives and the subscriptions' (subscriptionDirectives.ts). */
export const DIRECTIVE_DEFINITIONS = MODEL_DIRECTIVES + SUBSCRIPTION_DIRECTIVES;

/** The directives the gateway supplies, by name (a model may not redefine them). */
export const DIRECTIVE_NAMES = [
  'table', 'index', 'indexed', 'query', 'item', 'parent', 'children', 'edges', 'createdAt', 'attribute', 'get', 'create', 'update', 'delete', 'addEdge', 'removeEdge',
  'catalog', 'propagating', 'access', 'changes',
] as const;
export type DirectiveName = (typeof DIRECTIVE_NAMES)[number];

/** Names of the supporting types the definitions declare. */
export const SUPPLIED_TYPE_NAMES = ['CopyField', 'ValueFormat', 'GetBy', 'AccessRule', 'KeyOrder', 'KeyCasing', 'StoredConstant'] as const;
