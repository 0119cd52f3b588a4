/** What npm run migrate derives from an item, from the declared model (src/migration/layoutFix.ts). */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { catalogKeys, orderDateKeys } from '../support/defaultItems.js';
import { compileLayoutFix } from '../../src/migration/layoutFix.js';
import { demoItems } from '../support/demoData.js';

const fixOf = compileLayoutFix(compilePlan(loadModel()));
const crmFix = compileLayoutFix(compilePlan(loadModel(fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url)))));

/** Items as a first-round writer stores them, and some the layout cannot derive anything for. */
const OLD = [
  { PK: 'STUDENT#s1', SK: 'PROFILE', name: 'Élève 1' },
  { PK: 'COURSE#c1', SK: 'PROFILE', title: 'Ålgebra', studentCount: 1 },
  { PK: 'COURSE#c2', SK: 'PROFILE', title: 'Stale', ...catalogKeys('COURSE', 'c2', 'Old title') },
  { PK: 'STUDENT#s2', SK: 'PROFILE', name: 'Gone', deletingAt: '2026-01-01T00:00:00Z' },
  { PK: 'COURSE#untitled', SK: 'PROFILE' },
  { PK: 'STUDENT#s1', SK: 'COURSE#c1', GSI1PK: 'COURSE#c1', GSI1SK: 'STUDENT#s1', enrolledAt: '2026-01-01T00:00:00.000Z' },
  { PK: 'STUDENT#s1', SK: 'COURSE#hot', GSI1PK: 'COURSE#hot#3', GSI1SK: 'STUDENT#s1', enrolledAt: '2026-01-01T00:00:00.000Z' },
  { PK: 'CUSTOMER#cu', SK: 'PROFILE', name: 'Buyer' },
  { PK: 'CUSTOMER#cu', SK: 'ORDER#o1', GSI1PK: 'ORDER#o1', GSI1SK: 'CUSTOMER#cu', placedAt: '2026-01-01T10:00:00.000Z', total: 1 },
  { PK: 'CUSTOMER#cu', SK: 'ORDER#o2', GSI1PK: 'ORDER#o2', GSI1SK: 'CUSTOMER#cu', placedAt: 'soon', total: 1 },
  { PK: 'CATALOG#COURSE#3', SK: 'COUNTER', count: 4 },
  { PK: 'PRODUCT#p', SK: 'PART#x', name: 'x', quantity: 1 },
];

describe('layout fixes from the declaration', () => {
  it('derive for the default model the catalog entries, the order-date entry, and nothing for current or unusable items', () => {
    const written = (fix: any) => (fix === null ? null : { kind: fix.kind, set: fix.set, source: fix.source, seen: fix.seen, id: fix.id });
    const expected = [
      { kind: 'enter-catalog', id: 's1', set: { GSI2PK: 'CATALOG#STUDENT#1', GSI2SK: 'NAME#eleve 1\u0001s1' }, source: 'name', seen: 'Élève 1' },
      { kind: 'enter-catalog', id: 'c1', set: { GSI2PK: 'CATALOG#COURSE#1', GSI2SK: 'TITLE#algebra\u0001c1' }, source: 'title', seen: 'Ålgebra' },
      { kind: 'resort-catalog', id: undefined, set: { GSI2SK: 'TITLE#stale\u0001c2' }, source: 'title', seen: 'Stale' },
      null, // being deleted
      null, // no title
      null, // an edge with its GSI1 keys
      null, // an edge of a write-sharded course
      null, // a customer: no catalog
      {
        kind: 'order-date',
        id: undefined,
        set: { GSI2PK: 'ORDERS#cu', GSI2SK: '2026-01-01T10:00:00.000Z#o1' },
        source: 'placedAt',
        seen: '2026-01-01T10:00:00.000Z',
      },
      null, // placedAt is no instant
      null, // a catalog counter
      null, // a part
    ];
    expect(OLD.map((item) => written(fixOf(item)))).toEqual(expected);
    // The demo data is written in the current layout.
    expect(demoItems().filter((item) => fixOf(item) !== null)).toEqual([]);
  });

  it('enter a @catalog item by its declared field and kind, and an item keyed by instant by its instant', () => {
    expect(fixOf(OLD[1])).toMatchObject({
      kind: 'enter-catalog',
      spec: { key: 'CATALOG#COURSE', sortKey: 'TITLE', shards: 8 },
      id: 'c1',
      set: catalogKeys('COURSE', 'c1', 'Ålgebra'),
      source: 'title',
    });
    expect(fixOf(OLD[8])).toMatchObject({ kind: 'order-date', set: orderDateKeys('cu', 'o1', '2026-01-01T10:00:00.000Z'), source: 'placedAt' });
  });

  it('add GSI1 keys to an inverted item that lacks them, with its GSI2 keys in the same change', () => {
    const order = { PK: 'CUSTOMER#cu', SK: 'ORDER#o3', placedAt: '2026-01-01T10:00:00.000Z', total: 1 };
    expect(fixOf(order)).toEqual({
      kind: 'order-date',
      set: { ...orderDateKeys('cu', 'o3', order.placedAt), GSI1PK: 'ORDER#o3', GSI1SK: 'CUSTOMER#cu' },
      source: 'placedAt',
      seen: order.placedAt,
    });
    expect(fixOf({ ...order, placedAt: 'soon' })).toEqual({
      kind: 'index-keys',
      set: { GSI1PK: 'ORDER#o3', GSI1SK: 'CUSTOMER#cu' },
      source: 'SK',
      seen: 'ORDER#o3',
    });
  });

  it("add GSI1 keys to another model's edges that lack them, and leave its other items alone", () => {
    expect(crmFix({ PK: 'USER#1', SK: 'GROUP#g', joinedAt: '2026-01-01T00:00:00.000Z' })).toEqual({
      kind: 'index-keys',
      set: { GSI1PK: 'GROUP#g', GSI1SK: 'USER#1' },
      source: 'SK',
      seen: 'GROUP#g',
    });
    expect(crmFix({ PK: 'USER#1', SK: 'GROUP#g', GSI1PK: 'GROUP#g', GSI1SK: 'USER#1' })).toBeNull();
    expect(crmFix({ PK: 'USER#1', SK: 'PROFILE', name: 'x' })).toBeNull();
    expect(crmFix({ PK: 'USER#1', SK: 'ORDER2026-07-03', total: 1 })).toBeNull();
    expect(crmFix({ PK: 'ELSEWHERE#1', SK: 'X' })).toBeNull();
  });

  it('never re-keys an edge of a write-sharded course (its GSI1PK names the shard)', () => {
    expect(fixOf(OLD[6])).toBeNull();
  });
});
