/**
 * ElectroDB as the oracle: a gateway serving a design modelled from
 * ElectroDB's documentation and ElectroDB's own entities of it, over the
 * same table, both counted at the wire by one proxy (wireCounter.ts), so
 * each access pattern's DynamoDB requests are compared the same way.
 */
import { expect } from 'vitest';
import { createDynamo } from '../../../src/dynamo/client.js';
import type { Model } from '../../../src/declaration/model.js';
import { localEndpoint, PATIENT_CLIENT, testGateway, type GqlResult, type TestGateway } from '../gateway.js';
import { startWireCounter, type WireCounter } from '../wireCounter.js';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface Oracle<S> {
  gw: TestGateway;
  wire: WireCounter;
  /** ElectroDB's service of the design, on the gateway's table. */
  electro: S;
  /** A GraphQL operation (no errors expected) and its requests at the wire. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<{ data: T; requests: Record<string, number> }>;
  /** An ElectroDB call (its answer, read loosely as the service is: casing.ts) and its requests at the wire. */
  electrodb(run: (electro: S) => Promise<any>): Promise<{ value: any; requests: Record<string, number> }>;
  stop(): Promise<void>;
}

export async function startOracle<S>(model: Model, service: (table: string, client: DynamoDBDocumentClient) => S): Promise<Oracle<S>> {
  const wire = await startWireCounter(localEndpoint());
  const gw = await testGateway({ model, endpoint: wire.endpoint, fanOut: 'inRequest' });
  const client = createDynamo({ endpoint: wire.endpoint, ...PATIENT_CLIENT, readPath: 'sdk' });
  const electro = service(gw.tableName, client.doc);
  return {
    gw,
    wire,
    electro,
    async graphql(query, variables) {
      const { value, requests } = await wire.count(() => gw.run(query, variables));
      const result = value as GqlResult;
      expect(result.errors).toBeUndefined();
      return { data: result.data, requests };
    },
    electrodb: (run) => wire.count(() => run(electro)),
    stop: async () => {
      await gw.stop();
      client.raw.destroy();
      await wire.stop();
    },
  };
}
