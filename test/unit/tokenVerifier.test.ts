/**
 * The token verifier against a local issuer on 127.0.0.1 (no DynamoDB):
 * key rotation with one rate-limited refetch, issuer outages told apart
 * from bad tokens, and the claim shapes of Cognito, Auth0 and Keycloak.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createVerifier, IssuerUnavailable, TokenRejected, type VerifierOptions } from '../../src/auth/verifier.js';
import { makeSigningKey, startIssuer } from '../../src/auth/devIssuer.js';
import { AUDIENCE, startTestIssuer, type TestIssuer } from '../support/oidc.js';

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startTestIssuer();
});
afterAll(() => issuer?.stop());
afterEach(() => {
  vi.useRealTimers();
  issuer.publish([issuer.key]);
});

const options = (overrides: Partial<VerifierOptions> = {}): VerifierOptions => ({
  issuer: issuer.url,
  audience: [AUDIENCE],
  claims: { roles: 'groups', owners: { Student: 'student_id', Customer: 'customer_id' } },
  clockToleranceSeconds: 5,
  maxTokenLifetimeSeconds: 86_400,
  jwksCooldownSeconds: 30,
  ...overrides,
});

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (err: unknown) => (err instanceof TokenRejected ? err.reason : String(err)),
  );

describe('key rotation', () => {
  it('fetches discovery once and keys once, then verifies from the cache', async () => {
    const verifier = createVerifier(options());
    for (let i = 0; i < 5; i++) await verifier.verify(await issuer.token({ student_id: String(i) }));
    expect(verifier.fetches).toEqual({ discovery: 1, jwks: 1 });
  });

  it('a new kid triggers one refetch once the cooldown has passed; an unknown kid after that refetch is refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const verifier = createVerifier(options());
    expect((await verifier.verify(await issuer.token({ groups: ['admin'] }))).admin).toBe(true);
    expect(verifier.fetches.jwks).toBe(1);

    const next = await makeSigningKey('k2');
    issuer.publish([next]);
    // Within the cooldown a made-up or brand-new kid costs no fetch at all.
    expect(await rejection(verifier.verify(await issuer.token({}, { key: next })))).toMatch(/unknown signing key/);
    expect(verifier.fetches.jwks).toBe(1);

    vi.setSystemTime(Date.now() + 31_000);
    const caller = await verifier.verify(await issuer.token({ student_id: 's9' }, { key: next }));
    expect(caller.owns.get('Student')).toBe('s9');
    expect(verifier.fetches.jwks).toBe(2);
    // The old key is gone from the set: its tokens no longer verify.
    expect(await rejection(verifier.verify(await issuer.token({})))).toMatch(/unknown signing key/);

    vi.setSystemTime(Date.now() + 31_000);
    const unknown = await makeSigningKey('k3');
    expect(await rejection(verifier.verify(await issuer.token({}, { key: unknown })))).toMatch(/unknown signing key/);
    expect(verifier.fetches.jwks).toBe(3); // exactly one refetch, then refused
    for (let i = 0; i < 3; i++) await rejection(verifier.verify(await issuer.token({}, { key: unknown })));
    expect(verifier.fetches.jwks).toBe(3);
  });

  it('uses AUTH_JWKS_URL instead of discovery when given', async () => {
    const verifier = createVerifier(options({ jwksUrl: `${issuer.url}/jwks.json` }));
    await verifier.verify(await issuer.token({}));
    expect(verifier.fetches).toEqual({ discovery: 0, jwks: 1 });
  });
});

describe('an issuer that cannot be reached', () => {
  it('is IssuerUnavailable (503), not a rejected token', async () => {
    const down = await startIssuer({ keys: () => [] });
    const url = down.url;
    await down.stop();
    const verifier = createVerifier(options({ issuer: url }));
    const token = await issuer.token({}, { issuer: url });
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(IssuerUnavailable);
  });

  it('refuses a discovery document naming another issuer', async () => {
    const verifier = createVerifier(options({ issuer: `${issuer.url}/` }));
    await expect(verifier.verify(await issuer.token({}, { issuer: `${issuer.url}/` }))).rejects.toThrow(/names issuer/);
  });
});

describe('createAuthenticator', () => {
  it('answers 503 UNAVAILABLE (not 401) when the issuer cannot be reached, and logs why', async () => {
    const { createAuthenticator } = await import('../../src/auth/authenticate.js');
    const { captureLogger } = await import('../support/oidc.js');
    const down = await startIssuer({ keys: () => [] });
    await down.stop();
    const log = captureLogger();
    const { defaultModel } = await import('../support/model.js');
    const auth = createAuthenticator(issuer.authConfig({ issuer: down.url }), log.logger, defaultModel);
    const error = await auth.identify(`Bearer ${await issuer.token({}, { issuer: down.url })}`).catch((e: unknown) => e);
    expect(error).toMatchObject({ extensions: { code: 'UNAVAILABLE', http: { status: 503 } } });
    expect(log.lines.at(-1)).toMatchObject({ level: 50, auth: 'unavailable' });
    expect(await auth.identify(undefined)).toEqual({ kind: 'anonymous' });
  });
});

describe('claims', () => {
  it('Cognito: access tokens without aud are matched on client_id; roles from cognito:groups', async () => {
    const verifier = createVerifier(options({ claims: { roles: 'cognito:groups', owners: { Student: 'custom:student_id', Customer: 'custom:customer_id' } } }));
    const access = await issuer.token({ client_id: AUDIENCE, token_use: 'access', 'cognito:groups': ['admin'] }, { audience: [] });
    expect((await verifier.verify(access)).admin).toBe(true);
    const otherClient = await issuer.token({ client_id: 'someone-else' }, { audience: [] });
    expect(await rejection(verifier.verify(otherClient))).toMatch(/wrong audience/);
    const id = await issuer.token({ 'custom:student_id': 's1' });
    expect(await verifier.verify(id)).toMatchObject({ owns: new Map([['Student', 's1']]), admin: false });
  });

  it('Auth0: namespaced claims with dots in their names are read as they are', async () => {
    const verifier = createVerifier(
      options({ claims: { roles: 'https://school.example/roles', owners: { Student: 'https://school.example/student_id', Customer: 'customer_id' } } }),
    );
    const token = await issuer.token({ 'https://school.example/roles': ['teacher', 'admin'], 'https://school.example/student_id': 42 });
    expect(await verifier.verify(token)).toMatchObject({ admin: true, owns: new Map([['Student', '42']]), roles: new Set(['teacher', 'admin']) });
  });

  it('Keycloak: a dotted name reaches into nested claims (realm_access.roles)', async () => {
    const verifier = createVerifier(options({ claims: { roles: 'realm_access.roles', owners: { Student: 'student_id', Customer: 'customer_id' } } }));
    expect((await verifier.verify(await issuer.token({ realm_access: { roles: ['admin'] } }))).admin).toBe(true);
    expect((await verifier.verify(await issuer.token({ realm_access: { roles: 'user' } }))).admin).toBe(false);
  });

  it('ignores id claims that could not be an id', async () => {
    const verifier = createVerifier(options());
    expect(await verifier.verify(await issuer.token({ student_id: 'a#b', customer_id: { id: 1 }, groups: 'admin' }))).toMatchObject({
      owns: new Map(),
      admin: true,
    });
  });

  it('tolerates a few seconds of clock skew, no more', async () => {
    const verifier = createVerifier(options());
    expect(await rejection(verifier.verify(await issuer.token({}, { expiresIn: -3 })))).toBe('accepted');
    expect(await rejection(verifier.verify(await issuer.token({}, { expiresIn: -30 })))).toMatch(/expired/);
  });
});
