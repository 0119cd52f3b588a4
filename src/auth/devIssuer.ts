/**
 * A development OIDC issuer on 127.0.0.1: a discovery document and a key
 * set (JWKS), and a way to mint tokens with its key. `npm start` serves it
 * with AUTH_MODE=oidc and AUTH_DEV_ISSUER=true, `npm run dev-token` mints
 * its tokens, and the tests use it as their identity provider.
 *
 * Never for prod (config.ts refuses AUTH_DEV_ISSUER there): whoever
 * can read the key file can mint an administrator's token.
 *
 * The key pair (ES256) lives in a git-ignored file at the repository root,
 * created on first use by either side; the JWKS is read from that file on
 * every fetch, so a key made after `npm start` is picked up on the next
 * key-set refetch.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

export const DEV_KEY_FILE = fileURLToPath(new URL('../../.dev-issuer/key.json', import.meta.url));

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function makeSigningKey(kid: string, alg: 'ES256' | 'RS256' | 'EdDSA' = 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** The development key from DEV_KEY_FILE, made (and saved, mode 0600) when absent. */
export async function devSigningKey(file = DEV_KEY_FILE): Promise<SigningKey> {
  if (!existsSync(file)) {
    const key = await makeSigningKey(`dev-${Date.now().toString(36)}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ ...(await exportJWK(key.privateKey)), kid: key.kid, alg: key.alg }), { mode: 0o600 });
    return key;
  }
  const jwk = JSON.parse(readFileSync(file, 'utf8')) as JWK & { kid: string; alg: string };
  const privateKey = (await importJWK(jwk, jwk.alg, { extractable: true })) as CryptoKey;
  const { d: _private, ...publicJwk } = jwk;
  return { kid: jwk.kid, alg: jwk.alg, privateKey, publicJwk: { ...publicJwk, use: 'sig' } };
}

export interface MintOptions {
  issuer: string;
  /** `[]`: no `aud` claim. */
  audience: string | string[];
  subject?: string;
  /** Seconds from now; default one hour. */
  expiresIn?: number;
  claims?: JWTPayload;
}

export function mint(key: SigningKey, { issuer, audience, subject = 'dev-user', expiresIn = 3600, claims = {} }: MintOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' });
  // No audience at all (not an empty one), as in Cognito access tokens.
  if (audience.length > 0) jwt.setAudience(audience);
  return jwt
    .setIssuer(issuer)
    .setSubject(subject)
    .setIssuedAt(now)
    .setExpirationTime(now + expiresIn)
    .sign(key.privateKey);
}

export interface Issuer {
  /** The issuer URL (the tokens' `iss`), e.g. http://127.0.0.1:4001 */
  url: string;
  /** Requests served so far, by path. */
  served: { discovery: number; jwks: number };
  stop(): Promise<void>;
}

/** Serves discovery and JWKS on 127.0.0.1; `keys()` is asked on every JWKS request (rotation = return other keys). */
export async function startIssuer({ port = 0, keys }: { port?: number; keys: () => Promise<JWK[]> | JWK[] }): Promise<Issuer> {
  const served = { discovery: 0, jwks: 0 };
  let url = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return reply(405, { error: 'method not allowed' });
    if (path === '/.well-known/openid-configuration') {
      served.discovery += 1;
      return reply(200, {
        issuer: url,
        jwks_uri: `${url}/jwks.json`,
        id_token_signing_alg_values_supported: ['ES256', 'RS256', 'EdDSA'],
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
      });
    }
    if (path === '/jwks.json') {
      served.jwks += 1;
      return void Promise.resolve(keys()).then(
        (list) => reply(200, { keys: list }),
        () => reply(500, { error: 'keys unavailable' }),
      );
    }
    reply(404, { error: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    served,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
