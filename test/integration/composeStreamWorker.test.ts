/**
 * The compose file's `stream-worker` service, run as the image would run
 * it: its command, from the image's working directory, against the
 * `dist/server` the Dockerfile copies (built here the same way), with the
 * image's and the service's environment. No Docker daemon: the same files
 * and the same command line. It must start, process a rename from the
 * table's stream, and stop on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';
import { serverBuild } from '../support/serverBuild.js';
import { patience, until } from '../support/patience.js';

const root = join(import.meta.dirname, '..', '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'));
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
/** The runtime stage: its WORKDIR, what it copies from the build, its ENV. */
const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
const workdir = /^WORKDIR\s+(\S+)/m.exec(runtime)![1]!;
const copied = /^COPY --from=build (\S+) (\S+)/m.exec(runtime)!;
const imageEnv = Object.fromEntries([...runtime.matchAll(/(\w+)=(\S+)/g)].filter(([, k]) => /^[A-Z_]+$/.test(k!)).map(([, k, v]) => [k!, v!]));

let gw: TestGateway;
let image: string;
beforeAll(async () => {
  gw = await testGateway({ fanOut: 'stream' });
  await gw.put([
    studentItem({ id: 's1', name: 'Ada', courseCount: 1 }),
    courseItem({ id: 'c1', title: 'Engines', studentCount: 1 }),
    enrollmentItem({ studentId: 's1', courseId: 'c1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Engines', studentName: 'Ada' }),
  ]);
  image = mkdtempSync(join(tmpdir(), 'image-'));
  // The build stage writes /app/dist/server (the run's one build, test/support/serverBuild.ts); the runtime copies it to <WORKDIR>/<dest>.
  expect(copied[1]).toBe('/app/dist/server');
  cpSync(await serverBuild(), join(image, workdir, copied[2]!), { recursive: true });
}, patience(120_000));
afterAll(async () => {
  await gw?.stop();
  if (image) rmSync(image, { recursive: true, force: true });
});

describe('the compose stream-worker service', () => {
  it(
    'starts from the image layout with its command, processes a rename, and stops on SIGTERM',
    async () => {
      const service = compose.services['stream-worker'];
      const [program, ...args] = service.command as string[];
      expect(program).toBe('node');
      const env = {
        PATH: process.env.PATH,
        ...imageEnv,
        ...service.environment,
        // The service's DynamoDB Local is this run's; its table this test's.
        DYNAMODB_ENDPOINT: localEndpoint(),
        TABLE_NAME: gw.tableName,
      };
      const child = spawn(process.execPath, args, { cwd: join(image, workdir), env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        await waitFor(
          () => out.includes('stream processor started'),
          () => out,
        );
        const renamed = await gw.run('mutation { updateCourse(id: "c1", input: { title: "Looms" }) { title } }');
        expect(renamed.errors).toBeUndefined();
        // The copy on the edge is the worker's job (the gateway leaves fan-out to the stream).
        await waitFor(
          async () => (await gw.get('STUDENT#s1', 'COURSE#c1'))?.courseTitle === 'Looms',
          () => out,
        );
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      expect(out).toContain('stream worker stopping');
    },
    patience(90_000),
  );
});

const waitFor = (check: () => boolean | Promise<boolean>, output: () => string) => until(check, () => `it; worker output:\n${output()}`, 60_000, 100);
