/**
 * THE authorization rules: who may read which field and run which mutation.
 * This file is the whole policy; applyRules.ts enforces it for every field
 * of schema.graphql without any resolver knowing about it.
 *
 * How a field's rule is found (ruleFor):
 *   1. `FIELD_RULES['Type.field']` when listed;
 *   2. else `TYPE_RULES['Type']` (the default for the type's other fields,
 *      including fields added to the schema later);
 *   3. else, for wrapper types (names ending in `Connection`, `Edge` or `Change`, and
 *      `PageInfo`): no rule of their own; the field that returned them
 *      already decided (`Course.students` guards the whole roster);
 *   4. else ADMIN: a new entity type is private until a rule says otherwise.
 * An administrator (role `admin`) passes every rule.
 *
 * A denied field resolves to null with a FORBIDDEN error at its path;
 * a denied mutation is FORBIDDEN (UNAUTHENTICATED for a caller without a
 * token) and its resolver never runs, so nothing is read or written.
 */
import type { Identity } from './identity.js';

type Parent = Record<string, unknown>;
type Args = Record<string, unknown>;

export interface Rule {
  /** Shown in docs and in FORBIDDEN errors (`extensions.rule`). */
  name: string;
  /** Decided before the resolver runs, from the caller, the parent object and the arguments. Absent: allowed. */
  allows?: (caller: Identity, parent: Parent, args: Args) => boolean;
  /** Decided on the resolver's result, for a root field whose owner is known only once read (`order(id)`). */
  allowsResult?: (caller: Identity, result: Parent) => boolean;
}

const isCaller = (c: Identity) => c.kind === 'caller';
const studentIs = (c: Identity, id: unknown) => c.kind === 'caller' && c.studentId !== undefined && c.studentId === id;
const customerIs = (c: Identity, id: unknown) => c.kind === 'caller' && c.customerId !== undefined && c.customerId === id;

/** Anyone, with or without a token. */
export const ANYONE: Rule = { name: 'anyone' };
/** Any caller with a verified token. */
export const SIGNED_IN: Rule = { name: 'signed-in callers', allows: isCaller };
/** Administrators only. */
export const ADMIN: Rule = { name: 'admins', allows: () => false };
/** The student the parent object or an argument names. */
const studentSelf = (id: (parent: Parent, args: Args) => unknown): Rule => ({
  name: 'the student themselves',
  allows: (c, parent, args) => studentIs(c, id(parent, args)),
});
/** The customer the parent object or an argument names. */
const customerSelf = (id: (parent: Parent, args: Args) => unknown): Rule => ({
  name: 'the customer themselves',
  allows: (c, parent, args) => customerIs(c, id(parent, args)),
});
/** A customer reading one of their own orders: a caller without a customer id is refused before any read. */
const OWN_ORDER: Rule = {
  name: 'the order\'s customer',
  allows: (c) => c.kind === 'caller' && c.customerId !== undefined,
  allowsResult: (c, order) => customerIs(c, order.customerId),
};

const parentId = (p: Parent) => p.id;

/** The default for every field of a type that FIELD_RULES does not list. */
export const TYPE_RULES: Readonly<Record<string, Rule>> = {
  Query: ADMIN,
  Mutation: ADMIN,
  // Each subscription is checked by the rules of the query that reads the same thing (src/subscriptions/access.ts).
  Subscription: ANYONE,
  Course: ANYONE, //                  the catalog
  Product: ANYONE,
  Part: ANYONE,
  Student: ADMIN, //                  personal data: see the fields below
  Customer: customerSelf(parentId),
  Order: customerSelf((order) => order.customerId),
};

/** Exceptions to TYPE_RULES, field by field. */
export const FIELD_RULES: Readonly<Record<string, Rule>> = {
  // Reads
  'Query.course': ANYONE,
  'Query.courses': ANYONE,
  'Query.product': ANYONE,
  'Query.student': SIGNED_IN,
  'Query.students': SIGNED_IN,
  'Query.customer': customerSelf((_, args) => args.id),
  'Query.order': OWN_ORDER,
  'Course.students': SIGNED_IN, //    rosters are personal data
  'Student.id': SIGNED_IN,
  'Student.name': SIGNED_IN,
  'Student.courses': SIGNED_IN,
  'Student.email': studentSelf(parentId),
  // Writes (everything else: admin)
  'Mutation.enroll': studentSelf((_, args) => args.studentId),
  'Mutation.unenroll': studentSelf((_, args) => args.studentId),
  'Mutation.updateStudent': studentSelf((_, args) => args.id),
  'Mutation.placeOrder': customerSelf((_, args) => args.customerId),
};

/** Wrapper types carry no rule of their own: whoever reached them was allowed the field that returned them (a subscription's …Change too). */
export const isWrapperType = (type: string) =>
  type === 'PageInfo' || type.endsWith('Connection') || type.endsWith('Edge') || type.endsWith('Change');

/** The rule for `type.field`, or null for a wrapper type's field (no check). */
export function ruleFor(type: string, field: string): Rule | null {
  const listed = FIELD_RULES[`${type}.${field}`] ?? TYPE_RULES[type];
  if (listed) return listed;
  return isWrapperType(type) ? null : ADMIN;
}

/** May this caller read `type.field` of `parent` with `args` (the pre-resolver part of the rule)? */
export function mayRead(caller: Identity, type: string, field: string, parent: Parent, args: Args = {}): boolean {
  if (caller.kind === 'caller' && caller.admin) return true;
  const rule = ruleFor(type, field);
  return !rule?.allows || rule.allows(caller, parent, args);
}
