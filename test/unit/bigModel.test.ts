/** The model-size bench row serves a model of 50 item types: it must stay a model the gateway accepts. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bigModel } from '../../bench/bigModel.js';
import { loadModel } from '../../src/declaration/loadModel.js';

describe('the 50-type bench model', () => {
  it('is accepted by the model check and declares 50 item types', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'big-model-')), 'big.graphql');
    writeFileSync(file, bigModel());
    expect(loadModel(file).items.size).toBe(50);
  });
});
