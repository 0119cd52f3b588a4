/**
 * `npm run import -- <model.json> [--out file.graphql]`
 *
 * Turns a NoSQL Workbench data-model export into a draft model the gateway
 * serves (scripts/workbench/: read.ts checks the export against limits.ts,
 * hints.ts and shapes.ts read ids and key templates from its samples,
 * infer.ts drafts the types, emit.ts writes the SDL, demo.ts the sample
 * items) and writes it with its demo data beside it (`x.graphql` →
 * `x.demo.json`, the file `npm start` loads). Default out: the export's name
 * with `.graphql`, in the current directory. Prints the types, indexes and
 * TODO count, and whether the draft passes the checks the gateway makes at
 * start-up. A file that is not an export, or one past the limits: one line
 * on stderr naming it and what is wrong, exit code 1, nothing written.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { validateSchema } from 'graphql';
import { buildModel } from '../src/declaration/buildModel.js';
import { ModelError } from '../src/declaration/problems.js';
import { gatewaySchema } from '../src/graphql/server.js';
import { demoFileOf } from '../src/transport/demoData.js';
import { demoData } from './workbench/demo.js';
import { emitDraft, todoCount } from './workbench/emit.js';
import { inferDraft, type Draft } from './workbench/infer.js';
import { LIMITS } from './workbench/limits.js';
import { readWorkbench, WorkbenchError } from './workbench/read.js';

const USAGE = 'usage: npm run import -- <model.json> [--out file.graphql]';

export interface Converted {
  draft: Draft;
  /** The model file's text. */
  sdl: string;
  /** The demo data file's content: `{ about, items }`. */
  demo: { about: string; items: Record<string, unknown>[] };
  todos: number;
}

/** An export's text → the draft model and its demo data; throws WorkbenchError naming `file`. */
export function convertWorkbench(file: string, text: string): Converted {
  const table = readWorkbench(file, text);
  if (table.sk === null)
    throw new WorkbenchError(`${file}: table ${table.tableName} has no sort key: the gateway serves tables keyed on a partition and a sort key`);
  const draft = inferDraft(table);
  const sdl = emitDraft(draft);
  return { draft, sdl, demo: demoData(table, draft.excluded), todos: todoCount(sdl) };
}

/**
 * What the gateway would refuse at start-up: the model check, then the schema it builds from the model (GraphQL's
 * own rules, as the server asserts them). A draft the gateway refuses is a bug of the import.
 */
export function startupProblems(sdl: string, file: string): string | null {
  try {
    const errors = validateSchema(gatewaySchema(buildModel(sdl, file), undefined).schema);
    return errors.length === 0 ? null : errors.map((e) => `  ${e.message}`).join('\n');
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return error.message;
  }
}

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

const processIo: Io = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

/**
 * The CLI: returns the exit code. Paths are read from `cwd`: npm runs a
 * script in the package's directory and passes the caller's in INIT_CWD.
 */
export function main(args: readonly string[], io: Io = processIo, cwd: string = process.env.INIT_CWD ?? process.cwd()): number {
  let values: { out?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: [...args], options: { out: { type: 'string' } }, allowPositionals: true }));
  } catch (error) {
    io.err(`import: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (positionals.length !== 1) {
    io.err(USAGE);
    return 2;
  }
  const file = positionals[0]!;
  const path = resolve(cwd, file);
  if (!existsSync(path)) {
    io.err(`import: ${file}: no such file`);
    return 1;
  }
  const size = statSync(path).size;
  if (size > LIMITS.fileBytes) {
    io.err(`import: ${file}: ${size} bytes: the import reads exports of at most ${LIMITS.fileBytes / 1024 / 1024} MB`);
    return 1;
  }
  let converted: Converted;
  try {
    converted = convertWorkbench(file, readFileSync(path, 'utf8'));
  } catch (error) {
    if (!(error instanceof WorkbenchError)) throw error;
    io.err(`import: ${error.message}`);
    return 1;
  }
  const out = resolve(cwd, values.out ?? `${basename(file).replace(/\.json$/i, '')}.graphql`);
  const problems = startupProblems(converted.sdl, out);
  const check = problems === null ? 'passes the model check' : `does NOT pass the model check (a bug of the import):\n${problems}`;
  const code = problems === null ? 0 : 1;
  const demoFile = demoFileOf(out);
  if (!existsSync(dirname(out))) {
    io.err(`import: --out ${out}: no such directory`);
    return 1;
  }
  writeFileSync(out, converted.sdl);
  writeFileSync(demoFile, `${JSON.stringify(converted.demo, null, 1)}\n`);
  const { draft } = converted;
  io.out(
    `${out}: ${draft.types.length} types (${draft.types.map((t) => t.name).join(', ')}), ${draft.indexes.length} indexes${draft.indexes.length > 0 ? ` (${draft.indexes.map((i) => i.name).join(', ')})` : ''}, ${converted.todos} TODO comments; ${check}`,
  );
  io.out(`${demoFile}: ${converted.demo.items.length} sample items`);
  return code;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
