/**
 * What the phases of buildModel hand each other: the schema with its
 * directive records and what has been read of it so far.
 */
import type { GraphQLSchema } from 'graphql';
import type { Annotations } from './annotations.js';
import type { ItemType, KeylessType, Layout, Relation, RootField } from './model.js';
import type { Problems } from './problems.js';

/** What buildModel's later phases read: the schema, its directive records, and the types and relations read so far. */
export interface ModelReading {
  schema: GraphQLSchema;
  notes: Annotations;
  layout: Layout;
  items: ReadonlyMap<string, ItemType>;
  relations: ReadonlyMap<string, Relation>;
  keyless: ReadonlyMap<string, KeylessType>;
  problems: Problems;
}

/** What the checks made once every root field is read look at. */
export interface ServedReading {
  layout: Layout;
  items: ReadonlyMap<string, ItemType>;
  relations: ReadonlyMap<string, Relation>;
  queries: readonly RootField[];
  problems: Problems;
}
