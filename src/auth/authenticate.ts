/**
 * From an `Authorization` header to an Identity, shared by every transport
 * (HTTP and Lambda call it while making the request's context, before any
 * DynamoDB request).
 *
 * - No header: anonymous (the rules decide what anonymous callers see).
 * - `Bearer <jwt>` that verifies: that caller.
 * - Anything else presented: the request fails as a whole with HTTP 401 and
 *   `UNAUTHENTICATED` (and `WWW-Authenticate: Bearer error="invalid_token"`);
 *   one warning line says why, never with the token.
 * - The issuer's keys cannot be fetched: HTTP 503 `UNAVAILABLE`.
 * - AUTH_MODE=off: the header is ignored and everyone may do everything.
 *
 * Which claims name the items a caller owns comes from the model served
 * (its owner types, ownerClaims.ts), which the caller hands in.
 */
import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { AuthConfig } from '../config.js';
import { ErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Model } from '../declaration/model.js';
import { ownerClaims } from './ownerClaims.js';
import { ANONYMOUS, EVERYONE, type Identity } from './identity.js';
import { createVerifier, IssuerUnavailable, TokenRejected, type Verifier } from './verifier.js';

export interface Authenticator {
  /** True when the rules apply (AUTH_MODE=oidc). */
  readonly rulesOn: boolean;
  identify(authorization: string | undefined): Promise<Identity>;
  /** The verifier (AUTH_MODE=oidc), for warming its key cache and for tests. */
  readonly verifier?: Verifier;
}

const BEARER = /^Bearer +([^\s]+) *$/i;

function unauthenticated(reason: string): GraphQLError {
  return new GraphQLError(`Bearer token rejected: ${reason}`, {
    extensions: {
      code: ErrorCode.UNAUTHENTICATED,
      http: { status: 401, headers: new HeaderMap([['www-authenticate', 'Bearer error="invalid_token"']]) },
    },
  });
}

export function createAuthenticator(
  config: AuthConfig,
  logger: Logger,
  /** The model served, whose owner types the tokens name. */
  model: Pick<Model, 'items' | 'source'>,
  verifier?: Verifier,
): Authenticator {
  if (config.mode === 'off') return { rulesOn: false, identify: async () => EVERYONE };
  const tokens =
    verifier ??
    createVerifier({
      issuer: config.issuer,
      audience: config.audience,
      jwksUrl: config.jwksUrl,
      claims: { roles: config.rolesClaim, owners: ownerClaims(model, config.claims) },
      clockToleranceSeconds: config.clockToleranceSeconds,
      maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
      jwksCooldownSeconds: config.jwksCooldownSeconds,
    });
  return {
    rulesOn: true,
    verifier: tokens,
    async identify(authorization) {
      if (authorization === undefined || authorization === '') return ANONYMOUS;
      const match = BEARER.exec(authorization);
      if (!match) {
        logger.warn({ auth: 'rejected', reason: 'Authorization header is not "Bearer <token>"' }, 'bearer token rejected');
        throw unauthenticated('the Authorization header must be "Bearer <token>"');
      }
      try {
        return await tokens.verify(match[1]!);
      } catch (err) {
        if (err instanceof TokenRejected) {
          logger.warn({ auth: 'rejected', reason: err.reason }, `bearer token rejected: ${err.reason}`);
          throw unauthenticated(err.reason);
        }
        if (err instanceof IssuerUnavailable) {
          logger.error({ auth: 'unavailable', reason: err.message }, 'cannot verify bearer tokens: issuer keys unavailable');
          throw new GraphQLError('Cannot verify the bearer token right now; try again shortly', {
            extensions: { code: ErrorCode.UNAVAILABLE, http: { status: 503 } },
          });
        }
        throw err;
      }
    },
  };
}
