/**
 * What the import drafts: a Draft (the model as data, emit.ts writes it)
 * and the Inference that builds it (infer.ts and the steps it calls).
 */
import type { Placed, Shape } from './shapes.js';
import type { RawItem, WorkbenchTable } from './read.js';

export type FieldKind = 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime';

export interface DraftField {
  name: string;
  /** The stored attribute's name (differs from name when that is no GraphQL name). */
  attribute: string;
  kind: FieldKind;
  /** A key field: set at create, so required. */
  required?: boolean;
  /** A reference: the type whose id the attribute holds (then served as that type). */
  reference?: string;
}

export interface DraftQuery {
  name: string;
  /** The index read, or null for the table. */
  index: string | null;
  args: { name: string; type: string }[];
}

/** A connection field of a type listing another type's items through an index, by a reference to it. */
export interface DraftFieldQuery {
  field: string;
  type: string;
  index: string;
}

/** The type's key in a declared index: templates per key attribute, or null for attributes the item stores. */
export interface DraftIndexed {
  index: string;
  pk: string[] | null;
  sk: string[] | null;
}

/** One side of a many-to-many: a mirrored pair the samples show both ways, or link items read back through an index. */
export interface DraftEdges {
  field: string;
  /** The node type. */
  type: string;
  pk: string;
  sk: string;
  /** The base side's field, on the inverse side. */
  inverseOf: string | null;
  /** On an inverse side: the overloaded index its key (pk/sk) is in, written on the base items; absent for a mirror. */
  index?: string;
}

export interface DraftType {
  name: string;
  /** Its @get root field. */
  get: string;
  pk: string;
  sk: string;
  parent: { field: string; type: string } | null;
  /** Fields the key templates name besides {id} and the parent (in `fields` too, required). */
  keyFields: string[];
  /** No {id} in the keys: the id is derived from the key's values (@get by id alone). */
  derivedId: boolean;
  fields: DraftField[];
  indexed: DraftIndexed[];
  children: { field: string; type: string }[];
  fieldQueries: DraftFieldQuery[];
  edges: DraftEdges[];
  queries: DraftQuery[];
  todos: string[];
  /** What the type is, for its description. */
  about: string;
  /** The sample items of this type (plain values). */
  samples: Record<string, unknown>[];
  /** Declared only as the parent of others: no sample item has its key. */
  standIn: boolean;
  /** The shape it was placed from (none for a stand-in). */
  placed: Placed | null;
}

export interface Draft {
  modelName: string;
  tableName: string;
  pk: string;
  sk: string;
  indexes: { name: string; pk: string[]; sk: string[] }[];
  types: DraftType[];
  /** TODOs of the whole model (shapes not served, attributes no sample carries). */
  todos: string[];
  /** Samples left out of the demo data: no declared type reads them. */
  excluded: Set<RawItem>;
}

export type PartitionMember = { prefix: string; exact: boolean; name: string };

/** One inference under way: the table, the shapes placed so far, the types declared, the draft's to-dos. */
export interface Inference {
  table: WorkbenchTable;
  todos: string[];
  keyNames: Set<string>;
  /** Type names given (with their Connection and Edge types). */
  taken: Set<string>;
  placed: Placed[];
  unserved: Shape[];
  unservedAttributes: Set<string>;
  mainOfFacet: Map<string, Placed>;
  /** Sort-key members of each partition shape: shapes that share a partition must differ in their sort-key prefixes. */
  inPartition: Map<string, PartitionMember[]>;
  types: DraftType[];
  byPlaced: Map<Placed, DraftType>;
}

export const emptyType = (name: string, pk: string, sk: string): DraftType => ({
  name,
  get: '',
  pk,
  sk,
  parent: null,
  keyFields: [],
  derivedId: false,
  fields: [],
  indexed: [],
  children: [],
  fieldQueries: [],
  edges: [],
  queries: [],
  todos: [],
  about: '',
  samples: [],
  standIn: false,
  placed: null,
});
