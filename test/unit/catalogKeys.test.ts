import { describe, expect, it } from 'vitest';
import {
  catalogKeys,
  catalogPrefix,
  catalogShardOf,
  CATALOG_SHARDS,
  orderDateKeys,
  sortableText,
} from '../../src/dynamo/keys.js';
import { compareKeyStrings } from '../../src/connections/mergedShards.js';
import { validateDateRange, validatePrefix } from '../../src/plan/arguments.js';
import { compileBindings } from '../../src/plan/bindings.js';
import { defaultPlan } from '../support/model.js';
import { layoutFix } from '../../src/model/layout.js';

describe('sortable text', () => {
  it('compares without case, accents or extra spaces', () => {
    expect(sortableText('  Élan   VITAL ')).toBe('elan vital');
    expect(sortableText('ÅLGÈBRA')).toBe(sortableText('algebra'));
    expect(sortableText('ﬁnance')).toBe('finance');
  });

  it('folds letters that have no decomposition', () => {
    expect(sortableText('Straße Bœuf Ørsted Łódź Æther')).toBe('strasse boeuf orsted lodz aether');
  });

  it('keeps a trailing space only for prefixes', () => {
    expect(sortableText('Alan ', { keepTrailingSpace: true })).toBe('alan ');
    expect(sortableText('Alan ')).toBe('alan');
  });

  it('drops control characters and stays within 400 UTF-8 bytes', () => {
    expect(sortableText('a\u0000b\u0001c')).toBe('abc');
    expect(Buffer.byteLength(sortableText('€'.repeat(500)), 'utf8')).toBeLessThanOrEqual(400);
  });
});

describe('catalog keys', () => {
  it('order by sortable text, then id, with a shorter text first', () => {
    const sk = (id: string, title: string) => catalogKeys('COURSE', id, title).GSI2SK;
    const sorted = [sk('z', 'al'), sk('a', 'Al b'), sk('b', 'ál'), sk('a', 'AL')].sort(compareKeyStrings);
    expect(sorted).toEqual([sk('a', 'AL'), sk('b', 'ál'), sk('z', 'al'), sk('a', 'Al b')]);
  });

  it('put an entity in a shard chosen by its id alone, spread over every shard', () => {
    expect(catalogKeys('COURSE', 'c1', 'Old').GSI2PK).toBe(catalogKeys('COURSE', 'c1', 'New').GSI2PK);
    const shards = new Set(Array.from({ length: 200 }, (_, i) => catalogShardOf(`id${i}`)));
    expect(shards.size).toBe(CATALOG_SHARDS);
  });

  it('start every entry of a catalog with the prefix a search extends', () => {
    expect(catalogKeys('STUDENT', 's', 'Émile').GSI2SK.startsWith(catalogPrefix('STUDENT', 'emi'))).toBe(true);
  });

  it('key orders by placedAt in one sortable form, and leave unusable dates out', () => {
    expect(orderDateKeys('c', 'o', '2026-01-02T03:04:05Z')).toEqual({ GSI2PK: 'ORDERS#c', GSI2SK: '2026-01-02T03:04:05.000Z#o' });
    expect(orderDateKeys('c', 'o', 'tomorrow')).toBeNull();
  });
});

describe('narrowing arguments', () => {
  it('refuses empty, blank and over-long prefixes', () => {
    expect(() => validatePrefix('', 'titlePrefix')).toThrow(/titlePrefix/);
    expect(() => validatePrefix(' \u0301 ', 'titlePrefix')).toThrow(/letter/);
    expect(() => validatePrefix('x'.repeat(101), 'titlePrefix')).toThrow(/100/);
    expect(validatePrefix('ÅL', 'titlePrefix')).toBe('al');
  });

  it('refuses inverted and empty date ranges, accepts open ones', () => {
    expect(() => validateDateRange('2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z', 'placedAfter', 'placedBefore')).toThrow(/inverted/);
    expect(() => validateDateRange('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z', 'placedAfter', 'placedBefore')).toThrow(/inverted/);
    expect(validateDateRange(null, '2026-01-01T00:00:00Z', 'placedAfter', 'placedBefore')).toEqual({ after: null, before: '2026-01-01T00:00:00.000Z' });
  });

  it('binds cursors to the normalised arguments', () => {
    const cursorBinding = compileBindings(defaultPlan);
    expect(cursorBinding('Query.courses')({ titlePrefix: 'Al' })).toEqual(cursorBinding('Query.courses')({ titlePrefix: 'ál' }));
    expect(cursorBinding('Query.courses')({ titlePrefix: 'Al' })).not.toEqual(cursorBinding('Query.courses')({ titlePrefix: 'Bo' }));
    expect(cursorBinding('Customer.orders')({})).toEqual({ field: 'a', value: '' });
    expect(cursorBinding('Customer.orders')({ status: 'PAID' }).value).not.toBe('');
    expect(cursorBinding('Query.courses')({})).toEqual({ field: 'p', value: 'CATALOG#COURSE' });
    expect(cursorBinding('Query.courses')({ titlePrefix: 'Al' })).toEqual({ field: 'p', value: 'CATALOG#COURSE?prefix=al' });
  });
});

describe('what the migration derives', () => {
  it('adds a catalog entry to an untitled-by-index course, and nothing to a current one', () => {
    const old = { PK: 'COURSE#c1', SK: 'PROFILE', title: 'Ålgebra' };
    const fix = layoutFix(old);
    expect(fix).toMatchObject({ kind: 'enter-catalog', catalog: 'COURSE', id: 'c1', set: catalogKeys('COURSE', 'c1', 'Ålgebra') });
    expect(layoutFix({ ...old, ...catalogKeys('COURSE', 'c1', 'Ålgebra') })).toBeNull();
  });

  it('re-sorts an entry whose title changed behind the gateway, and leaves entities being deleted alone', () => {
    const stale = { PK: 'STUDENT#s', SK: 'PROFILE', name: 'New', ...catalogKeys('STUDENT', 's', 'Old') };
    expect(layoutFix(stale)).toMatchObject({ kind: 'resort-catalog', set: { GSI2SK: catalogKeys('STUDENT', 's', 'New').GSI2SK } });
    expect(layoutFix({ PK: 'STUDENT#s', SK: 'PROFILE', name: 'X', deletingAt: '2026-01-01T00:00:00Z' })).toBeNull();
  });

  it('leaves bookkeeping, edges and items without a usable source alone', () => {
    expect(layoutFix({ PK: 'CATALOG#COURSE#3', SK: 'COUNTER', count: 4 })).toBeNull();
    expect(layoutFix({ PK: 'STUDENT#s', SK: 'COURSE#c' })).toBeNull();
    expect(layoutFix({ PK: 'COURSE#c', SK: 'PROFILE' })).toBeNull();
    expect(layoutFix({ PK: 'CUSTOMER#c', SK: 'ORDER#o', placedAt: 'soon' })).toBeNull();
  });
});
