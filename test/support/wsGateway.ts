/**
 * A whole gateway (HTTP and WebSockets) on a table of its own, for the
 * tests of the subscription transport: on a free port of 127.0.0.1, silent,
 * the stream polled every 20 ms, with the settings a test varies; one
 * course (`c1`, "Engines") put unless `seed` is false. `stopWsGateway`
 * deletes the table and stops it.
 */
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { loadConfig } from '../../src/config.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import { silentLogger } from '../../src/logger.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { courseItem } from './defaultItems.js';
import { localEndpoint } from './gateway.js';

export async function startWsGateway(tableName: string, settings: Record<string, string>, { seed = true } = {}): Promise<Gateway> {
  const gateway = await startGateway(
    loadConfig({
      DYNAMODB_ENDPOINT: localEndpoint(),
      TABLE_NAME: tableName,
      PORT: '0',
      HOST: '127.0.0.1',
      STREAM_POLL_MS: '100',
      LOG_LEVEL: 'silent',
      ...settings,
    }),
    silentLogger,
  );
  if (seed) await batchPut(gateway.dynamo.doc, tableName, [courseItem({ id: 'c1', title: 'Engines' })]);
  return gateway;
}

export async function stopWsGateway(gateway: Gateway | undefined, tableName: string): Promise<void> {
  await gateway?.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  await gateway?.stop();
}
