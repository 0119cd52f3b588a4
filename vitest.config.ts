import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { patience } from './test/support/patience.js';

const require = createRequire(import.meta.url);

const resolve = {
  // graphql 16 ships CJS (main) and ESM (module) builds. Node loads the CJS one for
  // @apollo/server; Vite would pick the ESM one for our sources, and two copies of
  // graphql refuse each other's schema objects. Use the one Node uses.
  alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
};

const shared = {
  // Guards against a hang, not measures of speed: the heaviest tests take seconds on a quiet machine; stretched
  // by the machine's load when the run starts (test/support/patience.ts).
  testTimeout: patience(120_000),
  hookTimeout: patience(120_000),
  pool: 'forks' as const,
};

/** Unit files that replace a module with vi.mock (none today): they get a module cache of their own. */
const MOCKING: string[] = [];

/**
 * The tests in test/unit start no process and no DynamoDB Local. They share
 * one module cache per worker (isolate: false), which saves loading Apollo,
 * graphql and the AWS SDK once per file; files that mock a module run isolated.
 */
export const unitProjects = [
  { resolve, test: { ...shared, name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: MOCKING, isolate: false } },
  ...(MOCKING.length ? [{ resolve, test: { ...shared, name: 'unit (isolated)', include: MOCKING } }] : []),
];

/**
 * Integration files that need a module cache of their own: a module-level
 * cache or a module mock is part of what they assert.
 */
export const ISOLATED = [
  // Mocks the OpenTelemetry module to prove it is never loaded with telemetry off.
  'test/integration/telemetryOff.test.ts',
  // Asserts the process loaded no model file but the one it serves (loadModel's cache).
  'test/integration/exampleModel.test.ts',
];

/**
 * Everything else runs against one DynamoDB Local for the whole run (both
 * projects share it); every test file makes its own table. The files share
 * one module cache per worker (isolate: false), as the unit tests do: each
 * would otherwise load Apollo, graphql, the AWS SDK and src/ again.
 */
const integration = { ...shared, globalSetup: ['test/support/globalSetup.ts'] };
const integrationProjects = [
  { resolve, test: { ...integration, name: 'integration', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', ...ISOLATED], isolate: false } },
  { resolve, test: { ...integration, name: 'integration (isolated)', include: ISOLATED } },
];

export default defineConfig({
  test: {
    projects: [...unitProjects, ...integrationProjects],
    // vitest's default (one worker fewer than cores) runs one file at a time on 2 cores. An
    // integration file spends about half its time waiting on DynamoDB Local (a JVM of its own) or the
    // processes it starts (profiled on 2 cores): one file more than cores keeps them busy.
    maxWorkers: availableParallelism() + 1,
  },
});
