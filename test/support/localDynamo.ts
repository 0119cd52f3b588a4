/**
 * DynamoDB Local as the tests start it: the run's shared one (globalSetup.ts)
 * and the few files that need one of their own.
 *
 * DynamoDB Local keeps every stream record in one SQLite table without an
 * index on its shard, and keeps the records of deleted tables: each write to
 * a table with a stream looks through all of them. A test run creates
 * hundreds of tables, so its writes grew slower the longer the run went on
 * (measured: 2.5 ms of CPU per PutItem on a fresh DynamoDB Local, 5 ms after
 * 60 tables of 150 writes, and most of a whole run's CPU in the end). Where
 * the machine has a memory-backed folder (/dev/shm) with room, the database is a file
 * there, and the indexes it lacks are added beside DynamoDB Local once it has
 * made its tables: every write then costs the same (1.4 ms measured) however
 * many tables came before. Elsewhere it stays in memory, as before.
 */
import { existsSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startLocalDynamo, type LocalDynamo } from '../../src/dynamo/local.js';
import { patience } from './patience.js';

/**
 * JVM flags for a test run's DynamoDB Local. A run sends it some tens of
 * thousands of short requests on a 2-core machine; measured on 6,000 of
 * them (puts, queries, transactions on a table with an index and a stream):
 * about 31 s of Java CPU with the JVM's defaults, 16–20 s with these. The
 * JVM stops at its quick compiler (the optimising one costs more CPU than it
 * wins back in a few minutes), collects garbage on one thread and keeps no
 * performance-counter file.
 */
export const TEST_JAVA_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1', '-XX:+UseSerialGC', '-XX:-UsePerfData'];

/** Indexes on DynamoDB Local's stream tables (us: stream records, ss: shards) for the lookups every write and GetRecords make. */
const STREAM_INDEXES = [
  'CREATE INDEX IF NOT EXISTS test_us_shard ON us (ShardID, SequenceNumber)',
  'CREATE INDEX IF NOT EXISTS test_us_stream ON us (StreamID)',
  'CREATE INDEX IF NOT EXISTS test_ss_stream ON ss (StreamID)',
];

const MEMORY_FOLDER = '/dev/shm';
/** Room for a run's database (6 MB after 31 stream-heavy files; its stream records are never deleted): a container's small /dev/shm (64 MB by default) is not used. */
const ROOM_BYTES = 2 ** 29;

/** The memory-backed folder when there is one with room for a run's database. */
function memoryFolder(): string | undefined {
  if (!existsSync(MEMORY_FOLDER)) return undefined;
  const { bavail, bsize } = statfsSync(MEMORY_FOLDER);
  return bavail * bsize >= ROOM_BYTES ? MEMORY_FOLDER : undefined;
}

/** Node's own SQLite (Node 22.13+; the pinned @types/node predates it, hence the type written here). */
const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as {
  DatabaseSync: new (path: string, options: { timeout: number }) => { exec(sql: string): void; close(): void };
};

/** A DynamoDB Local of the test's own on a free port, with the test run's JVM flags and stream indexes. */
export async function startTestDynamo(options: { timeoutMs?: number } = {}): Promise<LocalDynamo> {
  const folder = memoryFolder();
  const dbPath = folder ? mkdtempSync(join(folder, 'gateway-tests-dynamo-')) : undefined;
  let local: LocalDynamo;
  try {
    local = await startLocalDynamo({ port: 0, ...options, javaOptions: TEST_JAVA_OPTIONS, dbPath });
  } catch (err) {
    if (dbPath) rmSync(dbPath, { recursive: true, force: true });
    throw err;
  }
  if (!dbPath) return local;
  const db = new DatabaseSync(join(dbPath, 'shared-local-instance.db'), { timeout: patience(30_000) });
  try {
    for (const statement of STREAM_INDEXES) db.exec(statement);
  } finally {
    db.close();
  }
  return {
    ...local,
    stop: async () => {
      await local.stop();
      rmSync(dbPath, { recursive: true, force: true });
    },
  };
}
