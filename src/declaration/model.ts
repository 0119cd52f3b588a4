/**
 * The model: what a model file declares, checked and resolved (buildModel.ts
 * makes it; nothing on the request path reads directives again).
 *
 * Terminology:
 * - item type: an object type with @item; its items live at `pk`/`sk`.
 * - parent: the @parent field of a child item type; the child lives in the
 *   parent's partition, so its pk template is the parent's.
 * - relation: a connection field of an item type, @children (the child
 *   items in the parent's partition) or @edges (edge items, one per
 *   relationship; `direction` says whether it reads the base table or GSI1).
 * - attribute: a stored scalar field of an item or edge item.
 */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { KeyCasing, KeyTemplate } from './template.js';

export type ScalarKind = 'ID' | 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime' | 'enum';

/** A stored field's kind: a scalar, or a DynamoDB map or list held inside the item (`shape` says what it holds). */
export type AttributeKind = ScalarKind | 'Map' | 'List';

/**
 * What a Map or List attribute holds, and each value inside it: a scalar
 * (its kind, enum values and declared constraints), a map (an object type
 * without @item and without `id: ID!`: its fields, each under its stored
 * name) or a list (of scalars or maps, at most `max` elements).
 * `required`: the position is non-null in GraphQL.
 */
export type ValueShape =
  | { kind: 'scalar'; scalar: ScalarKind; values?: readonly string[]; constraints: Constraints; required: boolean }
  | { kind: 'map'; type: string; fields: readonly MapField[]; required: boolean }
  | { kind: 'list'; of: ValueShape; max: number; required: boolean };

/** A field of a map type: its GraphQL name, the key it is stored under inside the map, what it holds. */
export interface MapField {
  name: string;
  storedAs: string;
  shape: ValueShape;
}

/** A value format @attribute(format:) may require of a text field. */
export type ValueFormat = 'EMAIL';

/** What a mutation may set an attribute to beyond its kind's rules (@attribute(min, max, format)); null: unconstrained. */
export interface Constraints {
  /** Int and Float: the smallest and largest value accepted. */
  min: number | null;
  max: number | null;
  /** String and ID: the form the text must have. */
  format: ValueFormat | null;
}

export interface Attribute {
  name: string;
  /**
   * The stored attribute's name: @attribute(name:), else the field's. Items
   * hold the value under `storedAs`, records under `name`: every read maps
   * one to the other and every write the other way (storedName below).
   */
  storedAs: string;
  kind: AttributeKind;
  /** Map and List: what the value holds (the shape of the whole attribute, `required` as above). */
  shape?: ValueShape;
  required: boolean;
  /** @createdAt: set when the item or edge is first written. */
  createdAt: boolean;
  /** An enum's values: a stored text that is none of them reads as absent (docs/model.md). */
  values?: readonly string[];
  constraints: Constraints;
  /**
   * A reference: the field's GraphQL type is an @item type or a keyless type
   * (an object type with id: ID! and no @item), stored as the referred id
   * (kind ID). Null for a plain stored field.
   */
  reference?: { type: string; keyless: boolean };
  /**
   * A list of references (`[Product!]!`): stored as a list of the referred
   * ids (`shape` is a list of IDs), read back as those items (keyless: as
   * their ids), an id whose item is missing left out. Absent otherwise.
   */
  references?: { type: string; keyless: boolean };
  /**
   * @attribute(counter:) on a reference to an @item type: the attribute of
   * the referred item kept equal to the number of items referring to it,
   * moved in the same transaction as each create and delete of one.
   */
  counter?: string;
  /**
   * @attribute(sequence:, pad:) on an Int field of a child type: at create
   * the field takes the next number from the parent's attribute
   * `attribute` (ADD 1), and keys write it zero-padded to `pad` digits so
   * that it sorts as text.
   */
  sequence?: { attribute: string; pad: number };
}

/**
 * One key attribute of an item in an index: the template its value is
 * built from. `written` is false where the attribute is one the item
 * already stores (a field under that name, or a table key), so nothing
 * extra is written.
 */
export interface KeyPart {
  attribute: string;
  template: KeyTemplate;
  written: boolean;
}

