import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module) builds. Node loads the CJS one for
    // @apollo/server; Vite would pick the ESM one for our sources, and two copies of
    // graphql refuse each other's schema objects. Use the one Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local for the whole run; every test file makes its own table.
    globalSetup: ['test/support/globalSetup.ts'],
    // Generous: the heaviest property tests take seconds on a quiet machine and far longer on a shared, loaded one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
