/**
 * Renames and deletes of a write-sharded course reach the edges in every
 * GSI1 partition of the course, through the stream processor and through
 * the in-request fan-out of tables without a stream; a delete also removes
 * the course's counter shards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../support/gateway.js';

const STUDENTS = Array.from({ length: 8 }, (_, i) => `sf${String(i).padStart(2, '0')}`);

for (const fanOut of ['stream', 'inRequest'] as const) {
  describe(`a sharded course (${fanOut} fan-out)`, () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await testGateway({ fanOut });
    });
    afterAll(() => gw.stop());

    async function shardedCourse(id: string) {
      const created = await gw.run(`mutation { createCourse(input: { id: "${id}", title: "Old", shards: 4 }) { id } }`);
      expect(created.errors).toBeUndefined();
      for (const sid of STUDENTS) {
        const r = await gw.run(
          `mutation { createStudent(input: { id: "${id}-${sid}", name: "N ${sid}" }) { id } enroll(studentId: "${id}-${sid}", courseId: "${id}") { enrolledAt } }`,
        );
        expect(r.errors).toBeUndefined();
      }
      const partitions = new Set((await gw.scan()).filter((i) => i.SK === `COURSE#${id}`).map((i) => i.GSI1PK));
      expect(partitions.size).toBeGreaterThan(1); // the edges really are spread over shards
      await gw.settle(); // the enrollments' own records are processed before the rename or delete
    }

    it('brings the new title to the edges of every shard', async () => {
      await shardedCourse(`SR${fanOut}`);
      const renamed = await gw.run(`mutation { updateCourse(id: "SR${fanOut}", input: { title: "New" }) { title } }`);
      expect(renamed.errors).toBeUndefined();
      await gw.settle();
      const edges = (await gw.scan()).filter((i) => i.SK === `COURSE#SR${fanOut}`);
      expect(edges).toHaveLength(STUDENTS.length);
      expect(edges.filter((e) => e.courseTitle !== 'New')).toEqual([]);
      const listed = await gw.run(`{ student(id: "SR${fanOut}-${STUDENTS[0]}") { courses { edges { node { title } } } } }`);
      expect(listed.data.student.courses.edges).toEqual([{ node: { title: 'New' } }]);
    });

    it('deletes the edges of every shard with the students’ counts, then the counter shards and the course', async () => {
      await shardedCourse(`SD${fanOut}`);
      const deleted = await gw.run(`mutation { deleteCourse(id: "SD${fanOut}") }`);
      expect(deleted.errors).toBeUndefined();
      await gw.settle();
      const left = (await gw.scan()).filter((i) => String(i.PK).startsWith(`COURSE#SD${fanOut}`) || i.SK === `COURSE#SD${fanOut}`);
      expect(left).toEqual([]);
      const student = await gw.get(`STUDENT#SD${fanOut}-${STUDENTS[0]}`, 'PROFILE');
      expect(student?.courseCount).toBe(0);
    });
  });
}
