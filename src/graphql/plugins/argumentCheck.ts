/**
 * Refuses bad arguments before execution, so a bad request costs no
 * DynamoDB request: ids (empty, over 128 characters, containing `#`), page
 * sizes (`first`/`last` outside 0..100, or both), and cursors that do not
 * decode or were issued by another field.
 *
 * Runs in `didResolveOperation`, when the document is valid and variable
 * values are known; walks every field of the document (fragments included)
 * with its schema definition. Resolvers check the same things again
 * (connections/args.ts, connections/connection.ts): this pass only moves the refusal earlier.
 * A cursor issued for another parent (another student's courses) is refused
 * here too when the parent's id is an argument of the enclosing field
 * (`student(id: "1") { courses(after: …) }`); deeper down, where the parent
 * comes from data, the connection's resolver refuses it before its own
 * Query.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import {
  getArgumentValues,
  GraphQLError,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
} from 'graphql';
import { connectionCollections, entities } from '../../model/entities.js';
import { badUserInput } from '../errors.js';
import type { Context } from '../context.js';
import { readCursorPayload, type CursorReader } from '../../connections/connection.js';
import { validateConnectionArgs, validateId } from '../../connections/args.js';
import { checkMemo } from '../checkMemo.js';
import { total } from '../../writes/input.js';

const ID_ARGUMENTS = ['id', ...entities.map((e) => e.idArgument)];

export function checkArguments(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  cursors: CursorReader,
): void {
  const typeInfo = new TypeInfo(schema);
  // Arguments of the fields enclosing the current one (innermost last).
  const enclosing: Record<string, unknown>[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          const args = fieldArguments(node);
          enclosing.push(args);
          if (args) check(args, enclosing[enclosing.length - 2]);
        },
        leave() {
          enclosing.pop();
        },
      },
    }),
  );

  function fieldArguments(node: FieldNode): Record<string, unknown> {
    const field = typeInfo.getFieldDef();
    if (!field || field.args.length === 0) return {};
    try {
      return getArgumentValues(field, node, variables);
    } catch {
      return {}; // execution reports coercion errors itself
    }
  }

  function check(args: Record<string, unknown>, parentArgs: Record<string, unknown> | undefined) {
    const field = typeInfo.getFieldDef()!;
    const parent = typeInfo.getParentType()!;
    for (const name of ID_ARGUMENTS) {
      if (typeof args[name] === 'string') validateId(args[name] as string, name);
    }
    const input = args.input as { id?: unknown; total?: unknown } | undefined;
    if (input && typeof input.id === 'string') validateId(input.id, 'input.id');
    if (input && typeof input.total === 'number') total(input.total, 'input.total');
    if ('first' in args || 'last' in args || 'after' in args || 'before' in args) {
      const page = validateConnectionArgs(args);
      const connection = `${parent.name}.${field.name}`;
      const parentId = typeof parentArgs?.id === 'string' ? parentArgs.id : null;
      const partition = parentId !== null ? connectionCollections[connection]?.(parentId).pk : undefined;
      for (const [name, cursor] of [['after', page.after], ['before', page.before]] as const) {
        if (cursor === null) continue;
        const payload = readCursorPayload(cursors, connection, cursor, name);
        if (partition !== undefined && payload.p !== partition) {
          throw badUserInput(`"${name}" is not a valid cursor for ${connection}: it was issued by another connection`, name);
        }
      }
    }
  }
}

/** One per server: what passed is remembered for that server's documents and cursor keys only. */
export function argumentCheckPlugin(): ApolloServerPlugin<Context> {
  const passed = checkMemo();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, schema, request, contextValue, queryHash, operation }) {
          if (!operation) return;
          try {
            // The cursor codec is fixed for the server's life, so a pass stays a pass.
            passed(queryHash, operation, request.variables, () =>
              checkArguments(schema, document, request.variables ?? {}, contextValue.cursors),
            );
          } catch (err) {
            // A refused request, like a validation failure: HTTP 400 (Apollo would answer 500
            // for an error thrown from a plugin hook), the GraphQL error itself unchanged.
            if (err instanceof GraphQLError) {
              throw new GraphQLError(err.message, { extensions: { ...err.extensions, http: { status: 400 } } });
            }
            throw err;
          }
        },
      };
    },
  };
}
