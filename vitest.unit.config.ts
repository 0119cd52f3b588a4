import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** `npm run test:unit`: the tests in test/unit, which need no DynamoDB, so no DynamoDB Local is started. */
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/unit/**/*.test.ts'], globalSetup: [] },
});
