/**
 * Reading the built schema's shapes the model cares about: named types
 * through wrappers, connection and edge types, directive arguments.
 *
 * The schema is built by buildModel.ts with the same graphql import, so
 * graphql's own type predicates apply.
 */
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLType,
} from 'graphql';

export interface Unwrapped {
  named: GraphQLNamedType;
  list: boolean;
  nonNull: boolean;
}

/** The named type inside NonNull/List wrappers, and whether a list wrapped it. */
export function unwrap(type: GraphQLType): Unwrapped {
  let t: GraphQLType = type;
  const nonNull = isNonNullType(t);
  let list = false;
  while (isNonNullType(t) || isListType(t)) {
    if (isListType(t)) list = true;
    t = t.ofType;
  }
  return { named: t, list, nonNull };
}

export const isObject = (t: GraphQLNamedType): t is GraphQLObjectType => isObjectType(t);
export const isEnum = (t: GraphQLNamedType): boolean => isEnumType(t);
export const isInputObject = (t: GraphQLNamedType): boolean => isInputObjectType(t);
export const isScalarLike = (t: GraphQLNamedType): boolean => isScalarType(t) || isEnumType(t);

/** A connection type: `edges: [E!]!` whose E has `node` and `cursor`, and `pageInfo`. */
export function connectionShape(type: GraphQLNamedType): { edge: GraphQLObjectType; node: GraphQLNamedType } | null {
  if (!isObject(type)) return null;
  const fields = type.getFields();
  if (!fields.edges || !fields.pageInfo) return null;
  const edges = unwrap(fields.edges.type);
  if (!edges.list || !isObject(edges.named)) return null;
  const edgeFields = edges.named.getFields();
  if (!edgeFields.node || !edgeFields.cursor) return null;
  return { edge: edges.named, node: unwrap(edgeFields.node.type).named };
}

export type Field = GraphQLField<unknown, unknown>;
