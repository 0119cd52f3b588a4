import { describe, expect, it } from 'vitest';
import { edgeLayout, layoutToCopy } from '../support/model.js';
import { enrollmentItem } from '../support/defaultItems.js';

const edge = (shards: number, extra: Record<string, unknown> = {}) => ({
  ...enrollmentItem({ studentId: 'foobar', courseId: 'c1', shards, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'T', studentName: 'N' }),
  ...extra,
});

describe('the layout copy on an enrollment edge', () => {
  it('is written with the shard count the edge is indexed for, unless told not to', () => {
    expect(edge(8).courseShards).toBe(8);
    expect(edge(1).courseShards).toBe(1);
    const bare = enrollmentItem({ studentId: 's', courseId: 'c', copyLayout: false, enrolledAt: 'x', courseTitle: 'T', studentName: 'N' });
    expect(bare).not.toHaveProperty('courseShards');
  });

  it('gives the course layout when it matches where the edge is indexed', () => {
    expect(edgeLayout(edge(8))).toEqual({ shards: 8, reshardFrom: null, moves: 0 });
    expect(edgeLayout(edge(1))).toEqual({ shards: 1, reshardFrom: null, moves: 0 });
  });

  it("gives nothing when absent, malformed, out of range or contradicting the edge's own index partition", () => {
    const { courseShards: _, ...without } = edge(8);
    expect(edgeLayout(without)).toBeUndefined();
    expect(edgeLayout(edge(8, { courseShards: '8' }))).toBeUndefined();
    expect(edgeLayout(edge(8, { courseShards: 2.5 }))).toBeUndefined();
    expect(edgeLayout(edge(8, { courseShards: 65 }))).toBeUndefined();
    expect(edgeLayout(edge(8, { courseShards: 1 }))).toBeUndefined(); // indexed under COURSE#c1#<k>, not COURSE#c1
    expect(edgeLayout(edge(1, { courseShards: 4 }))).toBeUndefined();
  });

  it('is copied from a course item only while no reshard is prepared or moving edges', () => {
    expect(layoutToCopy({ PK: 'COURSE#c', SK: 'PROFILE', shards: 4 })).toBe(4);
    expect(layoutToCopy({ PK: 'COURSE#c', SK: 'PROFILE' })).toBe(1);
    expect(layoutToCopy({ PK: 'COURSE#c', SK: 'PROFILE', shards: 4, reshardTo: 8 })).toBeNull();
    expect(layoutToCopy({ PK: 'COURSE#c', SK: 'PROFILE', shards: 8, reshardFrom: 4 })).toBeNull();
    expect(layoutToCopy({ PK: 'COURSE#c', SK: 'PROFILE', shards: 8, reshardCopies: 8 })).toBe(8);
    expect(layoutToCopy(null)).toBeNull();
  });
});
