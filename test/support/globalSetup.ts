/**
 * Starts one DynamoDB Local (in memory, 127.0.0.1, a free port) for the
 * whole test run and stops it afterwards. Test files reach it through
 * `inject('dynamoEndpoint')` and make a table of their own; `inject('runDir')`
 * is a folder of the run's own (serverBuild.ts builds into it once).
 *
 * Both integration projects name this file; vitest loads it once per
 * project, in the one main process, so the JVM is kept on `globalThis`
 * and counted: the first setup starts it, the last teardown stops it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalDynamo, type LocalDynamo } from '../../src/dynamo/local.js';

interface Shared {
  local: Promise<LocalDynamo>;
  runDir: string;
  users: number;
}

const KEY = Symbol.for('dynamo-graph-gateway.test.run');
const holder = globalThis as unknown as Record<symbol, Shared | undefined>;

export async function setup(project: TestProject) {
  const shared = (holder[KEY] ??= { local: startLocalDynamo({ port: 0 }), runDir: mkdtempSync(join(tmpdir(), 'gateway-tests-')), users: 0 });
  shared.users++;
  project.provide('dynamoEndpoint', (await shared.local).endpoint);
  project.provide('runDir', shared.runDir);
}

export async function teardown() {
  const shared = holder[KEY];
  if (!shared || --shared.users > 0) return;
  holder[KEY] = undefined;
  rmSync(shared.runDir, { recursive: true, force: true });
  await (await shared.local).stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    runDir: string;
  }
}
