import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableHealthy } from '../../src/dynamo/health.js';
import { createDynamo } from '../../src/dynamo/client.js';
import { freePort } from '../../src/dynamo/local.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
});
afterAll(() => gw.stop());

describe('table health', () => {
  it('is healthy when the table answers', async () => {
    expect(await tableHealthy(gw.dynamo, gw.tableName)).toBe(true);
  });

  it('is unhealthy when the table does not exist', async () => {
    expect(await tableHealthy(gw.dynamo, 'no_such_table')).toBe(false);
  });

  it('is unhealthy, quickly, when nothing listens at the endpoint', async () => {
    const dead = createDynamo({ endpoint: `http://127.0.0.1:${await freePort()}` });
    expect(await tableHealthy(dead, 'AppTable')).toBe(false);
    dead.raw.destroy();
  });
});

describe('table layout in /health', () => {
  it('reports a table the gateway created as current, and one without the layout record as needing migration', async () => {
    const { tableHealth } = await import('../../src/dynamo/layoutHealth.js');
    const current = await tableHealth(gw.dynamo, gw.tableName, 20_000);
    expect(current).toMatchObject({ ok: true, table: { needsMigration: false, itemsLayoutVersion: 2 } });
    expect(current.table!.lacks.join(' ')).not.toMatch(/migrate/);
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    await gw.dynamo.doc.send(new DeleteCommand({ TableName: gw.tableName, Key: { PK: 'LAYOUT', SK: 'MIGRATION' } }));
    const report = await tableHealth(gw.dynamo, gw.tableName, 20_000);
    expect(report).toMatchObject({ ok: true, table: { needsMigration: true, itemsLayoutVersion: 1 } });
    expect(report.table!.lacks.join(' ')).toMatch(/npm run migrate/);
  });

  it('answers the details in the body of GET /health', async () => {
    const { createHttpHandler } = await import('../../src/transport/httpHandler.js');
    const { createServer } = await import('node:http');
    const handler = createHttpHandler(gw.server, {
      corsOrigins: undefined,
      health: async () => ({ ok: true, table: { needsMigration: true, itemsLayoutVersion: 1, lacks: ['items need migrating'] } }),
      context: async () => {
        throw new Error('not used');
      },
    });
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', table: { needsMigration: true, itemsLayoutVersion: 1, lacks: ['items need migrating'] } });
    } finally {
      server.close();
    }
  });
});
