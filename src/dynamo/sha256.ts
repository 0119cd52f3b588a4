/**
 * The SHA-256 the DynamoDB clients sign with: the SDK's own (Node's
 * crypto, the same digests), except that an HMAC's secret becomes a
 * `KeyObject` once and is then reused. Node turns a string or buffer
 * secret into a key on every `createHmac`, and SigV4 makes two HMACs per
 * request over the same two secrets (the secret access key, the day's
 * signing key), so that conversion was most of what signing cost
 * (docs/performance.md, Decisions).
 */
import { createHash, createHmac, createSecretKey, type Hash, type Hmac, type KeyObject } from 'node:crypto';

type Secret = string | ArrayBuffer | ArrayBufferView;

/** Secrets seen last; a signer uses two at a time, a day's change or a credential rotation adds a few. */
const KEPT_KEYS = 16;
const keys = new Map<string, KeyObject>();

function bytesOf(secret: Secret): Buffer {
  if (typeof secret === 'string') return Buffer.from(secret, 'utf8');
  if (ArrayBuffer.isView(secret)) return Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength);
  return Buffer.from(secret);
}

/** The secret's key, made once: the lookup is by content, so a secret changed in place is never signed with its old key. */
export function keyOf(secret: Secret): KeyObject {
  const bytes = bytesOf(secret);
  const id = bytes.toString('latin1');
  let key = keys.get(id);
  if (!key) {
    if (keys.size >= KEPT_KEYS) keys.delete(keys.keys().next().value!);
    key = createSecretKey(bytes);
    keys.set(id, key);
  }
  return key;
}

/** The SDK's `Checksum` for SHA-256 (what `@smithy/core`'s Sha256Node does), HMAC keys reused. */
export class Sha256 {
  readonly digestLength = 32;
  private hash: Hash | Hmac;
  private finished = false;

  constructor(private readonly secret?: Secret) {
    this.hash = this.start();
  }

  update(data: string | Uint8Array): void {
    if (this.finished) throw new Error('Attempted to update an already finished hash.');
    this.hash.update(data);
  }

  async digest(): Promise<Uint8Array> {
    let out: Buffer;
    if (this.secret) {
      this.finished = true;
      out = this.hash.digest();
    } else {
      // A plain hash may be updated after a digest, as the SDK's allows.
      out = (this.hash as Hash).copy().digest();
    }
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }

  reset(): void {
    this.hash = this.start();
    this.finished = false;
  }

  private start(): Hash | Hmac {
    return this.secret ? createHmac('sha256', keyOf(this.secret)) : createHash('sha256');
  }
}
