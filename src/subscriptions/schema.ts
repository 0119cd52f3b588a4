/**
 * withSubscriptions(): the resolver map with the `Subscription` resolvers
 * the SDL declares (declared.ts, resolvers.ts), and the declarations the
 * engine serves. Read once when the schema is built; a declaration the
 * model cannot serve stops start-up with every problem listed.
 */
import type { GraphQLSchema } from 'graphql';
import { declaredSubscriptions, type DeclaredSubscription } from './declared.js';
import type { ChangeModel } from './model.js';
import { subscriptionResolvers } from './resolvers.js';

/** `schema`: the model's schema (Model.schema), read, not rebuilt; `model`: the change model of the same model's plan. */
export function withSubscriptions<R extends object>(
  schema: GraphQLSchema,
  resolvers: R,
  model: ChangeModel,
): { resolvers: R; declared: DeclaredSubscription[] } {
  const declared = declaredSubscriptions(schema, model);
  if (declared.length === 0) return { resolvers, declared };
  return { resolvers: { ...resolvers, Subscription: subscriptionResolvers(declared, model) }, declared };
}
