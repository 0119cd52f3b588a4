/**
 * `npm run schema -- [--out <dir>]`
 *
 * Writes what a frontend needs of the model in SCHEMA_FILE into <dir>
 * (default clients/api/, which holds the default model's):
 * - schema.graphql: the served schema (scripts/servedSchema.ts), generated
 *   connection, edge and PageInfo types included, for codegen and
 *   relay-compiler;
 * - cacheShape.ts: how client caches tell its objects apart
 *   (scripts/cacheShape.ts), which the Apollo Client, urql and Relay setups
 *   of clients/ read.
 * A model with problems: its lines on stderr, exit code 1, nothing written.
 * docs/clients.md#the-served-schema.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { printSchema } from 'graphql';
import { ConfigError, loadConfig } from '../src/config.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { ModelError } from '../src/declaration/problems.js';
import { cacheShapeModule, cacheShapeOf } from './cacheShape.js';
import { servedSchema } from './servedSchema.js';

const ROOT = resolve(import.meta.dirname, '..');
export const DEFAULT_OUT = join(ROOT, 'clients', 'api');
const USAGE = `usage: npm run schema -- [--out <dir>]
  --out <dir>   where to write schema.graphql and cacheShape.ts (default clients/api)
env: SCHEMA_FILE (the model)`;

export interface SchemaIo {
  env?: NodeJS.ProcessEnv;
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Where a relative --out is read from: npm runs scripts in the package's directory and passes the caller's in INIT_CWD. */
  cwd?: string;
}

/** The files `npm run schema` writes for the model in `file`, by name. */
export function schemaFiles(file: string): Record<'schema.graphql' | 'cacheShape.ts', string> {
  const model = loadModel(file);
  const schema = servedSchema(model);
  const near = relative(ROOT, file);
  const source = near && !near.startsWith('..') ? near : file;
  return { 'schema.graphql': `${printSchema(schema)}\n`, 'cacheShape.ts': cacheShapeModule(cacheShapeOf(model, schema), source) };
}

/** The CLI: returns the exit code. */
export function schemaMain(args: readonly string[], io: SchemaIo = {}): number {
  const out = io.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  try {
    const { values } = parseArgs({ args: [...args], options: { out: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
    if (values.help) {
      out(USAGE);
      return 0;
    }
    const env = io.env ?? process.env;
    const config = loadConfig(env, { servesGraphql: false });
    const cwd = io.cwd ?? env.INIT_CWD ?? process.cwd();
    const dir = values.out ? resolve(cwd, values.out) : DEFAULT_OUT;
    const shown = (path: string) => relative(cwd, path) || path;
    const files = schemaFiles(config.schemaFile);
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      out(`${shown(join(dir, name))}: ${name === 'schema.graphql' ? 'the served schema' : 'the cache shape'} of ${shown(config.schemaFile)}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof ModelError) {
      err(error.message);
      return 1;
    }
    if (error instanceof ConfigError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS')) {
      err(`schema: ${(error as Error).message}\n${USAGE}`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = schemaMain(process.argv.slice(2));
}
