/**
 * declaredSubscriptions(): the Subscription fields of a schema, read from
 * their directives (directives.ts) once at start-up.
 *
 * In: the executable schema and the model port (model.ts).
 * Out: one plan per field: which topic its arguments name and how an
 * event becomes its payload. Every problem is reported at once, naming the
 * field, so a model that declares a subscription it cannot serve does not
 * start.
 */
import { getNamedType, isEnumType, isNonNullType, isObjectType, isScalarType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { CHANGE_KIND, CHANGES } from '../declaration/subscriptionDirectives.js';
import type { ChangeModel } from './model.js';
import { readAnnotations } from '../declaration/annotations.js';

interface Common {
  /** The Subscription field. */
  field: string;
  /** Its argument names, in order: the key of the object (or parent) they name. */
  args: string[];
  /** The root read field (of the object's type, or the parent's): its rule decides who may subscribe. */
  rootField: string;
  /** That field's argument names, in order: the same key. */
  rootArgs: string[];
}

/** `@changes`: one object. */
export interface ItemSubscription extends Common {
  kind: 'item';
  type: string;
}

/** `@changes(field:)`: a parent's connection. */
export interface CollectionSubscription extends Common {
  kind: 'collection';
  /** `Type.field` */
  connection: string;
  parentType: string;
  kindField: string;
  idField: string;
  payloadField: string;
  /** What the payload field holds: the connection's edge, or the edge's node. */
  payloadIs: 'edge' | 'node';
}

export type DeclaredSubscription = ItemSubscription | CollectionSubscription;

export class SubscriptionDeclarationError extends Error {
  override name = 'SubscriptionDeclarationError';
}

/** The edge type and node type of a connection type (`edges: [Edge!]!`, `Edge.node`). */
function connectionTypes(type: GraphQLObjectType): { edge: string; node: string } | null {
  const edges = type.getFields().edges;
  if (!edges) return null;
  const edge = getNamedType(edges.type);
  if (!isObjectType(edge) || !edge.getFields().node) return null;
  return { edge: edge.name, node: getNamedType(edge.getFields().node!.type).name };
}

export function declaredSubscriptions(schema: GraphQLSchema, model: ChangeModel): DeclaredSubscription[] {
  const root = schema.getSubscriptionType();
  if (!root) return [];
  const problems: string[] = [];
  const notes = readAnnotations(schema);
  const rootArgsOf = (name: string) =>
    schema
      .getQueryType()
      ?.getFields()
      [name]?.args.map((a) => a.name) ?? [];
  const out: DeclaredSubscription[] = [];
  for (const field of Object.values(root.getFields())) {
    const where = `Subscription.${field.name}`;
    const changes = notes.field(field).changes;
    const args = field.args.map((a) => a.name);
    if (!changes) {
      problems.push(`${where}: needs @${CHANGES}`);
      continue;
    }
    // With field: a connection of the parent the arguments name; without: the object itself.
    const item = changes.field === null;
    if (field.args.length === 0 || field.args.some((a) => !isNonNullType(a.type))) {
      problems.push(`${where}: its arguments are the key of what it watches and must all be non-null`);
      continue;
    }
    const keyProblem = (rootField: string) =>
      rootArgsOf(rootField).length === args.length
        ? null
        : `${where}: takes ${args.length} key argument(s), Query.${rootField} takes ${rootArgsOf(rootField).length}`;
    if (item) {
      const type = getNamedType(field.type);
      const rootField = model.rootField(type.name);
      if (isNonNullType(field.type) || !isObjectType(type) || !rootField) {
        problems.push(`${where}: @${CHANGES} needs a nullable object type the model stores (null once deleted); got ${String(field.type)}`);
        continue;
      }
      const mismatch = keyProblem(rootField);
      if (mismatch) {
        problems.push(mismatch);
        continue;
      }
      out.push({ kind: 'item', field: field.name, args, type: type.name, rootField, rootArgs: rootArgsOf(rootField) });
      continue;
    }
    const connection = String(changes.field);
    const [parentType, connectionField] = connection.split('.');
    const parent = parentType ? schema.getType(parentType) : undefined;
    const connectionType = isObjectType(parent) ? parent.getFields()[connectionField ?? '']?.type : undefined;
    const types = connectionType && isObjectType(getNamedType(connectionType)) ? connectionTypes(getNamedType(connectionType) as GraphQLObjectType) : null;
    const rootField = parentType ? model.rootField(parentType) : null;
    if (!types || !model.hasConnection(connection) || !rootField) {
      problems.push(`${where}: @${CHANGES}(field: "${connection}") must name a connection the model keeps, as "Type.field"`);
      continue;
    }
    const mismatch = keyProblem(rootField);
    if (mismatch) {
      problems.push(mismatch);
      continue;
    }
    const change = getNamedType(field.type);
    const fields = isObjectType(change) ? Object.values(change.getFields()) : [];
    const kindField = fields.find((f) => isNonNullType(f.type) && isEnumType(f.type.ofType) && f.type.ofType.name === CHANGE_KIND);
    const idField = fields.find((f) => isNonNullType(f.type) && isScalarType(f.type.ofType) && f.type.ofType.name === 'ID');
    const payload = fields.find((f) => !isNonNullType(f.type) && [types.edge, types.node].includes(getNamedType(f.type).name));
    if (!isNonNullType(field.type) || !kindField || !idField || !payload || fields.length !== 3) {
      problems.push(
        `${where}: @${CHANGES}(field:) needs a non-null change type of exactly three fields: ${CHANGE_KIND}!, ID! and a nullable ${types.edge} or ${types.node}`,
      );
      continue;
    }
    out.push({
      kind: 'collection',
      field: field.name,
      args,
      connection,
      parentType: parentType!,
      rootField,
      rootArgs: rootArgsOf(rootField),
      kindField: kindField.name,
      idField: idField.name,
      payloadField: payload.name,
      payloadIs: getNamedType(payload.type).name === types.edge ? 'edge' : 'node',
    });
  }
  if (problems.length > 0) throw new SubscriptionDeclarationError(`Subscriptions the model cannot serve:\n  ${problems.join('\n  ')}`);
  return out;
}
