/**
 * A rolling deploy cannot leave a copy stale for good: a gateway writes a
 * marker of its model's stream work before serving, and a stream processor
 * of an older model (here, one that does not copy a course's title onto
 * enrollments) holds at the marker instead of handling the new model's
 * rename with its own plan: nothing dead-lettered, `modelBehind` reported.
 * The new model's processor resumes from the same checkpoint and every
 * copy converges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { MODEL_PARTITION, workOf, writeModelMarker } from '../../src/stream/modelWork.js';
import { compileClassifier } from '../../src/migration/check.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { patience } from '../support/patience.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
});
afterAll(() => gw?.stop());

/** The default model before it copied course titles onto enrollments. */
function olderPlan() {
  const sdl = readFileSync('schema.graphql', 'utf8');
  const older = sdl.replace('@edges(copy: [{ field: "title", attribute: "courseTitle" }], counter: "courseCount")', '@edges(counter: "courseCount")');
  expect(older).not.toBe(sdl);
  const file = join(mkdtempSync(join(tmpdir(), 'older-model-')), 'schema.graphql');
  writeFileSync(file, older);
  return compilePlan(loadModel(file));
}

const RENAME = `mutation($id: ID!, $t: String) { updateCourse(id: $id, input: { title: $t }) { id } }`;
const titles = async () => (await gw.scan()).filter((i) => i.SK === 'COURSE#R1').map((e) => e.courseTitle);

describe('a rolling deploy that adds a copy', () => {
  it("holds an older model's processor at the new model's marker, and the new processor converges every copy", async () => {
    const students = ['r1', 'r2', 'r3'];
    await gw.put([
      courseItem({ id: 'R1', title: 'Old', studentCount: 3 }),
      ...students.map((id) => studentItem({ id, name: `Name ${id}`, courseCount: 1 })),
      ...students.map((id) =>
        enrollmentItem({ studentId: id, courseId: 'R1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: `Name ${id}` }),
      ),
    ]);
    const older = olderPlan();
    expect(workOf(gw.plan).filter((w) => !workOf(older).includes(w))).toEqual(['copy Course.title>courseTitle on Student.courses']);
    const old = gw.streamReader({ store: { doc: gw.dynamo.doc, tableName: gw.tableName, plan: older } });
    old.start();
    try {
      await old.caughtUp();
      // The new model's gateway starts (its marker) and renames the course while the old processor holds the stream.
      await writeModelMarker({ doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan });
      expect((await gw.run(RENAME, { id: 'R1', t: 'New' })).errors).toBeUndefined();
      await expect
        .poll(() => old.stats.snapshot().modelBehind, { timeout: patience(30_000), interval: 50 })
        .toMatchObject({ missing: ['copy Course.title>courseTitle on Student.courses'] });
      await old.caughtUp();
      expect(old.stats.snapshot()).toMatchObject({ failed: 0, deadLetters: 0 });
      expect(await titles()).toEqual(['Old', 'Old', 'Old']);
      expect(await gw.get('COURSE#R1', 'PROFILE')).toHaveProperty('propagatingSince');
    } finally {
      await old.stop();
    }
    // The deploy replaces the processor: the new model's one resumes at the marker and does the rename's work.
    const current = gw.streamReader();
    current.start();
    try {
      await expect.poll(titles, { timeout: patience(30_000), interval: 100 }).toEqual(['New', 'New', 'New']);
      await expect.poll(async () => (await gw.get('COURSE#R1', 'PROFILE'))?.propagatingSince, { timeout: patience(30_000), interval: 100 }).toBeUndefined();
      expect(current.stats.snapshot()).toMatchObject({ failed: 0, modelBehind: null });
    } finally {
      await current.stop();
    }
  });

  it("lets a newer model's processor go on past an older model's marker", async () => {
    const current = gw.streamReader();
    current.start();
    try {
      await writeModelMarker({ doc: gw.dynamo.doc, tableName: gw.tableName, plan: olderPlan() });
      await current.caughtUp();
      await current.caughtUp();
      expect(current.stats.snapshot().modelBehind).toBeNull();
    } finally {
      await current.stop();
    }
    // The markers are the gateway's bookkeeping: npm run check does not report them as unmatched items.
    const markers = (await gw.scan()).filter((i) => i.PK === MODEL_PARTITION);
    expect(markers).toHaveLength(2);
    const classify = compileClassifier(gw.plan);
    for (const marker of markers) expect(classify(marker)).toEqual({ kind: 'bookkeeping' });
  });
});
