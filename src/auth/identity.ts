/**
 * Who is calling: the identity a verified token describes, or nobody.
 *
 * In: the verified claims of a token and the names of the claims that
 * carry roles and, for each owner type of the model, the id of the item
 * the caller owns (ownerClaims.ts: the model's claim, or the one its
 * setting names in the environment). Out: an Identity the rules
 * (compileRules.ts) read. Claims are never trusted before verifier.ts has
 * checked signature, issuer, audience and times.
 */
import type { JWTPayload } from 'jose';

export const ADMIN_ROLE = 'admin';

export interface Caller {
  kind: 'caller';
  /** The token's `sub` (for logs; never used for authorization). */
  subject: string | undefined;
  roles: ReadonlySet<string>;
  admin: boolean;
  /**
   * The items this caller owns: owner type → the id its claim names, for
   * the claims the token carries (a token may carry several, or none).
   */
  owns: ReadonlyMap<string, string>;
}

export type Identity = { kind: 'anonymous' } | Caller;

export const ANONYMOUS: Identity = Object.freeze({ kind: 'anonymous' });

/** AUTH_MODE=off: a caller the rules are never asked about (the server is built without them). */
export const EVERYONE: Caller = Object.freeze({
  kind: 'caller',
  subject: undefined,
  roles: new Set([ADMIN_ROLE]),
  admin: true,
  owns: new Map(),
});

export interface ClaimNames {
  roles: string;
  /** owner type → the claim holding the id of the caller's item of that type. */
  owners: Readonly<Record<string, string>>;
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
  const owns = new Map<string, string>();
  for (const [type, name] of Object.entries(names.owners)) {
    const id = entityId(claim(payload, name));
    if (id !== undefined) owns.set(type, id);
  }
  return {
    kind: 'caller',
    subject: typeof payload.sub === 'string' ? payload.sub : undefined,
    roles: roleSet,
    admin: roleSet.has(ADMIN_ROLE),
    owns,
  };
}
