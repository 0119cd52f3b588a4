/**
 * `npx tsx bench/subscriptionDocuments.ts [-- --sockets 1000 --addresses 10 --documents 12 --kb 90 --dir DIR]`
 *
 * Memory held for subscription documents, process-wide: a gateway process (the checkout `--dir`,
 * default this one; DynamoDB Local in memory, `STREAM_WORKER=0`, default settings) and `--sockets`
 * WebSockets from `--addresses` loopback addresses, each subscribing `--documents` distinct documents
 * of about `--kb` KB (one comment line per KB: few tokens, so each passes the per-socket budget).
 * Prints the gateway's RSS before, once every subscribe was answered, and after every socket closed;
 * how the subscribes were answered (started, refused and by which limit); and how long `/health` took
 * to answer while they arrived (the slowest of the probes sent every 250 ms).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { freePort, startLocalDynamo } from '../src/dynamo/local.js';

const { values } = parseArgs({
  options: { sockets: { type: 'string', default: '1000' }, addresses: { type: 'string', default: '10' }, documents: { type: 'string', default: '12' }, kb: { type: 'string', default: '90' }, dir: { type: 'string' } },
});
const [SOCKETS, ADDRESSES, DOCUMENTS, KB] = [values.sockets, values.addresses, values.documents, values.kb].map(Number) as number[];
const dir = values.dir ?? join(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A distinct document of about `KB` KB: `KB` comment lines of 1,000 characters. */
const line = 'x'.repeat(998);
const documentOf = (n: number) => `${Array.from({ length: KB }, (_, i) => `#${i === 0 ? String(n).padStart(12, '0') + line.slice(12) : line}`).join('\n')}\nsubscription { courseChanged(id: "c${n % 50}") { title } }`;

async function gateway(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: dir, env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const check = (chunk: Buffer) => ((out = (out + chunk).slice(-20_000)), /gateway ready at/.test(out) && resolve());
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`gateway exited ${code}: ${out.slice(-2000)}`)));
  });
  return child;
}

/** One socket from `from`: initialised, its documents subscribed; resolves with each subscribe's outcome. */
function socket(url: string, from: string, first: number): Promise<{ ws: WebSocket; outcomes: string[] }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, ['graphql-transport-ws'], { localAddress: from });
    const outcomes: string[] = [];
    const done = () => resolve({ ws, outcomes });
    ws.once('error', () => (outcomes.push('socket error'), done()));
    ws.once('close', (code) => (outcomes.length < DOCUMENTS && outcomes.push(`closed ${code}`), done()));
    ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'connection_ack') {
        for (let i = 0; i < DOCUMENTS; i++) ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: documentOf(first + i) } }));
        // A subscription that started answers nothing until an event: ask /health-free, by a ping of the protocol.
        ws.send(JSON.stringify({ type: 'ping' }));
      } else if (m.type === 'error') {
        outcomes.push(`refused: ${m.payload?.[0]?.extensions?.limit ?? m.payload?.[0]?.extensions?.code}`);
      } else if (m.type === 'pong') {
        // Messages are handled in order: every subscribe before the ping has been answered or started.
        while (outcomes.length < DOCUMENTS) outcomes.push('started');
        done();
      }
    });
  });
}

async function main() {
  const local = await startLocalDynamo({ port: 0 });
  const port = await freePort();
  const child = await gateway({ DYNAMODB_ENDPOINT: local.endpoint, TABLE_NAME: 'BenchDocuments', PORT: String(port), HOST: '127.0.0.1', STREAM_WORKER: '0', LOG_LEVEL: 'info', AWS_REGION: 'us-east-1' });
  const http = `http://127.0.0.1:${port}`;
  try {
    await sleep(2000);
    const before = rssMb(child.pid!);
    let slowest = 0;
    let probing = true;
    const probes = (async () => {
      while (probing) {
        const started = performance.now();
        await fetch(`${http}/health`).then((r) => r.text());
        slowest = Math.max(slowest, performance.now() - started);
        await sleep(250);
      }
    })();
    const started = performance.now();
    const sockets = await Promise.all(Array.from({ length: SOCKETS }, (_, i) => socket(`ws://127.0.0.1:${port}/graphql`, `127.0.0.${(i % ADDRESSES) + 1}`, i * DOCUMENTS)));
    const seconds = (performance.now() - started) / 1000;
    const peak = rssMb(child.pid!);
    const health = await fetch(`${http}/health`).then((r) => r.json() as Promise<any>);
    probing = false;
    await probes;
    const tally: Record<string, number> = {};
    for (const { outcomes } of sockets) for (const o of outcomes) tally[o] = (tally[o] ?? 0) + 1;
    for (const { ws } of sockets) ws.terminate();
    await sleep(10_000);
    const after = rssMb(child.pid!);
    const open = (await fetch(`${http}/health`).then((r) => r.json() as Promise<any>)).details.subscriptions;
    console.log(
      [
        `${SOCKETS} sockets from ${ADDRESSES} addresses, ${DOCUMENTS} distinct ~${KB} KB documents each (${dir})`,
        `subscribes answered in ${seconds.toFixed(1)} s: ${JSON.stringify(tally)}`,
        `gateway RSS: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB with the sockets open, ${after.toFixed(0)} MB 10 s after they closed`,
        `/health: slowest answer ${(slowest / 1000).toFixed(2)} s while they arrived; subscriptions open then ${health.details.subscriptions.subscriptions}, after ${open.subscriptions}`,
      ].join('\n'),
    );
  } finally {
    child.kill('SIGTERM');
    await local.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