/** An item type's key in a declared index (@indexed): one part per key attribute, in the index's order. */
export interface IndexPlacement {
  index: string;
  pk: readonly KeyPart[];
  sk: readonly KeyPart[];
  /**
   * @indexed(when:): this key is one of several shapes of the type in the
   * index, written only while the stored field is set (`set`) or not set.
   */
  when?: { field: string; set: boolean };
}

export interface ItemType {
  name: string;
  pk: KeyTemplate;
  sk: KeyTemplate;
  inverted: boolean;
  /** @indexed: the indexes the type's items are in besides the table (and GSI1 when inverted), in declaration order. */
  indexed: IndexPlacement[];
  /** The @parent field and its type, for a child item type. */
  parent: { field: string; type: string } | null;
  /**
   * Stored fields the table keys hold besides id and the parent
   * (`msg#{sentAt}#{id}`): set at create, never updated, read back from the
   * key. An item of such a type is found by its id with these values.
   */
  keyFields: string[];
  /**
   * For a type whose keys name no `{id}`: the placeholders its id is made
   * of, in the order they first appear in pk then sk (the parent field
   * among them). The id is derived from the key (plan/derivedId.ts), so it
   * alone finds the item. Null for a type whose keys hold `{id}`.
   */
  derivedId: readonly string[] | null;
  /**
   * For a sort key that is one placeholder alone (`{id}`: no literal
   * prefix), the sort-key prefixes of the other types in its partition
   * (`Join:`): its reads pass their items by, and its keys may not begin
   * with them. Set by the partition check.
   */
  skExcludes?: string[];
  /**
   * The attribute the id is also stored under: @attribute(name:) on id, or
   * `id` where the table's keys are cased (a cased key cannot give the id
   * back). Null: the id is in the keys alone.
   */
  idStoredAs: string | null;
  /**
   * Where the table's keys are cased, the attribute the parent's id is also
   * stored under (the parent field's name); null otherwise.
   */
  parentStoredAs: string | null;
  /** @item(constants:): attributes every create writes with the same text. */
  constants: readonly { attribute: string; value: string }[];
  /** Stored scalar fields, `id` excluded. */
  attributes: Attribute[];
  /** Boolean fields marked @propagating. */
  flags: string[];
  /** Connection fields, in declaration order. */
  relations: Relation[];
  /** GSI2 keys by an instant field: @indexed(index: "GSI2", pk: [<the parent alone>], sk: ["{<DateTime field>}#{id}"]) (indexed.ts). */
  byInstant: { pk: KeyTemplate; by: string } | null;
  /** @item(claim, claimSetting): the claim whose value names the item its caller owns. */
  owner: { claim: string; setting: string | null } | null;
  /** @access on the type: the default rule of its fields. */
  access: Access | null;
  /** @access on single fields of the type (attributes, flags, the parent field, id), by field name. */
  fieldAccess: Record<string, Access>;
  /** The field holding the item's global id (the node interface's field), when the model declares a @get(by: NODE) root field. */
  globalId: string | null;
  /**
   * The counters other types keep on this type's items
   * (@attribute(counter:) on their references to it): each starts at 0 when
   * an item is created. Set by the counter check (counted.ts).
   */
  countedBy?: { type: string; field: string; counter: string }[];
}

export interface CopyField {
  /** The node's field that is copied. */
  field: string;
  /** The edge item attribute holding the copy. */
  attribute: string;
}

interface RelationBase {
  /** The type the field is on, and the field. */
  owner: string;
  field: string;
  /** `Owner.field`, as @addEdge/@removeEdge name it. */
  path: string;
  /** The connection type and its edge type. */
  connectionType: string;
  edgeType: string;
  /** The item type of the edges' nodes. */
  node: string;
  counter: string | null;
  /** Arguments besides first/after/last/before. */
  extraArguments: string[];
  access: Access | null;
}

