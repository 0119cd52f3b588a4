/** What npm run migrate decides an item needs from other items, from the declared model (src/migration/relationFix.ts). */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { compileRelationFix, type RelationNeed } from '../../src/migration/relationFix.js';

const needOf = compileRelationFix(compilePlan(loadModel()));
const crmNeed = compileRelationFix(compilePlan(loadModel(fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url)))));
const libraryNeed = compileRelationFix(compilePlan(loadModel(fileURLToPath(new URL('../../examples/library.graphql', import.meta.url)))));

/** What a need says in a comparable form: the attributes it copies (from which item, or which child end to find) and the counters it counts (where). */
function summary(need: RelationNeed | null) {
  if (need === null) return null;
  if (need.kind === 'edge') {
    return {
      copies: need.copies.map(
        (c) =>
          `${c.field.copyAttr}/${c.field.copyVersionAttr} <- ${'from' in c ? c.from.PK : `${c.child.end.name} ${c.child.id}`} ${c.field.field}/${c.field.versionAttr}`,
      ),
      shards: need.shards && { parent: need.shards.parentKey.PK, member: need.shards.memberId },
    };
  }
  return { counters: need.counts.map((c) => `${c.counter} = ${c.collection.index ?? 'table'} ${c.collection.pk} ${c.collection.prefix}`) };
}

const EDGE = { PK: 'STUDENT#s1', SK: 'COURSE#c1', GSI1PK: 'COURSE#c1', GSI1SK: 'STUDENT#s1', enrolledAt: '2026-01-01T00:00:00.000Z' };

describe('relation fixes from the declaration', () => {
  it('give an edge without copies both copies, with their versions, and the shard-count copy of its write-sharded parent', () => {
    expect(summary(needOf(EDGE))).toEqual({
      copies: ['courseTitle/courseTitleVersion <- COURSE#c1 title/titleVersion', 'studentName/studentNameVersion <- STUDENT#s1 name/nameVersion'],
      shards: { parent: 'COURSE#c1', member: 's1' },
    });
  });

  it('ask only for what an edge lacks, and nothing for a complete edge', () => {
    expect(summary(needOf({ ...EDGE, courseTitle: 'T', courseShards: 1 }))).toEqual({
      copies: ['studentName/studentNameVersion <- STUDENT#s1 name/nameVersion'],
      shards: null,
    });
    expect(needOf({ ...EDGE, courseTitle: 'T', studentName: 'N', courseShards: 1 })).toBeNull();
  });

  it('count each counter an item lacks in the collection its relation reads', () => {
    expect(summary(needOf({ PK: 'STUDENT#s1', SK: 'PROFILE', name: 'N' }))).toEqual({ counters: ['courseCount = table STUDENT#s1 COURSE#'] });
    expect(summary(needOf({ PK: 'COURSE#c1', SK: 'PROFILE', title: 'T' }))).toEqual({ counters: ['studentCount = GSI1 COURSE#c1 STUDENT#'] });
    expect(summary(needOf({ PK: 'CUSTOMER#cu', SK: 'PROFILE', name: 'B' }))).toEqual({ counters: ['orderCount = table CUSTOMER#cu ORDER#'] });
    expect(needOf({ PK: 'STUDENT#s1', SK: 'PROFILE', name: 'N', courseCount: 0 })).toBeNull();
  });

  it('leave alone items being deleted, parents sharded over several partitions or being resharded, children and bookkeeping', () => {
    expect(needOf({ PK: 'STUDENT#s1', SK: 'PROFILE', name: 'N', deletingAt: '2026-01-01T00:00:00Z' })).toBeNull();
    expect(needOf({ PK: 'COURSE#hot', SK: 'PROFILE', title: 'T', shards: 4 })).toBeNull();
    expect(needOf({ PK: 'COURSE#hot', SK: 'PROFILE', title: 'T', reshardTo: 4 })).toBeNull();
    expect(needOf({ PK: 'CUSTOMER#cu', SK: 'ORDER#o1', placedAt: '2026-01-01T10:00:00.000Z', total: 1 })).toBeNull();
    expect(needOf({ PK: 'CATALOG#COURSE#3', SK: 'COUNTER', count: 4 })).toBeNull();
    expect(needOf({ PK: 'STUDENT#s1', SK: 'NOTE#1', text: 'an item of no declared kind' })).toBeNull();
  });

  it('give an edge of a child type the copy of the child end, to be found by its id, and a child type its counters', () => {
    const reservation = {
      PK: 'BOOK#dune#RESERVED',
      SK: 'MEMBER#ann',
      GSI1PK: 'MEMBER#ann',
      GSI1SK: 'BOOK#dune#RESERVED',
      reservedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(summary(libraryNeed(reservation))).toEqual({
      copies: ['memberName/memberNameVersion <- MEMBER#ann name/nameVersion', 'bookTitle/bookTitleVersion <- Book dune title/titleVersion'],
      shards: null,
    });
    expect(summary(libraryNeed({ ...reservation, memberName: 'Ann' }))).toEqual({
      copies: ['bookTitle/bookTitleVersion <- Book dune title/titleVersion'],
      shards: null,
    });
    const book = { PK: 'LIB#central', SK: 'BOOK#dune', GSI1PK: 'BOOK#dune', GSI1SK: 'LIB#central', title: 'Dune', author: 'Frank Herbert' };
    // A book's collections are named by its id alone: its copies' partition and its reservations'.
    expect(summary(libraryNeed(book))).toEqual({ counters: ['copyCount = table BOOK#dune COPY#', 'reservationCount = table BOOK#dune#RESERVED MEMBER#'] });
    expect(summary(libraryNeed({ ...book, copyCount: 0 }))).toEqual({ counters: ['reservationCount = table BOOK#dune#RESERVED MEMBER#'] });
    expect(libraryNeed({ ...book, copyCount: 0, reservationCount: 0 })).toBeNull();
    // A child type with no counted relation.
    expect(libraryNeed({ PK: 'BOOK#dune', SK: 'COPY#c1', shelf: 'A1' })).toBeNull();
  });

  it('derive the example model’s fixes from its own declaration', () => {
    expect(summary(crmNeed({ PK: 'USER#u1', SK: 'GROUP#g', joinedAt: '2026-01-01T00:00:00.000Z' }))).toEqual({
      copies: ['groupName/groupNameVersion <- GROUP#g name/nameVersion', 'memberName/memberNameVersion <- USER#u1 name/nameVersion'],
      shards: null,
    });
    expect(summary(crmNeed({ PK: 'USER#u1', SK: 'PROFILE', name: 'U' }))).toEqual({
      counters: ['orderCount = table USER#u1 ORDER', 'contactCount = table USER#u1 CONTACT#', 'groupCount = table USER#u1 GROUP#'],
    });
    expect(summary(crmNeed({ PK: 'GROUP#g', SK: 'PROFILE', name: 'G' }))).toEqual({ counters: ['memberCount = GSI1 GROUP#g USER#'] });
    expect(crmNeed({ PK: 'USER#u1', SK: 'ORDER2026-07-03', total: 3 })).toBeNull();
  });
});
