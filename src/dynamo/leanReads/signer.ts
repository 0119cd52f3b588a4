/**
 * SigV4 for the read path's requests: a POST of JSON to the endpoint's
 * root, the same few headers every time. It writes exactly the headers the
 * SDK's `SignatureV4` writes for such a request (test/unit/readSigner.test.ts
 * compares the two over generated requests), without what that general
 * signer does per request for requests of any shape: cloning the request,
 * an HMAC of the credentials to find its key cache, byte conversions.
 * Anything else (an endpoint with a path) is signed by the SDK's signer.
 */
import { hash, createHmac, type KeyObject } from 'node:crypto';
import { keyOf } from '../sha256.js';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Headers the SDK never signs (its ALWAYS_UNSIGNABLE_HEADERS). */
const UNSIGNABLE = new Set([
  'authorization',
  'cache-control',
  'connection',
  'expect',
  'from',
  'keep-alive',
  'max-forwards',
  'pragma',
  'referer',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'x-amzn-trace-id',
]);
const unsignable = (name: string) => UNSIGNABLE.has(name) || name.startsWith('proxy-') || name.startsWith('sec-');

/** A header value as SigV4 canonicalises it (line breaks to spaces, runs of blanks to one, no blank at either end). */
const canonicalValue = (value: string) =>
  /[\r\n\t]| {2}|^ | $/.test(value)
    ? value
        .replace(/[\r\n]/g, ' ')
        .replace(/[ \t]+/g, ' ')
        .replace(/^ | $/g, '')
    : value;

/** `20261205T013326Z`: SigV4's date, whole seconds. */
export function amzDate(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

const hmac = (key: KeyObject | Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

export class ReadSigner {
  /** The day's signing key, for the credentials and day it was made for. */
  private kept: { id: string; key: KeyObject } | undefined;

  constructor(
    private readonly region: string,
    private readonly service: string,
    private readonly credentials: () => Promise<Credentials>,
  ) {}

  /**
   * Signs a POST to `/` of `body` with `headers` (lower-case names, every
   * one but the signature's own): adds `x-amz-date`, `x-amz-security-token`
   * (with a session token), `x-amz-content-sha256` and `authorization`.
   */
  async sign(headers: Record<string, string>, body: string, date: Date): Promise<void> {
    const credentials = await this.credentials();
    if (typeof credentials?.accessKeyId !== 'string' || typeof credentials.secretAccessKey !== 'string') {
      throw new Error('Resolved credential object is not valid');
    }
    const longDate = amzDate(date);
    const shortDate = longDate.slice(0, 8);
    const scope = `${shortDate}/${this.region}/${this.service}/aws4_request`;
    const payloadHash = hash('sha256', body, 'hex');
    headers['x-amz-date'] = longDate;
    if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
    headers['x-amz-content-sha256'] = payloadHash;
    const names = Object.keys(headers)
      .filter((name) => !unsignable(name))
      .sort();
    let canonicalHeaders = '';
    for (const name of names) canonicalHeaders += `${name}:${canonicalValue(headers[name]!)}\n`;
    const signedHeaders = names.join(';');
    const canonicalRequest = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${payloadHash}`;
    const stringToSign = `AWS4-HMAC-SHA256\n${longDate}\n${scope}\n${hash('sha256', canonicalRequest, 'hex')}`;
    const signature = createHmac('sha256', this.signingKey(credentials, shortDate)).update(stringToSign).digest('hex');
    headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  }

  private signingKey(credentials: Credentials, shortDate: string): KeyObject {
    const id = `${shortDate}\n${credentials.accessKeyId}\n${credentials.secretAccessKey}\n${credentials.sessionToken ?? ''}`;
    if (this.kept?.id !== id) {
      let key = hmac(`AWS4${credentials.secretAccessKey}`, shortDate);
      for (const part of [this.region, this.service, 'aws4_request']) key = hmac(key, part);
      this.kept = { id, key: keyOf(key) };
    }
    return this.kept.key;
  }
}
