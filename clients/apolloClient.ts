/**
 * Apollo Client (4.x) for the gateway: docs/clients.md#apollo-client.
 * test/integration/clients.test.ts pages through connections with it.
 */
import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { relayStylePagination } from '@apollo/client/utilities';

export interface GatewayClientOptions {
  /** The gateway's endpoint, e.g. http://localhost:4000/graphql. */
  url: string;
  /** The caller's bearer token, read before every request (none: anonymous). */
  token?: () => string | undefined;
  /** Where refusals are reported: every GraphQL error carries extensions.code. */
  onError?: (code: string, message: string, operationName: string | undefined) => void;
  /**
   * Send each operation's id from the codegen manifest instead of its text
   * (a gateway with TRUSTED_DOCUMENTS runs nothing else).
   */
  trustedDocuments?: boolean;
}

/** The id codegen embedded in each document (clients/codegen.ts, persistedDocuments). */
const manifestId = (document: unknown) => (document as { __meta__?: { hash?: string } }).__meta__?.hash ?? '';

/**
 * Every connection of the schema merged across pages in both directions:
 * `first`/`after` appends, `last`/`before` prepends. The arguments listed
 * are the ones that select a different list (a filter), so each filter
 * keeps its own pages; the paging arguments are not listed.
 */
export const gatewayTypePolicies = {
  Query: { fields: { courses: relayStylePagination(['titlePrefix']), students: relayStylePagination(['namePrefix']) } },
  Student: { fields: { courses: relayStylePagination() } },
  Course: { fields: { students: relayStylePagination() } },
  Customer: { fields: { orders: relayStylePagination(['placedAfter', 'placedBefore', 'status']) } },
  Product: { fields: { parts: relayStylePagination() } },
};

export function createApolloClient({ url, token, onError, trustedDocuments = false }: GatewayClientOptions): ApolloClient {
  const auth = new SetContextLink((prev) => {
    const value = token?.();
    return value ? { headers: { ...prev.headers, authorization: `Bearer ${value}` } } : {};
  });
  const errors = new ErrorLink(({ error, operation }) => {
    if (CombinedGraphQLErrors.is(error)) {
      for (const e of error.errors) onError?.(String(e.extensions?.code), e.message, operation.operationName);
    } else {
      onError?.('NETWORK_ERROR', error.message, operation.operationName);
    }
  });
  const trusted = trustedDocuments ? [new PersistedQueryLink({ generateHash: manifestId, retry: () => false })] : [];
  return new ApolloClient({
    link: ApolloLink.from([errors, auth, ...trusted, new HttpLink({ uri: url })]),
    cache: new InMemoryCache({ typePolicies: gatewayTypePolicies }),
  });
}