export interface ChildrenRelation extends RelationBase {
  kind: 'children';
  /** The index the children are read from (null: the table); the child type's key there names the partition. */
  index: string | null;
  /** @children owns its items (counter, cascade on delete); a @query field on a type only reads them. */
  owned: boolean;
  /** The node's field whose value is the owner's id (its @parent field, or for @query a reference to the owner's type); '' when none does. */
  via: string;
  /**
   * The other placeholders of the node's partition key there, each filled
   * by one of the owner's key values (the placeholder at the same position
   * of the owner's pk template, which the node's repeats with its own
   * names: `REPO#{repoOwner}#{repoName}` under `REPO#{owner}#{name}`), or,
   * on a @query, by an argument of the field. Empty: the owner's id alone
   * names the partition.
   */
  partitionFills: Record<string, PartitionFill>;
  /** @query(from, until): the arguments narrowing the sort key, or null. */
  bounds: QueryBounds | null;
  /** order: DESCENDING: `first:` takes the highest sort keys. */
  descending: boolean;
  /** Over an index sort key of several attributes: placeholder of a leading sort attribute's template → the argument fixing it. */
  sortArguments: Record<string, string>;
  /** @query beside @children: arguments that narrow the connection to GSI2 by the child's instant (`byInstant`), and its filters. */
  range: { after: string; before: string; where: { argument: string; field: string }[] } | null;
}

/** Where a placeholder of a connection's partition key gets its value: a key value of the owner (by the owner's placeholder), or an argument. */
export type PartitionFill = { ownerKey: string } | { argument: string };

export interface EdgesRelation extends RelationBase {
  kind: 'edges';
  /**
   * `base`: the side without inverseOf, whose edge items a @addEdge writes (in
   * the owner's partition, PK = owner's PK, SK = node's PK, unless `key`
   * says otherwise); `inverted`: the side with inverseOf, which reads the
   * base side's items through an index (GSI1, or `index`) or, with a `key`
   * of its own, is the mirror of each base item, written beside it.
   */
  direction: 'base' | 'inverted';
  /** @edges(pk, sk): the side's own edge items' key, or null (the default keys above). */
  key: EdgeKey | null;
  /** @edges(index) on an inverse side without a key: the declared index over the table's keys swapped that it reads; null: GSI1. */
  index: string | null;
  /** @edges(order: DESCENDING): paged from the highest sort key. */
  descending: boolean;
  /** @edges(from, until): the arguments narrowing the sort key from its first placeholder on, or null. */
  bounds: QueryBounds | null;
  /** The @edges field of the other direction (`Player.teams` for `Team.players`), if declared. */
  inverse: string | null;
  copies: CopyField[];
  /** Attributes of the edge item (the edge type's fields other than cursor and node). */
  edgeAttributes: Attribute[];
  /** @edges(shards, maxShards, shardsCopy), on the inverted side only. */
  sharded: { count: string; max: number; copy: string | null } | null;
}

/**
 * An edge item's key templates: `{id}` in pk is the owner's id, the
 * placeholder `node` of sk the node's id (`u#{id}#follower` / `u#{follower}`);
 * sk may also name edge fields fixed at link time (`{since}#u#{follower}`)
 * and `{id}`, the edge's own id (`L#{id}#B#{book}`).
 */
export interface EdgeKey {
  pk: KeyTemplate;
  sk: KeyTemplate;
  node: string;
  /** The edge fields sk holds: set by @addEdge, read back from the key, needed by @removeEdge. */
  fields: readonly string[];
  /** sk names {id}: each link is an edge of its own (generated id unless given), so two items may be linked many times. */
  ownId: boolean;
}

export type Relation = ChildrenRelation | EdgesRelation;

/** The arguments of a @query field that narrow its sort key: from <= value < until (either may be null). */
export interface QueryBounds {
  from: string | null;
  until: string | null;
}

export type AccessRule = 'ANYONE' | 'SIGNED_IN' | 'OWNER' | 'ADMIN';

export interface Access {
  rule: AccessRule;
  /** OWNER: the owned type, and where its id comes from. */
  of: string | null;
  argument: string | null;
  field: string | null;
  resultField: string | null;
}

export interface GetField {
  kind: 'get';
  field: string;
  type: string;
  /** A keyless type: answered from the argument alone, without a read. */
  keyless?: boolean;
  /** Placeholder of the type's keys → the argument that fills it. */
  arguments: Record<string, string>;
  access: Access | null;
}

export interface CatalogField {
  kind: 'catalog';
  field: string;
  type: string;
  connectionType: string;
  by: string;
  key: string;
  sortKey: string;
  prefixArgument: string | null;
  shards: number;
  access: Access | null;
}

/** @get(by: NODE): any item by its global id. */
export interface NodeField {
  kind: 'node';
  field: string;
  /** The interface it returns, and that interface's one field (the global id). */
  interface: string;
  idField: string;
  access: Access | null;
}

