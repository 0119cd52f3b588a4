/**
 * Starts one DynamoDB Local (in memory, 127.0.0.1, a free port) for the
 * whole test run and stops it afterwards. Test files reach it through
 * `inject('dynamoEndpoint')` and make a table of their own.
 */
import type { TestProject } from 'vitest/node';
import { startLocalDynamo, type LocalDynamo } from '../../src/dynamo/local.js';

let local: LocalDynamo | undefined;

export async function setup(project: TestProject) {
  local = await startLocalDynamo({ port: 0 });
  project.provide('dynamoEndpoint', local.endpoint);
}

export async function teardown() {
  await local?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
