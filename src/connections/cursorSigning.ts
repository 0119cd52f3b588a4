/**
 * Cursor signing: makes cursors tamper-evident so a client can only hand
 * back cursors this gateway issued.
 *
 * In:  the cursor payload (a string; connections/cursor.ts owns its format).
 * Out: a token `<payload>.<kid>.<mac>`, each part base64url, where
 *      mac = HMAC-SHA256(secret, "<payload>.<kid>").
 *
 * Invariants
 * - `open` returns the payload only when the mac verifies under the key the
 *   kid names; anything else (tampered, truncated, unsigned, signed with an
 *   unknown or retired secret) comes back as a reason, never as a payload.
 * - The kid is derived from the secret (a fingerprint of it, not the secret),
 *   so rotation needs no naming: put the new secret in CURSOR_SECRET and the
 *   old one in CURSOR_SECRETS_PREVIOUS; cursors of both verify, new cursors
 *   are signed with the new one. Drop the old one once its cursors may expire.
 * - Payloads are authenticated, not hidden: they hold only key values a
 *   client already sees (ids), so HMAC is enough and keeps cursors short.
 * - No module-level state: the codec is built from configuration at start-up
 *   and reaches resolvers through the per-request context.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CursorCodec {
  /** Signs a payload with the current secret. */
  seal(payload: string): string;
  /** The payload of a token this codec (current or previous secret) signed, or why not. */
  open(token: string): { payload: string } | { error: string };
}

export interface CursorSecrets {
  current: string;
  previous?: readonly string[];
}

interface Key {
  kid: string;
  secret: Buffer;
}

const mac = (key: Key, signed: string) => createHmac('sha256', key.secret).update(signed).digest();

function keyOf(secret: string): Key {
  const bytes = Buffer.from(secret, 'utf8');
  const kid = createHmac('sha256', bytes).update('cursor-key-id').digest().subarray(0, 6).toString('base64url');
  return { kid, secret: bytes };
}

export function createCursorCodec({ current, previous = [] }: CursorSecrets): CursorCodec {
  const signing = keyOf(current);
  const keys = new Map<string, Key>();
  for (const key of [signing, ...previous.map(keyOf)]) if (!keys.has(key.kid)) keys.set(key.kid, key);

  return {
    seal(payload) {
      const body = Buffer.from(payload, 'utf8').toString('base64url');
      const signed = `${body}.${signing.kid}`;
      return `${signed}.${mac(signing, signed).toString('base64url')}`;
    },
    open(token) {
      const parts = token.split('.');
      if (parts.length !== 3) return { error: 'it is not a signed cursor' };
      const [body, kid, sig] = parts;
      const key = keys.get(kid);
      if (!key) return { error: 'it was signed with an unknown key' };
      const expected = mac(key, `${body}.${kid}`);
      const given = Buffer.from(sig, 'base64url');
      // base64url decoding ignores stray characters; re-encoding catches a sig that only decodes alike.
      if (given.length !== expected.length || given.toString('base64url') !== sig || !timingSafeEqual(given, expected)) {
        return { error: 'its signature does not match' };
      }
      return { payload: Buffer.from(body, 'base64url').toString('utf8') };
    },
  };
}
