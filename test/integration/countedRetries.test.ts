import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../support/demoData.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { dynamoFault, injectFaults } from '../support/faults.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
  await gw.put(demoItems());
});
afterAll(() => gw.stop());

const READ = `{ student(id: "1") { name } }`;

/** Fails the first attempt of every read the way a starved DynamoDB Local does (a 500), outside `injectFaults`. */
function machineFailsFirstAttempts(): () => void {
  return gw.dynamo.reads!.onAttempt(({ attempt }) => {
    if (attempt === 1) throw dynamoFault('InternalServerError');
  });
}

describe('request counts in tests', () => {
  it('leaves out a retry the test did not ask for: the calls an operation sends stay exact', async () => {
    const clean = await gw.counted(READ);
    expect(clean.result.errors).toBeUndefined();
    expect(clean.requests.byOperation).toEqual({ GetItem: 1 });
    const remove = machineFailsFirstAttempts();
    try {
      const retried = await gw.counted(READ);
      expect(retried.result).toEqual(clean.result);
      expect(retried.requests.byOperation).toEqual({ GetItem: 1 });
      expect(retried.requests.requests).toBe(1);
    } finally {
      remove();
    }
  });

  it('counts every attempt of a fault the test injected', async () => {
    const remove = injectFaults(gw.dynamo, ({ attempt }) => (attempt === 1 ? dynamoFault('InternalServerError') : null));
    try {
      const { result, requests } = await gw.counted(READ);
      expect(result.errors).toBeUndefined();
      expect(requests.byOperation).toEqual({ GetItem: 2 });
      expect(requests.retriesByOperation).toEqual({ GetItem: 1 });
    } finally {
      remove();
    }
    expect((await gw.counted(READ)).requests.byOperation).toEqual({ GetItem: 1 });
  });
});
