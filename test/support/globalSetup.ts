/**
 * Starts one DynamoDB Local (in memory, 127.0.0.1, a free port) for the
 * whole test run and stops it afterwards. Test files reach it through
 * `inject('dynamoEndpoint')` and make a table of their own.
 *
 * Both integration projects name this file; vitest loads it once per
 * project, in the one main process, so the JVM is kept on `globalThis`
 * and counted: the first setup starts it, the last teardown stops it.
 */
import type { TestProject } from 'vitest/node';
import { startLocalDynamo, type LocalDynamo } from '../../src/dynamo/local.js';

interface Shared {
  local: Promise<LocalDynamo>;
  users: number;
}

const KEY = Symbol.for('dynamo-graph-gateway.test.dynamoLocal');
const holder = globalThis as unknown as Record<symbol, Shared | undefined>;

export async function setup(project: TestProject) {
  const shared = (holder[KEY] ??= { local: startLocalDynamo({ port: 0 }), users: 0 });
  shared.users++;
  project.provide('dynamoEndpoint', (await shared.local).endpoint);
}

export async function teardown() {
  const shared = holder[KEY];
  if (!shared || --shared.users > 0) return;
  holder[KEY] = undefined;
  await (await shared.local).stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