/** @get(by: CALLER): the caller's own items, one field of `type` per type with a claim. */
export interface MeField {
  kind: 'me';
  field: string;
  type: string;
  owners: { field: string; type: string }[];
  access: Access | null;
}

/** @query on a root field: one partition of an index (or the table), named by the arguments. */
export interface QueryField {
  kind: 'query';
  field: string;
  /** The node type and the connection type. */
  type: string;
  connectionType: string;
  /** null: the table. */
  index: string | null;
  /** Which of the node type's @indexed(when:) shapes in `index` it reads (their order of declaration); 0 for a type with one key there. */
  shape?: number;
  /** Placeholder of the node type's pk template there → the argument that fills it. */
  arguments: Record<string, string>;
  bounds: QueryBounds | null;
  /** Over an index sort key of several attributes: placeholder of a leading sort attribute's template → the argument fixing it. */
  sortArguments: Record<string, string>;
  /** order: DESCENDING: `first:` takes the highest sort keys. */
  descending: boolean;
  access: Access | null;
}

export type RootField = GetField | CatalogField | NodeField | MeField | QueryField;

/**
 * A collection: a connection field, on a type or on Query, whose node type
 * is a union or interface of item types sharing a partition of the table
 * or of an index, read by @query (collections.ts): one Query a page over
 * the sort-key range covering every member, in key order, each item
 * resolved to its type by its key.
 */
export interface CollectionField {
  /** The type the field is on (the Query type's name for a root field), and the field. */
  owner: string;
  field: string;
  /** `Owner.field`: cursors are bound to it. */
  path: string;
  root: boolean;
  connectionType: string;
  edgeType: string;
  /** The union or interface. */
  node: string;
  /** null: the table. */
  index: string | null;
  pkAttr: string;
  skAttr: string;
  /** The item types it lists and their keys there, in the order an item is matched against them (literal prefixes first). */
  members: CollectionMember[];
  /** How each placeholder of the partition's shape is filled, in the order of the pk templates' placeholders. */
  slots: CollectionSlot[];
  /** The members' common literal sort-key prefix, and the range [lo, hi) covering them (null: every key under the prefix). */
  prefix: string;
  range: { lo: string; hi: string } | null;
  /** Other types inside the range of which a partition holds one item at most (`META`), their keys there: read past. */
  passes: CollectionPass[];
  /** order: DESCENDING. */
  descending: boolean;
  access: Access | null;
}

/** A kind of item a collection reads past: its keys in the collection's index (its sort key filled from its partition's values). */
export interface CollectionPass {
  pk: KeyTemplate;
  sk: KeyTemplate;
}

export interface CollectionMember {
  type: string;
  pk: KeyTemplate;
  sk: KeyTemplate;
}

/** A placeholder of a collection's partition, filled by an argument of the field, or by a field of the parent (`id`, a key field, its parent's id). */
export type CollectionSlot = { argument: string } | { parentField: string };


export type MutationField =
  | { kind: 'create'; field: string; type: string; input: string; parentArgument: string | null; access: Access | null }
  | { kind: 'update'; field: string; type: string; input: string; parentArgument: string | null; keyArguments: Record<string, string>; access: Access | null }
  | {
      kind: 'delete';
      field: string;
      type: string;
      parentArgument: string | null;
      keyArguments: Record<string, string>;
      /** Stored fields the item must hold the values of the arguments of the same name to be deleted (@delete(match)). */
      match: readonly string[];
      access: Access | null;
    }
  | { kind: 'link' | 'unlink'; field: string; edges: string; from: string; to: string; phrase: string | null; access: Access | null };

/** A global secondary index the model declares: its name and key attributes (1–4 each, in key order). */
export interface IndexLayout {
  name: string;
  pk: readonly string[];
  /** Empty: the index has no sort key. */
  sk: readonly string[];
  /** @index(casing:): the case of the keys templates write there; null when not declared (as given). */
  casing: KeyCasing | null;
}

/** The table's key attributes and its indexes (@table, @index; layout.ts). */
export interface Layout {
  /** False when the model declares no @table/@index (the default layout). */
  declared: boolean;
  pk: string;
  sk: string | null;
  /** @table(casing:): the case the table's keys are written in (NONE: as given). */
  casing: KeyCasing;
  indexes: readonly IndexLayout[];
}

