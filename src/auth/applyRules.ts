/**
 * applyRules(): the resolver map with the model's rules (compileRules.ts)
 * enforced on every field of the schema, so no resolver has to know about
 * authorization.
 *
 * In: the resolver map, the SDL and the compiled rules. Out: a new map where each field whose
 * rule checks anything is wrapped; fields anyone may read (and wrapper
 * types) are left untouched, so they cost nothing. Fields without a
 * resolver of their own get graphql's default resolver, wrapped.
 *
 * A wrapped field, for a caller who is not an administrator:
 * - checks the rule's `allows` before the resolver runs: a denied field or
 *   mutation never reaches its resolver, so it reads and writes nothing;
 * - checks `allowsResult` after it, for fields whose owner is only known
 *   once read; the value is then withheld.
 * - for a mutation, first checks every root field of the operation
 *   (mutationCheck.ts), so a refused field stops the operation before any
 *   of its fields writes.
 * Either way it throws FORBIDDEN (UNAUTHENTICATED for a mutation sent
 * without a token), which graphql-js turns into `null` at the field's path
 * plus an error; on a non-null field the null moves up to the nearest
 * nullable parent (docs/auth.md, "What a denial looks like").
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
