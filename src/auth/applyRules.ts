/**
 * applyRules(): the resolver map with the model's rules (compileRules.ts)
 * enforced on every field, so no resolver knows about authorization. Only
 * fields whose rule checks something are wrapped (anyone's fields cost
 * nothing); fields without a resolver get graphql's default one, wrapped.
 *
 * For a caller who is not an administrator a wrapped field checks `allows`
 * before its resolver (a denied field reads and writes nothing) and
 * `allowsResult` after it (owner known only once read); a mutation first
 * checks every root field of the operation (mutationCheck.ts), so a refused
 * one stops the operation before anything writes. A denial is FORBIDDEN
 * (UNAUTHENTICATED for a mutation without a token): `null` at the field's
 * path plus an error (docs/auth.md, "What a denial looks like").
 */
import { defaultFieldResolver, Kind, type DocumentNode, type GraphQLFieldResolver } from 'graphql';
import { forbidden, invariant, unauthenticated } from '../errors.js';
import type { Identity } from './identity.js';
import type { Rule, RuleLookup } from './rules.js';
import { refusedMutation } from './mutationCheck.js';

/** All the rules need of the request context: who is calling. */
type Caller = { identity: Identity };
type Resolver = GraphQLFieldResolver<unknown, Caller, Record<string, unknown>>;
type ResolverMap = Record<string, unknown>;

/** `elsewhere`: the refused field is another one of the same mutation operation. */
function denial(caller: Identity, rule: Rule, type: string, field: string, elsewhere = false): Error {
  if (type === 'Mutation') {
    const why = elsewhere ? '; nothing in this operation was run' : '';
    return caller.kind === 'anonymous'
      ? unauthenticated(`Mutation ${field} needs a bearer token${why}`, { rule: rule.name })
      : forbidden(`Not allowed to run ${field}: only ${rule.name} may${why}`, rule.name);
  }
  return forbidden(`Not allowed to read ${type}.${field}: only ${rule.name} may`, rule.name);
}

function guard(resolve: Resolver, rule: Rule, type: string, field: string, rules: RuleLookup): Resolver {
  const { allows, allowsResult } = rule;
  return (parent, args, ctx, info) => {
    const caller = ctx.identity;
    if (caller.kind === 'caller' && caller.admin) return resolve(parent, args, ctx, info);
    if (type === 'Mutation') {
      // All or nothing: a refused field anywhere in the operation stops it before its first write.
      const refused = refusedMutation(caller, info, ctx, rules);
      if (refused) throw denial(caller, refused.rule, type, refused.field, refused.key !== info.path.key);
    }
    if (allows && !allows(caller, parent as Record<string, unknown>, args)) throw denial(caller, rule, type, field);
    if (!allowsResult) return resolve(parent, args, ctx, info);
    return Promise.resolve(resolve(parent, args, ctx, info)).then((result) => {
      if (result == null || allowsResult(caller, result as Record<string, unknown>)) return result;
      throw denial(caller, rule, type, field);
    });
  };
}

/** The object types and their field names, from the SDL (type extensions included). */
function objectFields(typeDefs: DocumentNode): Map<string, string[]> {
  const types = new Map<string, string[]>();
  for (const def of typeDefs.definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const fields = types.get(def.name.value) ?? [];
    for (const field of def.fields ?? []) fields.push(field.name.value);
    types.set(def.name.value, fields);
  }
  return types;
}

export function applyRules<R extends object>(resolvers: R, typeDefs: DocumentNode, rules: RuleLookup): R {
  const out: ResolverMap = { ...(resolvers as ResolverMap) };
  for (const [type, fields] of objectFields(typeDefs)) {
    const original = (out[type] ?? {}) as Record<string, unknown>;
    const wrapped: Record<string, unknown> = { ...original };
    for (const field of fields) {
      const rule = rules.ruleFor(type, field);
      if (!rule || (!rule.allows && !rule.allowsResult)) continue;
      const resolve = (original[field] ?? defaultFieldResolver) as Resolver;
      invariant(typeof resolve === 'function', `${type}.${field} resolver is not a function`);
      wrapped[field] = guard(resolve, rule, type, field, rules);
    }
    out[type] = wrapped;
  }
  return out as R;
}
