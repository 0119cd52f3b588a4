/**
 * Who is calling: the identity a verified token describes, or nobody.
 *
 * In: the verified claims of a token and the names of the claims that
 * carry roles, the student id and the customer id (settings, config.ts).
 * Out: an Identity the rules (rules.ts) read. Claims are never trusted
 * before verifier.ts has checked signature, issuer, audience and times.
 */
import type { JWTPayload } from 'jose';

export const ADMIN_ROLE = 'admin';

export interface Caller {
  kind: 'caller';
  /** The token's `sub` (for logs; never used for authorization). */
  subject: string | undefined;
  roles: ReadonlySet<string>;
  admin: boolean;
  /** The student this caller is, when the student claim is present. */
  studentId: string | undefined;
  /** The customer this caller is, when the customer claim is present. */
  customerId: string | undefined;
}

export type Identity = { kind: 'anonymous' } | Caller;

export const ANONYMOUS: Identity = Object.freeze({ kind: 'anonymous' });

/** AUTH_MODE=off: a caller the rules are never asked about (the server is built without them). */
export const EVERYONE: Caller = Object.freeze({
  kind: 'caller',
  subject: undefined,
  roles: new Set([ADMIN_ROLE]),
  admin: true,
  studentId: undefined,
  customerId: undefined,
});

export interface ClaimNames {
  roles: string;
  student: string;
  customer: string;
}

/**
 * A claim by name; a name with dots that is not itself a claim is read as a
 * path (`realm_access.roles` in Keycloak). Names with a colon or a URL
 * (`cognito:groups`, `https://example.com/roles`) are read as they are.
 */
export function claim(payload: JWTPayload, name: string): unknown {
  if (name in payload) return payload[name];
  if (!name.includes('.')) return undefined;
  let value: unknown = payload;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Roles come as an array (Cognito, Keycloak, Auth0) or a space/comma-separated string. */
function roles(value: unknown): Set<string> {
  if (Array.isArray(value)) return new Set(value.filter((v): v is string => typeof v === 'string'));
  if (typeof value === 'string') return new Set(value.split(/[\s,]+/).filter(Boolean));
  return new Set();
}

/** An id claim: a non-empty string or a number; anything else is treated as absent. */
function entityId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value !== '' && value.length <= 128 && !value.includes('#')) return value;
  return undefined;
}

export function identityFromClaims(payload: JWTPayload, names: ClaimNames): Caller {
  const roleSet = roles(claim(payload, names.roles));
  return {
    kind: 'caller',
    subject: typeof payload.sub === 'string' ? payload.sub : undefined,
    roles: roleSet,
    admin: roleSet.has(ADMIN_ROLE),
    studentId: entityId(claim(payload, names.student)),
    customerId: entityId(claim(payload, names.customer)),
  };
}
