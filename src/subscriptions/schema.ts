/**
 * withSubscriptions(): the resolver map with the `Subscription` resolvers
 * the SDL declares (declared.ts, resolvers.ts), and the declarations the
 * engine serves. Read once when the schema is built; a declaration the
 * model cannot serve stops start-up with every problem listed.
 */
import { buildASTSchema, type DocumentNode } from 'graphql';
import { declaredSubscriptions, type DeclaredSubscription } from './declared.js';
import { modelFromEntities, type ChangeModel } from './model.js';
import { subscriptionResolvers } from './resolvers.js';
import { DEFAULT_RULES, type RuleLookup } from './access.js';

/** The model of today's declared entities (src/model/entities.ts). */
export const defaultChangeModel: ChangeModel = modelFromEntities();

export function withSubscriptions<R extends object>(
  typeDefs: DocumentNode,
  resolvers: R,
  model: ChangeModel = defaultChangeModel,
  rules: RuleLookup = DEFAULT_RULES,
): { resolvers: R; declared: DeclaredSubscription[] } {
  const declared = declaredSubscriptions(buildASTSchema(typeDefs), model);
  if (declared.length === 0) return { resolvers, declared };
  return { resolvers: { ...resolvers, Subscription: subscriptionResolvers(declared, model, rules) }, declared };
}
