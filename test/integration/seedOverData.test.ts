/**
 * The commands that write a table, as a first-time user meets them:
 * `npm run seed` and `npm run migrate` refuse to guess AWS when
 * DYNAMODB_ENDPOINT is unset, and seeding over a table that already holds
 * data (the demo data) leaves every catalog count exact.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItemsOf } from '../../src/transport/demoData.js';
import { DEFAULT_SCHEMA_FILE } from '../../src/declaration/loadModel.js';
import { localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';
import { patience } from '../support/patience.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
  await gw.put(demoItemsOf(DEFAULT_SCHEMA_FILE)!);
});
afterAll(() => gw?.stop());

/** Runs a script with exactly this environment (no AWS variables of the machine's). */
async function script(file: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(tsx, [join(root, 'scripts', file), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH!, ...env },
      timeout: patience(120_000),
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('without DYNAMODB_ENDPOINT', () => {
  it.each([
    ['seed.ts', ['--students', '5']],
    ['migrate.ts', []],
  ])(
    '%s refuses to run, naming the variable, and touches nothing',
    async (file, args) => {
      const result = await script(file, args, { TABLE_NAME: gw.tableName, AWS_REGION: 'eu-west-1' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/DYNAMODB_ENDPOINT is unset: set it to the DynamoDB to write/);
    },
    patience(130_000),
  );
});

describe('seeding over the demo data', () => {
  it(
    'keeps totalCount equal to what the lists hold',
    async () => {
      const result = await script(
        'seed.ts',
        ['--students', '30', '--courses', '5', '--enrollments-per-student', '2', '--customers', '1', '--orders-per-customer', '1'],
        {
          DYNAMODB_ENDPOINT: localEndpoint(),
          TABLE_NAME: gw.tableName,
          AWS_REGION: 'us-east-1',
          // Patient timeouts: the whole suite shares one DynamoDB Local.
          DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
          DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
        },
      );
      expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
      const students = await gw.run('{ students(first: 100) { totalCount edges { node { id } } } courses(first: 100) { totalCount edges { node { id } } } }');
      expect(students.errors).toBeUndefined();
      expect(students.data.students.edges).toHaveLength(34); // 4 demo students + 30
      expect(students.data.students.totalCount).toBe(34);
      expect(students.data.courses.totalCount).toBe(students.data.courses.edges.length);
    },
    patience(130_000),
  );
});
