import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** Files that replace a module with vi.mock: they get a module cache of their own. */
const MOCKING = ['test/unit/jitCompileOnRepeat.test.ts'];

const unit = (name: string, test: { include: string[]; exclude?: string[]; isolate?: boolean }) => ({
  resolve: base.resolve,
  test: { ...base.test, name, globalSetup: [], ...test },
});

/**
 * `npm run test:unit`: the tests in test/unit, which start no process and no
 * DynamoDB Local. They share one module cache per worker (isolate: false),
 * which saves loading Apollo, graphql and the AWS SDK once per file; files
 * that mock a module run isolated.
 */
export default defineConfig({
  test: {
    projects: [
      unit('unit', { include: ['test/unit/**/*.test.ts'], exclude: MOCKING, isolate: false }),
      unit('unit (isolated)', { include: MOCKING }),
    ],
  },
});
