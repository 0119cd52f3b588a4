/**
 * Verifies bearer tokens (JWTs) against an OIDC issuer with `jose`.
 *
 * In: a compact JWT. Out: the caller's Identity, or one of two failures:
 * - TokenRejected: the token does not verify (the caller's problem → HTTP 401);
 *   `reason` says why in words safe to log (never the token itself);
 * - IssuerUnavailable: the issuer's discovery document or key set cannot be
 *   fetched (our problem → UNAVAILABLE, HTTP 503), so a reachable-issuer
 *   outage never looks like a forged token.
 *
 * Invariants:
 * - only asymmetric algorithms (RS256, ES256, EdDSA/Ed25519) are accepted:
 *   `alg: none` and HMAC tokens (e.g. one "signed" with the public key as an
 *   HMAC secret) fail before any key is looked up;
 * - `iss` must equal AUTH_ISSUER exactly, `aud` (or, for Cognito access
 *   tokens that carry none, `client_id`) must name an AUTH_AUDIENCE entry,
 *   `exp` is required, `exp`/`nbf`/`iat` get a few seconds of clock tolerance;
 *   an `iat` later than now (beyond that tolerance) is refused, and so is a
 *   lifetime (`exp` − `iat`, or `exp` − now without `iat`) above
 *   AUTH_MAX_TOKEN_LIFETIME_SECONDS: a stolen token cannot be one that
 *   never expires;
 * - keys come from the issuer's discovery document (`jwks_uri`) unless
 *   AUTH_JWKS_URL names them, and are cached (10 minutes); a token whose
 *   `kid` is not cached triggers one refetch, at most once per cooldown
 *   (AUTH_JWKS_COOLDOWN_SECONDS), so a flood of made-up kids cannot turn
 *   into a flood of fetches.
 */
