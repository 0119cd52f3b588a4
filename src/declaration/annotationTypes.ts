/**
 * The model's directive uses as typed records (annotations.ts reads them,
 * once per schema): one interface per directive of the vocabulary
 * (directives.ts), its arguments typed, defaults applied, an argument not
 * given held as null. The other readers of the model read these records,
 * never a directive or an argument by its name.
 */
import type { ConstDirectiveNode } from 'graphql';
import type { DirectiveName } from './directives.js';
import type { KeyCasing } from './template.js';

export type KeyOrder = 'ASCENDING' | 'DESCENDING';

/** What every record carries: the use itself, for the line a problem names. */
interface Use {
  node: ConstDirectiveNode;
}

/** @table on the schema. */
export interface TableNote extends Use {
  pk: string;
  sk: string | null;
  casing: KeyCasing;
}

/** One @index on the schema. */
export interface IndexNote extends Use {
  name: string;
  pk: string[];
  sk: string[] | null;
  casing: KeyCasing | null;
}

/** @item on a type. */
export interface ItemNote extends Use {
  pk: string;
  sk: string;
  inverted: boolean;
  claim: string | null;
  claimSetting: string | null;
  constants: { attribute: string; value: string }[];
}

/** One @indexed on a type. */
export interface IndexedNote extends Use {
  index: string;
  pk: string[] | null;
  sk: string[] | null;
  when: string | null;
}

/** @query: a read of one partition of an index, ordered by its sort key. */
export interface QueryNote extends Use {
  index: string | null;
  from: string | null;
  until: string | null;
  filter: string[] | null;
  order: KeyOrder;
}

/**
 * How a connection field reads its partition, whichever directive binds it:
 * @query's own record, or the one @children(index:, order:) and
 * @edges(index:, order:, from:, until:) are sugar for (`by` names the
 * directive; what @children lacks is null). The phases read index, order
 * and the range from here alone.
 */
export interface ReadNote extends QueryNote {
  by: 'query' | 'children' | 'edges';
}

/** @children. */
export interface ChildrenNote extends Use {
  counter: string | null;
  index: string | null;
  order: KeyOrder;
}

/** @edges. */
export interface EdgesNote extends Use {
  inverseOf: string | null;
  copy: { field: string; attribute: string }[] | null;
  counter: string | null;
  shards: string | null;
  maxShards: number;
  shardsCopy: string | null;
  pk: string | null;
  sk: string | null;
  index: string | null;
  order: KeyOrder;
  from: string | null;
  until: string | null;
}

/** @attribute on a field or an enum value; `given` lists the arguments the use spells, in order. */
export interface AttributeNote extends Use {
  name: string | null;
  min: number | null;
  max: number | null;
  format: 'EMAIL' | null;
  counter: string | null;
  sequence: string | null;
  pad: number | null;
  given: string[];
}

export interface GetNote extends Use {
  by: 'KEY' | 'NODE' | 'CALLER';
}

/** @create and @update. */
export interface WriteNote extends Use {
  parent: string | null;
}

export interface DeleteNote extends Use {
  type: string | null;
  parent: string | null;
  match: string[] | null;
}

/** @addEdge and @removeEdge. */
export interface EdgeMutationNote extends Use {
  edges: string;
  from: string;
  to: string;
  phrase: string | null;
}

export interface CatalogNote extends Use {
  type: string;
  by: string;
  key: string;
  sortKey: string;
  prefixArgument: string | null;
}

export interface AccessNote extends Use {
  rule: 'ANYONE' | 'SIGNED_IN' | 'OWNER' | 'ADMIN';
  of: string | null;
  argument: string | null;
  field: string | null;
  resultField: string | null;
}

export interface ChangesNote extends Use {
  field: string | null;
}

/** The vocabulary's directives on one field (of an object type, or an argument or input field). */
export interface FieldNotes {
  /** The vocabulary directives used on it, in order. */
  uses: DirectiveName[];
  query: QueryNote | null;
  /** The field's ordered read of one index partition (@query, or the @children or @edges it expands from); null on other fields. */
  read: ReadNote | null;
  children: ChildrenNote | null;
  edges: EdgesNote | null;
  attribute: AttributeNote | null;
  get: GetNote | null;
  create: WriteNote | null;
  update: WriteNote | null;
  delete: DeleteNote | null;
  addEdge: EdgeMutationNote | null;
  removeEdge: EdgeMutationNote | null;
  catalog: CatalogNote | null;
  access: AccessNote | null;
  changes: ChangesNote | null;
  parent: boolean;
  createdAt: boolean;
  propagating: boolean;
}

/** The vocabulary's directives on one type. */
export interface TypeNotes {
  uses: DirectiveName[];
  item: ItemNote | null;
  indexed: IndexedNote[];
  access: AccessNote | null;
}

/** A Federation @key (under the name the model's link gives it). */
export interface FederationKeyNote {
  fields: string;
  resolvable: boolean;
  node: ConstDirectiveNode;
}

/** One @link on the schema, its arguments as written (federationLink.ts reads what they mean). */
export interface LinkNote {
  url: import('graphql').ConstValueNode | undefined;
  import: import('graphql').ConstValueNode | undefined;
  node: ConstDirectiveNode;
}
