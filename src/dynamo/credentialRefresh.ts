/**
 * Credentials DynamoDB refuses (revoked before the SDK's refresh window,
 * rotated, expired early: `UnrecognizedClientException`,
 * `ExpiredTokenException`, … errors.ts `isCredentialError`) are refreshed
 * at once, not when the SDK's memoized provider next thinks they expire:
 * the refused request forces one refresh of the client's provider and is
 * retried once with what it gives (retryStrategy.ts allows that one retry
 * to a request whose refusal was followed by a refresh); a second refusal
 * is final (UNAVAILABLE). However many requests are refused together, the
 * provider is forced once: a request that started before the last forced
 * refresh ended just takes its result, and one refused with credentials
 * refreshed less than REFRESH_INTERVAL_MS ago is final at once (no
 * provider called per request while DynamoDB keeps refusing).
 *
 * On the SDK's path the refresh happens in a middleware below the retry
 * middleware, which puts the new identity where the signing middleware
 * reads it for the next attempt; the read path asks `afterRefusal` itself.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { isCredentialError } from '../errors.js';

type Provider = (options?: { forceRefresh?: boolean }) => Promise<unknown>;

/** Errors after which the credentials were refreshed: the retry strategy's one extra attempt. */
const refreshed = new WeakSet<object>();

/** Least time between two forced refreshes. */
export const REFRESH_INTERVAL_MS = 5000;

export const credentialsRefreshedFor = (error: unknown): boolean => !!error && typeof error === 'object' && refreshed.has(error);

export class CredentialRefresher {
  private inFlight: Promise<unknown> | undefined;
  private lastRefreshEnded = -Infinity;
  /** Forced refreshes so far (tests, `/health` details). */
  refreshes = 0;

  constructor(private readonly provider: Provider) {}

  /**
   * Fresh credentials for a request started at `startedAt` (performance.now())
   * and refused for its credentials: the provider forced once, unless a
   * forced refresh ended since the request started (its result) or less
   * than REFRESH_INTERVAL_MS before (none). Marks `error` as followed by a
   * refresh, so it is retried once; a provider that fails leaves it
   * unmarked: no retry with the same credentials.
   */
  async afterRefusal(startedAt: number, error: object): Promise<unknown> {
    const refreshedSince = startedAt < this.lastRefreshEnded;
    // Refused with credentials refreshed moments ago: a new refresh would give the same.
    if (!refreshedSince && !this.inFlight && performance.now() - this.lastRefreshEnded < REFRESH_INTERVAL_MS) return undefined;
    try {
      const identity = refreshedSince ? await this.provider() : await this.forced();
      refreshed.add(error);
      return identity;
    } catch {
      return undefined;
    }
  }

  private forced(): Promise<unknown> {
    return (this.inFlight ??= (async () => {
      this.refreshes += 1;
      try {
        return await this.provider({ forceRefresh: true });
      } finally {
        this.lastRefreshEnded = performance.now();
        this.inFlight = undefined;
      }
    })());
  }
}

interface AuthContext {
  selectedHttpAuthScheme?: { identity?: unknown };
}

/**
 * The SDK path's half: below the retry middleware (each attempt passes
 * through it), a credential refusal refreshes the credentials and hands the
 * next attempt's signer the new identity.
 */
export function refreshCredentialsOnRefusal(client: DynamoDBClient, refresher: CredentialRefresher): void {
  client.middlewareStack.addRelativeTo(
    (next: (args: any) => Promise<any>, context: object) => async (args: any) => {
      const startedAt = performance.now();
      try {
        return await next(args);
      } catch (error) {
        if (!isCredentialError(error)) throw error;
        const identity = await refresher.afterRefusal(startedAt, error as object);
        const scheme = (context as AuthContext).selectedHttpAuthScheme;
        if (identity && scheme) scheme.identity = identity;
        throw error;
      }
    },
    { name: 'gatewayCredentialRefresh', relation: 'after', toMiddleware: 'retryMiddleware' },
  );
}