import { createRemoteJWKSet, customFetch, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { identityFromClaims, type Caller, type ClaimNames } from './identity.js';

export const ALGORITHMS = ['RS256', 'ES256', 'EdDSA', 'Ed25519'];
/** Longer than any real access token; a bound on the work a header can cause. */
export const MAX_TOKEN_LENGTH = 8192;
const FETCH_TIMEOUT_MS = 5000;
const KEY_CACHE_MS = 10 * 60_000;
/** After a failed discovery fetch, requests answer UNAVAILABLE at once for this long instead of each fetching. */
const DISCOVERY_RETRY_MS = 5000;

export class TokenRejected extends Error {
  override name = 'TokenRejected';
  constructor(readonly reason: string) {
    super(`bearer token rejected: ${reason}`);
  }
}

export class IssuerUnavailable extends Error {
  override name = 'IssuerUnavailable';
}

export interface VerifierOptions {
  issuer: string;
  audience: readonly string[];
  jwksUrl?: string;
  claims: ClaimNames;
  clockToleranceSeconds: number;
  /** Longest lifetime accepted: `exp` at most this far past `iat` (past now when there is no `iat`). */
  maxTokenLifetimeSeconds: number;
  jwksCooldownSeconds: number;
}

export interface Verifier {
  verify(token: string): Promise<Caller>;
  /** Fetches discovery and keys now (start-up), so the first request does not wait for them. */
  warm(): Promise<void>;
  /** Key-set and discovery fetches so far (tests, logs). */
  readonly fetches: { discovery: number; jwks: number };
}

/** jose checks `iat` only against a maximum age; this checks it against the clock, and bounds the lifetime. */
function checkLifetime(payload: JWTPayload, options: VerifierOptions, now = Math.floor(Date.now() / 1000)): void {
  const { iat, exp } = payload;
  if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat))) throw new TokenRejected('iat is not a number');
  if (typeof iat === 'number' && iat > now + options.clockToleranceSeconds) throw new TokenRejected('issued in the future (iat)');
  const from = typeof iat === 'number' ? iat : now;
  if (typeof exp === 'number' && exp - from > options.maxTokenLifetimeSeconds) {
    throw new TokenRejected(`lifetime longer than ${options.maxTokenLifetimeSeconds} s (exp − iat)`);
  }
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Why jose refused a token, in words for the log. */
function rejection(err: unknown): TokenRejected | IssuerUnavailable {
  if (err instanceof errors.JWTExpired) return new TokenRejected('expired (exp is in the past)');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new TokenRejected('not yet valid (nbf is in the future)');
    if (err.claim === 'iat') return new TokenRejected('issued in the future (iat)');
    if (err.claim === 'iss') return new TokenRejected('wrong issuer (iss)');
    if (err.claim === 'exp') return new TokenRejected('no expiry (exp is required)');
    return new TokenRejected(`claim ${err.claim} invalid`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return new TokenRejected('algorithm not allowed');
  if (err instanceof errors.JWSSignatureVerificationFailed) return new TokenRejected('bad signature');
  if (err instanceof errors.JWKSNoMatchingKey) return new TokenRejected("unknown signing key (kid not in the issuer's key set)");
  if (err instanceof errors.JWKSMultipleMatchingKeys) return new TokenRejected('ambiguous signing key');
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return new IssuerUnavailable(`key set unavailable: ${err.code}`);
  if (err instanceof errors.JOSENotSupported) return new TokenRejected('unsupported token or key type');
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return new TokenRejected('malformed token');
  // jose's generic error comes from fetching the key set (not 200, not JSON).
  if (err instanceof errors.JOSEError && err.code === 'ERR_JOSE_GENERIC') return new IssuerUnavailable(`key set unavailable: ${err.message}`);
  if (err instanceof errors.JOSEError) return new TokenRejected(`invalid token (${err.code})`);
  // fetch failures (connection refused, DNS, non-200) surface as plain errors.
  return new IssuerUnavailable(`key set unavailable: ${err instanceof Error ? err.message : String(err)}`);
}

function audienceMatches(payload: JWTPayload, audience: readonly string[]): boolean {
  const aud = payload.aud;
  if (aud !== undefined) return (Array.isArray(aud) ? aud : [aud]).some((a) => audience.includes(a));
  // Cognito access tokens carry the app client in client_id and no aud.
  return typeof payload.client_id === 'string' && audience.includes(payload.client_id);
}

async function fetchJson(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

export function createVerifier(options: VerifierOptions): Verifier {
  const fetches = { discovery: 0, jwks: 0 };
  let keySet: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  let failedAt = -Infinity;

  // Counts fetches; jose does the caching and the cooldown.
  const countingFetch = (url: string, init: Parameters<typeof fetch>[1]) => {
    fetches.jwks += 1;
    return fetch(url, init);
  };

  async function jwksUrl(): Promise<string> {
    if (options.jwksUrl) return options.jwksUrl;
    fetches.discovery += 1;
    const base = options.issuer.replace(/\/+$/, '');
    const doc = await fetchJson(`${base}/.well-known/openid-configuration`);
    // The discovery document must be the issuer's own (OpenID Connect Discovery §4.3).
    if (doc.issuer !== options.issuer) throw new Error(`discovery document names issuer ${String(doc.issuer)}, not ${options.issuer}`);
    if (typeof doc.jwks_uri !== 'string') throw new Error('discovery document has no jwks_uri');
    return doc.jwks_uri;
  }

  function keys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (keySet) return keySet;
    if (Date.now() - failedAt < DISCOVERY_RETRY_MS) return Promise.reject(new IssuerUnavailable('issuer discovery failed moments ago'));
    keySet = jwksUrl().then(
      (url) =>
        createRemoteJWKSet(new URL(url), {
          cooldownDuration: options.jwksCooldownSeconds * 1000,
          cacheMaxAge: KEY_CACHE_MS,
          timeoutDuration: FETCH_TIMEOUT_MS,
          [customFetch]: countingFetch,
        }),
      (err: unknown) => {
        keySet = undefined;
        failedAt = Date.now();
        throw new IssuerUnavailable(`issuer discovery failed: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    return keySet;
  }

  async function verify(token: string): Promise<Caller> {
    if (token.length > MAX_TOKEN_LENGTH) throw new TokenRejected(`longer than ${MAX_TOKEN_LENGTH} characters`);
    if (!JWT_SHAPE.test(token)) throw new TokenRejected('malformed token (not a compact JWS)');
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new TokenRejected('malformed token (header is not base64url JSON)');
    }
    // Refused before any key lookup: `none`, HS256 (e.g. keyed with the public key) and anything else.
    if (typeof alg !== 'string' || !ALGORITHMS.includes(alg)) throw new TokenRejected(`algorithm not allowed (accepted: ${ALGORITHMS.join(', ')})`);
    const jwks = await keys();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: options.issuer,
        algorithms: ALGORITHMS,
        clockTolerance: options.clockToleranceSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw rejection(err);
    }
    if (!audienceMatches(payload, options.audience)) throw new TokenRejected('wrong audience (aud)');
    checkLifetime(payload, options);
    return identityFromClaims(payload, options.claims);
  }

  return {
    verify,
    fetches,
    async warm() {
      const jwks = await keys();
      if (!jwks.fresh) await jwks.reload();
    },
  };
}
