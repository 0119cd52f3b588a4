/**
 * Cursor signing: a client can only hand back cursors this gateway issued.
 * In: the payload (cursor.ts owns its format). Out: `<payload>.<kid>.<mac>`,
 * base64url, mac = HMAC-SHA256(secret, "<payload>.<kid>").
 *
 * - `open` returns the payload only when the mac verifies under the key the
 *   kid names; anything else comes back as a reason, never as a payload.
 * - The kid is a fingerprint of the secret, so rotation needs no naming:
 *   the new secret in CURSOR_SECRET, the old in CURSOR_SECRETS_PREVIOUS.
 * - Authenticated, not hidden: payloads hold key values a client already
 *   sees, so an HMAC is enough and keeps cursors short.
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
