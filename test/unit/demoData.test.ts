/** The demo files next to the model files: found by name, and in the layout the gateway's own writes keep. */
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEMA_FILE, loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { demoFileOf, demoItemsOf } from '../../src/transport/demoData.js';
import { layoutProblems } from '../support/layoutCheck.js';

const CRM = fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url));

describe('demo data files', () => {
  it('sit next to their model file: schema.graphql → schema.demo.json', () => {
    expect(demoFileOf('/x/schema.graphql')).toBe('/x/schema.demo.json');
    expect(demoFileOf('/x/examples/crm.graphql')).toBe('/x/examples/crm.demo.json');
    expect(demoFileOf('/x/model.sdl')).toBe('/x/model.sdl.demo.json');
  });

  it('are optional: a model without one loads no demo data', () => {
    expect(demoItemsOf('/nowhere/model.graphql')).toBeNull();
  });

  it('refuse a file without an items array, or an item without PK and SK, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-'));
    writeFileSync(join(dir, 'a.demo.json'), '{"rows": []}');
    expect(() => demoItemsOf(join(dir, 'a.graphql'))).toThrow(/a\.demo\.json: expected an object with an "items" array/);
    writeFileSync(join(dir, 'b.demo.json'), '{"items": [{"PK": "X"}]}');
    expect(() => demoItemsOf(join(dir, 'b.graphql'))).toThrow(/item 0 has no string PK and SK/);
    writeFileSync(join(dir, 'c.demo.json'), '{"items": [');
    expect(() => demoItemsOf(join(dir, 'c.graphql'))).toThrow(/c\.demo\.json: not valid JSON/);
  });

  it("hold the default model's demo set: students 1–4, courses A–C, customer 1, product bike, with exact counters and copies", () => {
    const items = demoItemsOf(DEFAULT_SCHEMA_FILE)!;
    expect(layoutProblems(compilePlan(loadModel()), items)).toEqual([]);
    const keys = items.map((i) => `${i.PK} ${i.SK}`);
    expect(keys).toEqual(
      expect.arrayContaining(['STUDENT#1 PROFILE', 'STUDENT#4 PROFILE', 'COURSE#A PROFILE', 'COURSE#C PROFILE', 'CUSTOMER#1 PROFILE', 'PRODUCT#bike PRODUCT']),
    );
    // Catalog entries: one GSI2 key per student and course, and counters summing to them.
    const catalog = items.filter((i) => String(i.PK).startsWith('CATALOG#'));
    const counted = (kind: string) => catalog.filter((i) => String(i.PK).startsWith(`CATALOG#${kind}#`)).reduce((n, i) => n + (i.count as number), 0);
    expect([counted('STUDENT'), counted('COURSE')]).toEqual([4, 3]);
    expect(items.filter((i) => String(i.GSI2PK ?? '').startsWith('CATALOG#'))).toHaveLength(7);
  });

  it('hold the example model’s demo set in its layout', () => {
    const items = demoItemsOf(CRM)!;
    expect(layoutProblems(compilePlan(loadModel(CRM)), items)).toEqual([]);
    expect(items.map((i) => `${i.PK} ${i.SK}`)).toEqual(
      expect.arrayContaining(['USER#12345 PROFILE', 'USER#12345 ORDER2026-07-03', 'USER#12345 CONTACT#6543', 'USER#12345 GROUP#chess']),
    );
  });

  it('catch a counter that disagrees with the items (the check can fail)', () => {
    const items = demoItemsOf(CRM)!.map((i) => (i.PK === 'USER#12345' && i.SK === 'PROFILE' ? { ...i, orderCount: 9 } : i));
    expect(layoutProblems(compilePlan(loadModel(CRM)), items)).toEqual(['User 12345: orderCount is 9, User.orders has 3']);
    const stale = demoItemsOf(CRM)!.map((i) => (i.SK === 'GROUP#chess' && i.PK === 'USER#12345' ? { ...i, groupName: 'Old' } : i));
    expect(layoutProblems(compilePlan(loadModel(CRM)), stale)).toEqual(['USER#12345|GROUP#chess: groupName is "Old", Group.name is "Chess club"']);
  });
});
