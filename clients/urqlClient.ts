/**
 * urql (core 6, Graphcache 9) for the gateway: docs/clients.md#urql.
 * test/integration/clients.test.ts pages through connections with it.
 */
import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { persistedExchange } from '@urql/exchange-persisted';

/** Connections, edges and PageInfo have no id: Graphcache keeps them inside their parent. */
const EMBEDDED = [
  'PageInfo',
  ...['StudentCourse', 'CourseStudent', 'Order', 'Part', 'Course', 'Student'].flatMap((t) => [`${t}Connection`, `${t}Edge`]),
];

export interface UrqlOptions {
  url: string;
  token?: () => string | undefined;
  /** Send each operation's id from the codegen manifest instead of its text (TRUSTED_DOCUMENTS). */
  trustedDocuments?: boolean;
}

export function createUrqlClient({ url, token, trustedDocuments = false }: UrqlOptions): Client {
  return new Client({
    url,
    // urql sends queries as GET by default; the gateway's CSRF prevention refuses a GET that
    // a browser could send cross-site. POST (JSON) always passes.
    preferGetMethod: false,
    fetchOptions: () => {
      const value = token?.();
      return value ? { headers: { authorization: `Bearer ${value}` } } : {};
    },
    exchanges: [
      cacheExchange({
        keys: Object.fromEntries(EMBEDDED.map((type) => [type, () => null])),
        // Pages merged in both directions, as Apollo Client's relayStylePagination.
        resolvers: {
          Query: { courses: relayPagination(), students: relayPagination() },
          Student: { courses: relayPagination() },
          Course: { students: relayPagination() },
          Customer: { orders: relayPagination() },
          Product: { parts: relayPagination() },
        },
      }),
      ...(trustedDocuments
        ? [
            persistedExchange({
              enforcePersistedQueries: true,
              enableForMutation: true,
              preferGetForPersistedQueries: false,
              generateHash: async (_, document) => (document as { __meta__?: { hash?: string } }).__meta__?.hash,
            }),
          ]
        : []),
      fetchExchange,
    ],
  });
}
