/**
 * withSubscriptions(): the resolver map with the `Subscription` resolvers
 * the SDL declares (declared.ts, resolvers.ts), and the declarations the
 * engine serves. Read once when the schema is built; a declaration the
 * model cannot serve stops start-up with every problem listed.
 */
import type { GraphQLSchema } from 'graphql';
import { declaredSubscriptions, type DeclaredSubscription } from './declared.js';
import { modelFromPlan, type ChangeModel } from './model.js';
import { compilePlan } from '../plan/plan.js';
import { loadModel } from '../declaration/loadModel.js';
import { subscriptionResolvers } from './resolvers.js';

let fallback: ChangeModel | undefined;
/**
 * The change model of the default model (schema.graphql), built when first
 * asked for: a process serving another model never reads the default one.
 */
export const defaultChangeModel = (): ChangeModel => (fallback ??= modelFromPlan(compilePlan(loadModel())));

/** `schema`: the model's schema (Model.schema), read, not rebuilt. */
export function withSubscriptions<R extends object>(
  schema: GraphQLSchema,
  resolvers: R,
  model: ChangeModel = defaultChangeModel(),
): { resolvers: R; declared: DeclaredSubscription[] } {
  const declared = declaredSubscriptions(schema, model);
  if (declared.length === 0) return { resolvers, declared };
  return { resolvers: { ...resolvers, Subscription: subscriptionResolvers(declared, model) }, declared };
}
