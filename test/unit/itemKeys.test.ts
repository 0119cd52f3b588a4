/**
 * An item type's key function (plan/itemPlan.ts) is compiled from its key
 * templates: it must give exactly what filling the templates gives, for
 * every type of every model in the repository, and refuse what fill refuses.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadModel } from '../../src/declaration/loadModel.js';
import { buildModel } from '../../src/declaration/buildModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { bigModel } from '../../bench/bigModel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const plans = {
  default: compilePlan(loadModel()),
  crm: compilePlan(loadModel(join(ROOT, 'examples', 'crm.graphql'))),
  '50 types': compilePlan(buildModel(bigModel(), 'big.graphql')),
};

describe('the compiled key of an item type', () => {
  for (const [name, plan] of Object.entries(plans)) {
    it(`equals the filled key templates for every type of the ${name} model`, () => {
      for (const item of plan.items.values()) {
        const parentField = item.type.parent?.field;
        const values: Record<string, string> = { id: 'a1#x' };
        if (parentField) values[parentField] = 'p1';
        expect(item.key('a1#x', parentField ? 'p1' : undefined), item.name).toEqual({ PK: item.type.pk.fill(values), SK: item.type.sk.fill(values) });
      }
    });
  }

  it("refuses a child's key without its parent's id", () => {
    const child = [...plans.default.items.values()].find((i) => i.type.parent !== null)!;
    expect(() => child.key('a1')).toThrow(/needs its parent's id/);
  });
});
