/** The default model's demo data (schema.demo.json), as `npm start` loads it: for tests that start from it. */
import type { Item } from '../../src/dynamo/batchGet.js';
import { DEFAULT_SCHEMA_FILE } from '../../src/declaration/loadModel.js';
import { demoItemsOf } from '../../src/transport/demoData.js';

export function demoItems(): Item[] {
  const items = demoItemsOf(DEFAULT_SCHEMA_FILE);
  if (items === null) throw new Error('schema.demo.json is missing');
  return items;
}
