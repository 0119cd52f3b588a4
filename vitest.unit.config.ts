import { defineConfig } from 'vitest/config';
import { unitProjects } from './vitest.config.js';

/** `npm run test:unit`: the unit projects of vitest.config.ts, without DynamoDB Local. */
export default defineConfig({ test: { projects: unitProjects } });
