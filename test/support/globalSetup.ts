/**
 * Starts one DynamoDB Local (test/support/localDynamo.ts: 127.0.0.1, a free port) for the
 * whole test run and stops it afterwards. Test files reach it through
 * `inject('dynamoEndpoint')` and make a table of their own; `inject('runDir')`
 * is a folder of the run's own (serverBuild.ts builds into it once).
 *
 * Both integration projects name this file; vitest loads it once per
 * project, in the one main process, so the JVM is kept on `globalThis`
 * and counted: the first setup starts it, the last teardown stops it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { LocalDynamo } from '../../src/dynamo/local.js';
import { startTestDynamo } from './localDynamo.js';

interface Shared {
  local: Promise<LocalDynamo>;
  runDir: string;
  users: number;
}

const KEY = Symbol.for('dynamo-graph-gateway.test.run');
const holder = globalThis as unknown as Record<symbol, Shared | undefined>;

export async function setup(project: TestProject) {
  const shared = (holder[KEY] ??= { local: startTestDynamo(), runDir: mkdtempSync(join(tmpdir(), 'gateway-tests-')), users: 0 });
  shared.users++;
  project.provide('dynamoEndpoint', (await shared.local).endpoint);
  project.provide('runDir', shared.runDir);
}

export async function teardown() {
  const shared = holder[KEY];
  if (!shared || --shared.users > 0) return;
  holder[KEY] = undefined;
  rmSync(shared.runDir, { recursive: true, force: true });
  const local = await shared.local;
  const cpu = cpuSeconds(local.pid);
  // Most of a run's CPU is DynamoDB Local's: said, so a change to the suite's speed can be judged by it.
  if (cpu !== undefined) process.stderr.write(`DynamoDB Local used ${cpu.toFixed(0)} s of CPU\n`);
  await local.stop();
}

/** User and system CPU seconds of a process so far (Linux); undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    runDir: string;
  }
}
