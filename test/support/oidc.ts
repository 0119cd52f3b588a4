/**
 * A local OIDC issuer for tests: keys made with jose, discovery and JWKS
 * served on 127.0.0.1 (src/auth/devIssuer.ts), tokens minted for any
 * caller, and an Authenticator wired to it as AUTH_MODE=oidc would be.
 */
import { pino } from 'pino';
import { Writable } from 'node:stream';
import type { JWK, JWTPayload } from 'jose';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { makeSigningKey, mint, startIssuer, type MintOptions, type SigningKey } from '../../src/auth/devIssuer.js';
import type { OidcAuthConfig } from '../../src/config.js';
import type { Model } from '../../src/declaration/model.js';
import { defaultModel } from './model.js';

export const AUDIENCE = 'test-gateway';

export interface TestIssuer {
  url: string;
  served: { discovery: number; jwks: number };
  /** The key tokens are signed with by default (kid `k1`). */
  key: SigningKey;
  /** Replaces the published keys (rotation). */
  publish(keys: SigningKey[]): void;
  /** A token for these claims, signed by `key` (default: the current key). */
  token(claims?: JWTPayload, options?: Partial<MintOptions> & { key?: SigningKey }): Promise<string>;
  authConfig(overrides?: Partial<OidcAuthConfig>): OidcAuthConfig;
  stop(): Promise<void>;
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const key = await makeSigningKey('k1');
  let published: JWK[] = [key.publicJwk];
  const issuer = await startIssuer({ keys: () => published });
  return {
    url: issuer.url,
    served: issuer.served,
    key,
    publish: (keys) => {
      published = keys.map((k) => k.publicJwk);
    },
    token: (claims = {}, { key: signer = key, ...options } = {}) => mint(signer, { issuer: issuer.url, audience: AUDIENCE, claims, ...options }),
    authConfig: (overrides = {}) => ({
      mode: 'oidc',
      explicit: true,
      issuer: issuer.url,
      audience: [AUDIENCE],
      jwksUrl: undefined,
      rolesClaim: 'groups',
      claims: {},
      clockToleranceSeconds: 5,
      maxTokenLifetimeSeconds: 86_400,
      jwksCooldownSeconds: 30,
      devIssuer: undefined,
      ...overrides,
    }),
    stop: issuer.stop,
  };
}

/** A pino logger whose lines land in `lines` (parsed). */
export function captureLogger() {
  const lines: Array<Record<string, any>> = [];
  const raw: string[] = [];
  const logger = pino(
    { level: 'info', base: undefined },
    new Writable({
      write(chunk, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          raw.push(line);
          lines.push(JSON.parse(line));
        }
        done();
      },
    }),
  );
  return { logger, lines, raw };
}

/** An authenticator of `issuer`'s tokens, naming the items of `model`'s owner types (default: the project's model). */
export function testAuthenticator(issuer: TestIssuer, overrides: Partial<OidcAuthConfig> = {}, model: Model = defaultModel) {
  const log = captureLogger();
  return { auth: createAuthenticator(issuer.authConfig(overrides), log.logger, model), log };
}
