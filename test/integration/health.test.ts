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
