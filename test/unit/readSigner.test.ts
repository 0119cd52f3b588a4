import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash, createHmac } from 'node:crypto';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ReadSigner, amzDate, type Credentials } from '../../src/dynamo/leanReads/signer.js';
import { Sha256, keyOf } from '../../src/dynamo/sha256.js';

const SdkSha256 = (new DynamoDBClient({ region: 'us-east-1' }).config as unknown as { sha256: typeof Sha256 }).sha256;

const credentialsArb = fc.record(
  {
    accessKeyId: fc.stringMatching(/^[A-Z0-9]{16,20}$/),
    secretAccessKey: fc.string({ minLength: 1, maxLength: 40 }),
    // Blanks and line breaks too, so the canonical form of a header value is exercised.
    sessionToken: fc.stringMatching(/^[ A-Za-z0-9+/=\t\r\n]{0,60}$/),
  },
  { requiredKeys: ['accessKeyId', 'secretAccessKey'] },
);
const requestArb = fc.record({
  credentials: credentialsArb,
  region: fc.constantFrom('us-east-1', 'eu-west-1', 'ap-southeast-2', 'local'),
  host: fc.constantFrom('dynamodb.us-east-1.amazonaws.com', '127.0.0.1:8000', 'localhost:4566'),
  operation: fc.constantFrom('GetItem', 'Query', 'BatchGetItem'),
  body: fc.string({ maxLength: 300, unit: 'binary' }),
  userAgent: fc.string({ maxLength: 30 }),
  // From 1971 to 2100, milliseconds included (SigV4 drops them).
  time: fc.integer({ min: 31_536_000_000, max: 4_102_444_800_000 }),
});

interface SignCase {
  credentials: Credentials;
  region: string;
  host: string;
  operation: string;
  body: string;
  userAgent: string;
  time: number;
}

async function bothSignatures(r: SignCase) {
  const headers = (): Record<string, string> => ({
    host: r.host,
    'content-type': 'application/x-amz-json-1.0',
    'content-length': String(Buffer.byteLength(r.body)),
    'x-amz-target': `DynamoDB_20120810.${r.operation}`,
    'user-agent': r.userAgent,
  });
  const credentials = async () => r.credentials as Credentials;
  const sdk = new SignatureV4({ service: 'dynamodb', region: r.region, credentials, sha256: SdkSha256 as never, uriEscapePath: true });
  const request = new HttpRequest({ protocol: 'https:', hostname: r.host, path: '/', method: 'POST', headers: headers(), body: r.body });
  const expected = (await sdk.sign(request, { signingDate: new Date(r.time) })).headers;
  const own = headers();
  await new ReadSigner(r.region, 'dynamodb', credentials).sign(own, r.body, new Date(r.time));
  return { expected, own };
}

describe('the read path signer', () => {
  it("writes exactly the SDK signer's headers for the read path's requests", async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const { expected, own } = await bothSignatures(r);
        expect(own).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('signs with the new key after the day changes or the credentials rotate', async () => {
    let credentials: Credentials = { accessKeyId: 'AKID1', secretAccessKey: 'first' };
    const signer = new ReadSigner('us-east-1', 'dynamodb', async () => credentials);
    const sign = async (time: number) => {
      const headers: Record<string, string> = { host: 'h', 'content-length': '2' };
      await signer.sign(headers, '{}', new Date(time));
      return headers.authorization;
    };
    const day = Date.UTC(2026, 11, 5, 23, 59, 59);
    const first = await sign(day);
    const nextDay = await sign(day + 2000);
    credentials = { accessKeyId: 'AKID1', secretAccessKey: 'second' };
    const rotated = await sign(day);
    const sdk = async (c: Credentials, time: number) =>
      (
        await new SignatureV4({ service: 'dynamodb', region: 'us-east-1', credentials: c, sha256: SdkSha256 as never }).sign(
          new HttpRequest({ method: 'POST', path: '/', hostname: 'h', headers: { host: 'h', 'content-length': '2' }, body: '{}' }),
          { signingDate: new Date(time) },
        )
      ).headers.authorization;
    expect([first, nextDay, rotated]).toEqual([
      await sdk({ accessKeyId: 'AKID1', secretAccessKey: 'first' }, day),
      await sdk({ accessKeyId: 'AKID1', secretAccessKey: 'first' }, day + 2000),
      await sdk({ accessKeyId: 'AKID1', secretAccessKey: 'second' }, day),
    ]);
    expect(new Set([first, nextDay, rotated]).size).toBe(3);
  });

  it('refuses credentials without a key id or secret, as the SDK signer does', async () => {
    const signer = new ReadSigner('us-east-1', 'dynamodb', async () => ({ accessKeyId: 'A' }) as Credentials);
    await expect(signer.sign({}, '', new Date())).rejects.toThrow('Resolved credential object is not valid');
  });

  it("formats SigV4's date in whole seconds", () => {
    expect(amzDate(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)))).toBe('20260102T030405Z');
  });
});

describe('the signing SHA-256', () => {
  it("gives the SDK's digests for hashes and HMACs over any secret and data", async () => {
    const secret = fc.oneof(fc.string({ minLength: 1, unit: 'binary' }), fc.uint8Array({ minLength: 1, maxLength: 64 }));
    const data = fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array()), { maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(fc.option(secret, { nil: undefined }), data, async (key, parts) => {
        const ours = new Sha256(key);
        const theirs = new SdkSha256(key);
        for (const part of parts) {
          ours.update(part);
          theirs.update(part);
        }
        expect(Buffer.from(await ours.digest())).toEqual(Buffer.from(await theirs.digest()));
      }),
      { numRuns: 300 },
    );
  });

  it('never signs with the key of a secret changed in place', () => {
    const secret = new Uint8Array([1, 2, 3]);
    const before = createHmac('sha256', keyOf(secret)).update('x').digest('hex');
    secret[0] = 9;
    const after = createHmac('sha256', keyOf(secret)).update('x').digest('hex');
    expect(after).not.toBe(before);
    expect(after).toBe(createHmac('sha256', Buffer.from(secret)).update('x').digest('hex'));
  });

  it('lets a plain hash go on after a digest, as the SDK one does', async () => {
    const h = new Sha256();
    h.update('a');
    await h.digest();
    h.update('b');
    expect(Buffer.from(await h.digest()).toString('hex')).toBe(createHash('sha256').update('ab').digest('hex'));
  });
});
