/**
 * Copies converge whatever happens: a rename whose propagation fails
 * through an outage longer than its retries is kept as a dead letter, and
 * the reader hands dead letters to the handler again (redrive) until they
 * go through. A table of its own: the test reads its stream from the start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { listDeadLetters } from '../../src/stream/checkpoints.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { dynamoFault, injectFaults } from '../support/faults.js';
import { patience } from '../support/patience.js';

let gw: TestGateway;
beforeAll(async () => {
  // A throttled write is retried once, at once: what is under test is the processor's retries and redrive, not the client's backoff.
  gw = await testGateway({ client: { throttleAttempts: 2, throttleBaseDelayMs: 1 } });
});
afterAll(() => gw?.stop());

const RENAME = `mutation($id: ID!, $t: String) { updateCourse(id: $id, input: { title: $t }) { id } }`;
const titles = async () => (await gw.scan()).filter((i) => i.SK === 'COURSE#D1').map((e) => e.courseTitle);

describe('a propagation through an outage', () => {
  it('is kept as a dead letter while writes are throttled, redriven once they are not, and every copy converges', async () => {
    const students = ['d1', 'd2', 'd3'];
    await gw.put([
      courseItem({ id: 'D1', title: 'Old', studentCount: 3 }),
      ...students.map((id) => studentItem({ id, name: `Name ${id}`, courseCount: 1 })),
      ...students.map((id) =>
        enrollmentItem({ studentId: id, courseId: 'D1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: `Name ${id}` }),
      ),
    ]);
    const reader = gw.streamReader({ maxAttempts: 2, retryDelayMs: 1, redriveMs: 50 });
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    reader.start();
    try {
      await reader.caughtUp();
      expect((await gw.run(RENAME, { id: 'D1', t: 'New' })).errors).toBeUndefined();
      // The processor's writes are throttled past their retries: the rename's record becomes a dead letter.
      const removeFaults = injectFaults(gw.dynamo, ({ operation }) =>
        operation === 'UpdateItem' || operation === 'TransactWriteItems' ? dynamoFault('ThrottlingException') : null,
      );
      try {
        await reader.caughtUp();
        const label = (await gw.scan()).find((i) => String(i.PK).startsWith('STREAM#'))!.PK as string;
        expect(await listDeadLetters(store, label.slice('STREAM#'.length))).toHaveLength(1);
        expect(await titles()).toEqual(['Old', 'Old', 'Old']);
        expect(reader.stats.failed).toBe(1);
        expect(reader.stats.redriven).toBe(0);
      } finally {
        removeFaults();
      }
      // The outage over, a redrive pass applies it: every copy converges, the mark goes, the letter is gone.
      await expect.poll(titles, { timeout: patience(60_000), interval: 100 }).toEqual(['New', 'New', 'New']);
      await expect.poll(() => reader.stats.redriven, { timeout: patience(60_000), interval: 100 }).toBe(1);
      expect((await gw.scan()).filter((i) => String(i.SK).startsWith('FAILED#'))).toEqual([]);
      expect(await gw.get('COURSE#D1', 'PROFILE')).not.toHaveProperty('propagatingSince');
      expect(reader.stats.snapshot()).toMatchObject({ failed: 1, redriven: 1, deadLetters: 0 });
    } finally {
      await reader.stop();
    }
  });

  it('converges every copy within a minute of a 60 s throttling window ending, the redrive paced by a stepped clock', async () => {
    const students = ['w1', 'w2', 'w3'];
    await gw.put([
      courseItem({ id: 'W1', title: 'Old', studentCount: 3 }),
      ...students.map((id) => studentItem({ id, name: `Name ${id}`, courseCount: 1 })),
      ...students.map((id) =>
        enrollmentItem({ studentId: id, courseId: 'W1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: `Name ${id}` }),
      ),
    ]);
    const copies = async () => (await gw.scan()).filter((i) => i.SK === 'COURSE#W1').map((e) => e.courseTitle);
    expect((await gw.run(RENAME, { id: 'W1', t: 'New' })).errors).toBeUndefined();
    // From clock 0 to 60 s the processor's writes are throttled; its redrive keeps the default pace (30 s, doubling).
    let now = 0;
    const removeFaults = injectFaults(gw.dynamo, ({ operation }) =>
      now < 60_000 && (operation === 'UpdateItem' || operation === 'TransactWriteItems') ? dynamoFault('ThrottlingException') : null,
    );
    const reader = gw.streamReader({ retryDelayMs: 1, now: () => now });
    reader.start();
    try {
      await expect.poll(() => reader.stats.failed, { timeout: patience(60_000), interval: 50 }).toBeGreaterThanOrEqual(1);
      let convergedAt: number | undefined;
      for (; now <= 180_000; now += 5000) {
        // Two cycles: the redrive, when due, runs between the first's end and the second's.
        await reader.caughtUp();
        await reader.caughtUp();
        if ((await copies()).every((t) => t === 'New')) {
          convergedAt = now;
          break;
        }
      }
      expect(convergedAt).toBeDefined();
      expect(convergedAt!).toBeGreaterThanOrEqual(60_000);
      expect(convergedAt! - 60_000).toBeLessThanOrEqual(60_000);
      // The rename's record and the edges' (read after the rename, so their copies were stale): all redriven, none left.
      const { failed, redriven, deadLetters } = reader.stats.snapshot();
      expect(failed).toBeGreaterThanOrEqual(1);
      expect({ redriven, deadLetters }).toEqual({ redriven: failed, deadLetters: 0 });
    } finally {
      removeFaults();
      await reader.stop();
    }
  });
});
