/**
 * Who may subscribe: a subscription is checked like the query that reads
 * the same thing (the model's compiled rules, src/auth/), at subscribe and again for every
 * payload (the token's caller is the same, but the rule may read the
 * payload: `allowsResult`).
 *
 * - `@changes` on a type: the rule of the type's root read field with the
 *   same key (`teamChanged(id)` as `team(id)`);
 * - `@changes(field: "T.c")`: the rule of T's root read field
 *   and the rule of `T.c` on that parent (`teamPlayersChanged(teamId)`
 *   as `team(id) { players }`).
 * Fields inside the payload are then checked by the rules as in any
 * query (another user's email is null with FORBIDDEN).
 */
import type { Identity } from '../auth/identity.js';
import { ADMIN, type Rule, type RuleLookup } from '../auth/rules.js';
import { forbidden } from '../errors.js';
import type { DeclaredSubscription } from './declared.js';

interface Check {
  rule: Rule;
  parent: Record<string, unknown>;
  args: Record<string, unknown>;
  result: boolean;
}

function checks(decl: DeclaredSubscription, keyValues: unknown[], rules: RuleLookup): Check[] {
  const ruleFor = (type: string, field: string) => rules.ruleFor(type, field);
  const rootArgs = Object.fromEntries(decl.rootArgs.map((name, i) => [name, keyValues[i]]));
  const out: Check[] = [];
  const root = ruleFor('Query', decl.rootField);
  if (root) out.push({ rule: root, parent: {}, args: rootArgs, result: decl.kind === 'item' });
  if (decl.kind === 'collection') {
    const [type, field] = decl.connection.split('.') as [string, string];
    const rule = ruleFor(type, field);
    if (rule) out.push({ rule, parent: { id: keyValues.join('#') }, args: {}, result: false });
  }
  return out;
}

const refusal = (decl: DeclaredSubscription, rule: Rule) => forbidden(`Not allowed to subscribe to ${decl.field}: only ${rule.name} may`, rule.name);

/** The refusal for this caller, or null when they may subscribe. */
export function refusedSubscription(decl: DeclaredSubscription, caller: Identity, keyValues: unknown[], rules: RuleLookup | undefined): Error | null {
  if (caller.kind === 'caller' && caller.admin) return null;
  // Without compiled rules only administrators pass (fails closed).
  if (!rules) return refusal(decl, ADMIN);
  for (const c of checks(decl, keyValues, rules)) {
    if (c.rule.allows && !c.rule.allows(caller, c.parent, c.args)) return refusal(decl, c.rule);
  }
  return null;
}

/** The refusal for a payload record (rules that decide on what was read), or null. */
export function refusedPayload(
  decl: DeclaredSubscription,
  caller: Identity,
  keyValues: unknown[],
  record: object | null,
  rules: RuleLookup | undefined,
): Error | null {
  if (record === null || (caller.kind === 'caller' && caller.admin)) return null;
  if (!rules) return refusal(decl, ADMIN);
  for (const c of checks(decl, keyValues, rules)) {
    if (c.result && c.rule.allowsResult && !c.rule.allowsResult(caller, record as Record<string, unknown>)) return refusal(decl, c.rule);
  }
  return null;
}
