/**
 * What an authorization rule is, and the port enforcement reads rules
 * through. Rules are declared with @access and @item(claim:), compiled once
 * (compileRules.ts) and enforced on every field (applyRules.ts).
 *
 * A field's rule (Rules.ruleFor): its own @access, else its type's, else
 * none for wrapper types (connections, edges, PageInfo: the field that
 * returned them decided), else ADMIN: a new type is private until a rule
 * says otherwise. An administrator passes every rule.
 */
import type { Identity } from './identity.js';

export type Parent = Record<string, unknown>;
export type Args = Record<string, unknown>;

export interface Rule {
  /** Shown in docs and in FORBIDDEN errors (`extensions.rule`). */
  name: string;
  /** Decided before the resolver runs, from the caller, the parent object and the arguments. Absent: allowed. */
  allows?: (caller: Identity, parent: Parent, args: Args) => boolean;
  /** Decided on the resolver's result, for a root field whose owner is known only once read. */
  allowsResult?: (caller: Identity, result: Parent) => boolean;
}

/** The compiled rules, as the enforcement reads them. */
export interface Rules {
  /** The rule for `type.field`, or null for a wrapper type's field (no check). */
  ruleFor(type: string, field: string): Rule | null;
  /** Every `Type.field` with a rule of its own (an @access on the field), in the model's order. */
  readonly fields: readonly string[];
}

/** What enforcement needs of the rules: the lookup alone. */
export type RuleLookup = Pick<Rules, 'ruleFor'>;

/** Anyone, with or without a token. */
export const ANYONE: Rule = { name: 'anyone' };
/** Any caller with a verified token. */
export const SIGNED_IN: Rule = { name: 'signed-in callers', allows: (c) => c.kind === 'caller' };
/** Administrators only. */
export const ADMIN: Rule = { name: 'admins', allows: () => false };

/** The Relay naming convention for wrapper types, for types the model does not declare as connection or edge types. */
export const isWrapperName = (type: string) => type === 'PageInfo' || type.endsWith('Connection') || type.endsWith('Edge');

/** An administrator reads everything (AUTH_MODE=off makes everyone one): no rule to look up. */
export const readsEverything = (caller: Identity): boolean => caller.kind === 'caller' && caller.admin;

/**
 * May this caller read `type.field` of `parent` with `args` (the pre-resolver part of the rule)?
 * Without rules (none were compiled for this request) only an administrator may: it fails closed.
 */
export function mayRead(rules: RuleLookup | undefined, caller: Identity, type: string, field: string, parent: Parent, args: Args = {}): boolean {
  if (readsEverything(caller)) return true;
  if (!rules) return false;
  const rule = rules.ruleFor(type, field);
  return !rule?.allows || rule.allows(caller, parent, args);
}