/** A field of a @key's field set, with the fields selected inside it (a reference's or the parent's: `product { id }`). */
export interface KeyField {
  field: string;
  sub: readonly KeyField[] | null;
}

/**
 * How the gateway finds an entity from a representation of one @key
 * (federation.ts reads it; docs/federation.md):
 * - `representation`: a keyless type, whose record is its id: no read;
 * - `id`: by its id alone (a top-level or derived-id type; an inverted
 *   child through GSI1);
 * - `key`: by the values of its table key's placeholders;
 * - `index`: by the key of a declared index it is @indexed in (one Query).
 */
export type KeyLookup = { kind: 'representation' } | { kind: 'id' } | { kind: 'key' } | { kind: 'index'; index: string };

export interface EntityKey {
  /** The field set as written. */
  fields: string;
  selection: readonly KeyField[];
  resolvable: boolean;
  /** Null for a key that is not resolvable. */
  lookup: KeyLookup | null;
}

/** A type with @key: an entity of the supergraph this model serves (or stores a stub of). */
export interface Entity {
  name: string;
  /** Its @key directives, in order. */
  keys: readonly EntityKey[];
  /** What finds it: an @item type, a keyless type, or neither (no resolvable key). */
  kind: 'item' | 'keyless' | 'value';
  /** @external fields: a representation's values of them are its record's. */
  external: readonly string[];
}

/** The model's link to Apollo Federation 2 (federationLink.ts, federation.ts). */
export interface Federation {
  /** The linked version, 2.<minor>. */
  minor: number;
  /** Federation's directive (canonical name) → the name the model uses. */
  names: Readonly<Record<string, string>>;
  /** Entity types by name. */
  entities: ReadonlyMap<string, Entity>;
  /** Types the model extends without defining them (`extend type User @key(…)`): the SDL prints them so. */
  extended: readonly string[];
}

/** A keyless type: an entity known only by the ids that refer to it (no item of its own). */
export interface KeylessType {
  name: string;
}

export interface Model {
  /** The file it was read from, for messages. */
  source: string;
  /** The model's own SDL (without the supplied directive definitions). */
  document: DocumentNode;
  /** The SDL the executable schema is built from: directive definitions plus the model. */
  typeDefs: DocumentNode;
  /**
   * `typeDefs` built and validated (graphql's SDL rules), without resolvers:
   * the one GraphQL schema a process builds from its model, which the
   * executable schema and the subscriptions read.
   */
  schema: GraphQLSchema;
  layout: Layout;
  items: ReadonlyMap<string, ItemType>;
  /** Keyless types by name. */
  keyless: ReadonlyMap<string, KeylessType>;
  /** Every relation by `Owner.field`. */
  relations: ReadonlyMap<string, Relation>;
  queries: RootField[];
  /** Connections over a union or interface of item types sharing a partition, by `Owner.field` (root fields included). */
  collections: ReadonlyMap<string, CollectionField>;
  mutations: MutationField[];
  /** @access on the Query and Mutation types: the default rule of their fields. */
  rootAccess: { Query: Access | null; Mutation: Access | null };
  /** The link to Apollo Federation 2 and its entities; null for a model that links none. */
  federation: Federation | null;
}

/**
 * The attribute a field of an item type is stored under: its
 * @attribute(name:), else the field's own name (id, the parent field and
 * unknown names map to themselves).
 */
export function storedName(item: Pick<ItemType, 'attributes'>, field: string): string {
  return item.attributes.find((a) => a.name === field)?.storedAs ?? field;
}

/**
 * What a create writes of an item besides its keys and fields: the id
 * (and a child's parent id) under the attributes the type stores them under
 * (beside cased keys, or for another library reading attributes), and its
 * constant attributes.
 */
export function writtenBeside(item: Pick<ItemType, 'idStoredAs' | 'parentStoredAs' | 'constants'>, id: string, parentId: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (item.idStoredAs !== null) out[item.idStoredAs] = id;
  if (item.parentStoredAs !== null && parentId !== undefined) out[item.parentStoredAs] = parentId;
  for (const c of item.constants) out[c.attribute] = c.value;
  return out;
}
