/**
 * `npm run check -- [--json] [--repair] [--state file] [--segments 4] [--read-units 100] [--write-units 100] [--page-size 200] [--restart]`
 *
 * Reads TABLE_NAME at DYNAMODB_ENDPOINT against the model in SCHEMA_FILE
 * (src/migration/check.ts) and reports items that match no type, lack
 * required attributes or derived index keys, carry index keys their
 * templates contradict or values their types do not allow, keys holding
 * the separator, copies behind their sources, counters that disagree with
 * a count, marks of work that stopped and an unfinished migrate run. Reads
 * numbers of any size (foreignValues.ts). Writes nothing to the table unless --repair, but
 * for its summary (one item, `LAYOUT` / `CHECK`: when it ran and what it
 * left stale), which `/health` details show on every instance.
 * Exit codes: 0 nothing found, 1 something found, 2 bad input or failure.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { createDynamo, endpointLabel } from '../src/dynamo/client.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { ModelError } from '../src/declaration/problems.js';
import { CheckInputError, FINDING_KINDS, runCheck, type CheckReport } from '../src/migration/check.js';
import { saveCheckSummary } from '../src/migration/copyHealth.js';
import { numberSafeDoc } from '../src/migration/foreignValues.js';
import { MARK_WINDOW_MS } from '../src/migration/marks.js';
import { compilePlan } from '../src/plan/plan.js';
import { progressBar, seedClientOptions } from './seedTable.js';

const USAGE = `usage: npm run check -- [options]
  --json               print one JSON report on stdout (default: a summary)
  --repair             repair stale copies, wrong counters, missing index keys (conditional writes), and record the summary
  --record             write the summary item /health shows (stale copies and counters, when checked); without it or
                       --repair the check writes nothing and a read-only role is enough
  --state <file>       keep checkpoints and findings in this local file: a run given it again resumes
  --restart            ignore the state file's checkpoints and start over
  --segments <n>       parallel Scan segments (default MIGRATE_SEGMENTS, 4); a resumed run keeps its own
  --read-units <n>     read capacity units per second (default 100)
  --write-units <n>    write capacity units per second of --repair (default MIGRATE_WRITE_UNITS_PER_SECOND, 100)
  --page-size <n>      items per Scan page and checkpoint (default 200)
  --mark-window <s>    seconds a rename's or a delete's mark may be old before it is reported stale (default 900)
exit: 0 nothing found, 1 something found, 2 bad input
env: SCHEMA_FILE (the model), DYNAMODB_ENDPOINT (unset: AWS), TABLE_NAME, AWS_REGION`;

export interface CheckIo {
  env?: NodeJS.ProcessEnv;
  stdout?: (line: string) => void;
  stderr?: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
}

function positive(values: Record<string, unknown>, flag: string, fallback: number): number {
  const raw = values[flag];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`--${flag} must be a positive integer; got "${raw}"`);
  return n;
}

function summary(report: CheckReport): string[] {
  const lines = [`table ${report.table}: ${report.scanned} items scanned, ${report.found} findings, ${report.readUnits} read units`];
  for (const kind of FINDING_KINDS) {
    const f = report.findings[kind];
    if (f.count === 0) continue;
    lines.push(`${kind}: ${f.count}`);
    for (const s of f.samples) lines.push(`  ${JSON.stringify(s.key)} ${s.detail}`);
  }
  const { copies, counters, indexKeys, marks } = report.repaired;
  if (copies + counters + indexKeys + marks > 0)
    lines.push(`repaired: ${copies} copies, ${counters} counters, ${indexKeys} items' index keys, ${marks} stale marks`);
  if (report.withheld.count > 0) {
    lines.push(`not repaired: ${report.withheld.count} counters whose collections hold items this check flags`);
    for (const s of report.withheld.samples) lines.push(`  ${JSON.stringify(s.key)} ${s.detail}`);
  }
  return lines;
}

/** Runs the command; resolves to its exit code. */
export async function checkMain(args: string[], io: CheckIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((line: string) => console.log(line));
  const stderr = io.stderr ?? process.stderr;
  const fail = (message: string) => {
    stderr.write(`${message}\n`);
    return 2;
  };
  let dynamo: ReturnType<typeof createDynamo> | undefined;
  try {
    const { values } = parseArgs({
      args,
      options: {
        help: { type: 'boolean' },
        json: { type: 'boolean' },
        repair: { type: 'boolean' },
        record: { type: 'boolean' },
        restart: { type: 'boolean' },
        state: { type: 'string' },
        segments: { type: 'string' },
        'read-units': { type: 'string' },
        'write-units': { type: 'string' },
        'page-size': { type: 'string' },
        'mark-window': { type: 'string' },
      },
      strict: true,
    });
    if (values.help) {
      stdout(USAGE);
      return 0;
    }
    const config = loadConfig(io.env ?? process.env, { servesGraphql: false });
    const plan = compilePlan(loadModel(config.schemaFile));
    const options = seedClientOptions(config);
    dynamo = createDynamo(options);
    stderr.write(`checking table ${config.tableName} at ${endpointLabel(options)}\n`);
    const bar = progressBar(values.repair ? 'check (repair)' : 'check', stderr as NodeJS.WriteStream);
    const report = await runCheck({
      raw: dynamo.raw,
      // Numbers of any size read as they are (a counter past 2^53 is reported, never a crash).
      doc: numberSafeDoc(dynamo.raw),
      tableName: config.tableName,
      plan,
      segments: positive(values, 'segments', config.catalog.migrateSegments),
      readUnitsPerSecond: positive(values, 'read-units', 100),
      writeUnitsPerSecond: positive(values, 'write-units', config.catalog.migrateWriteUnitsPerSecond),
      pageSize: positive(values, 'page-size', 200),
      markWindowMs: positive(values, 'mark-window', MARK_WINDOW_MS / 1000) * 1000,
      repair: values.repair === true,
      restart: values.restart === true,
      ...(values.state ? { statePath: values.state } : {}),
      // ItemCount is approximate: never let the bar claim more than it knows.
      onProgress: (p) => bar(p.scanned, Math.max(p.estimatedTotal, p.scanned + (p.segmentsDone < p.segments ? 1 : 0))),
    });
    // For /health on every instance, only when asked: a plain check writes nothing (a read-only role runs it).
    if (values.record || values.repair) {
      await saveCheckSummary(dynamo.doc, config.tableName, plan, report, values.repair === true).catch((err: unknown) =>
        stderr.write(`check: the summary for /health was not written: ${(err as Error)?.name ?? 'Error'}\n`),
      );
    }
    if (values.json) stdout(JSON.stringify(report));
    else for (const line of summary(report)) stdout(line);
    return report.found > 0 ? 1 : 0;
  } catch (err) {
    if (err instanceof CheckInputError || err instanceof ModelError) return fail(err.message);
    if (err instanceof ConfigError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS')) return fail(`check: ${(err as Error).message}\n${USAGE}`);
    // Anything else: one line, the error's name and message (the table or the endpoint answered something unexpected).
    return fail(`check: ${(err as Error)?.name ?? 'Error'}: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    dynamo?.raw.destroy();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await checkMain(process.argv.slice(2));
}
