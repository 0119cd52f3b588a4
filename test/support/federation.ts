/**
 * A supergraph in the test process: subgraphs written with @apollo/subgraph
 * (each an Apollo Server on 127.0.0.1), the gateway's model served over
 * HTTP as one more subgraph, composed with @apollo/composition from each
 * subgraph's `_service { sdl }`, and executed by @apollo/gateway in-process.
 *
 * Every request the gateway sends to a subgraph is recorded (its name and
 * query), and the model's subgraph is asked for its DynamoDB figures
 * (`x-dynamodb-metrics: 1`), so a test counts DynamoDB requests at the wire.
 */
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { parse, type DocumentNode } from 'graphql';
import { postGraphQL, type GqlResult } from './gateway.js';

export interface Subgraph {
  name: string;
  url: string;
  stop(): Promise<void>;
}

/** A subgraph written with @apollo/subgraph, listening on 127.0.0.1. */
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export async function startSubgraph(name: string, typeDefs: string, resolvers: object): Promise<Subgraph> {
  const server = new ApolloServer({ schema: buildSubgraphSchema({ typeDefs: parse(typeDefs), resolvers: resolvers as never }), logger: quiet });
  const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
  return { name, url, stop: () => server.stop() };
}

/** A subgraph's `_service { sdl }`, asked over HTTP as a router asks it. */
export async function serviceSdl(url: string): Promise<string> {
  const { json } = await postGraphQL(url, { query: '{ _service { sdl } }' });
  if (!json?.data?._service?.sdl) throw new Error(`no SDL from ${url}: ${JSON.stringify(json)}`);
  return json.data._service.sdl as string;
}

/** The supergraph of these subgraphs (their SDL fetched from each), or composition's errors. */
export async function compose(subgraphs: readonly { name: string; url: string }[]) {
  const services = await Promise.all(subgraphs.map(async ({ name, url }) => ({ name, url, typeDefs: parse(await serviceSdl(url)) as DocumentNode })));
  return composeServices(services);
}

/** One request the gateway sent to a subgraph: the subgraph, its query, and (the model's) DynamoDB figures. */
export interface SubgraphCall {
  subgraph: string;
  query: string;
  variables: Record<string, unknown> | undefined;
  dynamodb: { requests: number; byOperation: Record<string, number> } | undefined;
}

/** @apollo/gateway over a composed supergraph, recording every subgraph request. */
export async function startSupergraph(supergraphSdl: string) {
  const calls: SubgraphCall[] = [];
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) =>
      new RemoteGraphQLDataSource({
        url,
        willSendRequest({ request }) {
          request.http?.headers.set('x-dynamodb-metrics', '1');
        },
        didReceiveResponse({ response, request }) {
          calls.push({ subgraph: name, query: request.query ?? '', variables: request.variables, dynamodb: (response.extensions as never)?.['dynamodb'] });
          return response;
        },
      }),
  });
  const server = new ApolloServer({ gateway, logger: quiet });
  await server.start();
  return {
    calls,
    /** Runs an operation through the supergraph; the calls it made are those recorded since. */
    async run<T = any>(query: string, variables?: Record<string, unknown>): Promise<{ result: GqlResult<T>; calls: SubgraphCall[] }> {
      const from = calls.length;
      const response = await server.executeOperation({ query, variables });
      if (response.body.kind !== 'single') throw new Error('expected a single result');
      return { result: response.body.singleResult as GqlResult<T>, calls: calls.slice(from) };
    },
    stop: () => server.stop(),
  };
}

/** The DynamoDB requests of the model's subgraph in these calls, by operation. */
export function dynamoRequests(calls: readonly SubgraphCall[], subgraph: string): Record<string, number> {
  const total: Record<string, number> = {};
  for (const call of calls) {
    if (call.subgraph !== subgraph) continue;
    for (const [operation, n] of Object.entries(call.dynamodb?.byOperation ?? {})) total[operation] = (total[operation] ?? 0) + n;
  }
  return total;
}
