/**
 * The gateway bundle (`npm run build`, scripts/build-server.ts) built once
 * per test run, outside the repository, for the files that run it as the
 * Docker image does. Files in other workers may ask at the same moment:
 * the first to create the folder builds, the others wait for its `done`
 * (or `failed`) marker. Callers only read the build; one that needs the
 * files elsewhere copies them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { buildServer } from '../../scripts/build-server.js';
import { until } from './patience.js';

/** How long the others wait for the build on a machine running the suite, stretched by the load. */
const WAIT_MS = 180_000;

/** The folder holding the build (what `dist/server` holds after `npm run build`). */
export async function serverBuild(): Promise<string> {
  const dir = join(inject('runDir'), 'server-build');
  const out = join(dir, 'server');
  const done = join(dir, 'done');
  const failed = join(dir, 'failed');
  let ours = true;
  try {
    mkdirSync(dir);
  } catch {
    ours = false;
  }
  if (ours) {
    try {
      await buildServer(out);
      writeFileSync(done, '');
    } catch (err) {
      writeFileSync(failed, String((err as Error)?.stack ?? err));
      throw err;
    }
    return out;
  }
  await until(
    () => {
      if (existsSync(failed)) throw new Error(`the shared server build failed:\n${readFileSync(failed, 'utf8')}`);
      return existsSync(done);
    },
    'the shared server build',
    WAIT_MS,
    100,
  );
  return out;
}
