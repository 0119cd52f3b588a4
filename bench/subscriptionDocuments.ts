/**
 * `npx tsx bench/subscriptionDocuments.ts [-- --sockets 1000 --addresses 10 --documents 12 --kb 90 --dir DIR]`
 *
 * Memory held for subscription documents, process-wide: a gateway process (the checkout `--dir`,
 * default this one; DynamoDB Local in memory, `STREAM_WORKER=0`, default settings) and `--sockets`
 * WebSockets from `--addresses` loopback addresses, each subscribing `--documents` distinct documents
 * of about `--kb` KB (one comment line per KB: few tokens, so each passes the per-socket budget).
 * Prints how the subscribes were answered (started, refused and by which limit); the gateway's RSS,
 * and its heap in use after a full collection (through its inspector, on 127.0.0.1), before, once
 * every subscribe was answered, and after every socket closed; and the slowest `/health` answer while
 * they arrived (asked every 250 ms by a process of its own). `BENCH_NODE_ARGS` adds Node options to
 * the gateway's (e.g. `--cpu-prof`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { freePort, startLocalDynamo } from '../src/dynamo/local.js';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '1000' },
    addresses: { type: 'string', default: '10' },
    documents: { type: 'string', default: '12' },
    kb: { type: 'string', default: '90' },
    dir: { type: 'string' },
  },
});
const [SOCKETS, ADDRESSES, DOCUMENTS, KB] = [values.sockets, values.addresses, values.documents, values.kb].map(Number) as number[];
const dir = values.dir ?? join(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A distinct document of about `KB` KB: `KB` comment lines of 1,000 characters. */
const line = 'x'.repeat(998);
const documentOf = (n: number) =>
  `${Array.from({ length: KB }, (_, i) => `#${i === 0 ? String(n).padStart(12, '0') + line.slice(12) : line}`).join('\n')}\nsubscription { courseChanged(id: "c${n % 50}") { title } }`;

/** The gateway process, with its inspector on a free loopback port (to collect its garbage and read its heap). */
async function gateway(env: Record<string, string>): Promise<{ child: ChildProcess; inspector: string }> {
  const child = spawn(
    process.execPath,
    ['--inspect=127.0.0.1:0', ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'src/main.ts'],
    { cwd: dir, env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const check = (chunk: Buffer) => ((out = (out + chunk).slice(-20_000)), /gateway ready at/.test(out) && resolve());
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`gateway exited ${code}: ${out.slice(-2000)}`)));
  });
  return { child, inspector: /Debugger listening on (ws:\/\/\S+)/.exec(out)![1]! };
}

/** The gateway's heap in use after a full garbage collection, in MB (through its inspector). */
async function liveHeapMb(inspector: string): Promise<number> {
  const ws = new WebSocket(inspector);
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  let id = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<any>((resolve) => {
      const mine = ++id;
      ws.on('message', (data) => {
        const m = JSON.parse(String(data));
        if (m.id === mine) resolve(m.result);
      });
      ws.send(JSON.stringify({ id: mine, method, params }));
    });
  await call('HeapProfiler.collectGarbage');
  const { result } = await call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
  ws.close();
  return result.value / 2 ** 20;
}

/** A socket from `from`, initialised, its documents sent; `refusals` fills as they are answered, `lost` if it closed first. */
interface Sent {
  ws: WebSocket;
  refusals: string[];
  lost: boolean;
}

function socket(url: string, from: string, first: number): Promise<Sent> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, ['graphql-transport-ws'], { localAddress: from });
    const sent: Sent = { ws, refusals: [], lost: false };
    const lost = () => ((sent.lost = true), resolve(sent));
    ws.once('error', lost);
    ws.once('close', lost);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'connection_ack') {
        for (let i = 0; i < DOCUMENTS; i++) ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: documentOf(first + i) } }));
        resolve(sent);
      } else if (m.type === 'error') sent.refusals.push(m.payload?.[0]?.extensions?.limit ?? m.payload?.[0]?.extensions?.code);
    });
  });
}

async function main() {
  const local = await startLocalDynamo({ port: 0 });
  const port = await freePort();
  const { child, inspector } = await gateway({
    DYNAMODB_ENDPOINT: local.endpoint,
    TABLE_NAME: 'BenchDocuments',
    PORT: String(port),
    HOST: '127.0.0.1',
    STREAM_WORKER: '0',
    LOG_LEVEL: 'info',
    AWS_REGION: 'us-east-1',
  });
  const http = `http://127.0.0.1:${port}`;
  try {
    await sleep(2000);
    const before = rssMb(child.pid!);
    const heapBefore = await liveHeapMb(inspector);
    // /health asked every 250 ms from a process of its own (this one is busy sending the documents).
    const probe = spawn(
      process.execPath,
      [
        '-e',
        `setInterval(async () => { const t = performance.now(); await fetch('${http}/health').then((r) => r.text()); console.log(performance.now() - t); }, 250)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let slowest = 0;
    probe.stdout!.on('data', (chunk: Buffer) => {
      for (const ms of String(chunk).split('\n').filter(Boolean)) slowest = Math.max(slowest, Number(ms));
    });
    const started = performance.now();
    const sockets = await Promise.all(
      Array.from({ length: SOCKETS }, (_, i) => socket(`ws://127.0.0.1:${port}/graphql`, `127.0.0.${(i % ADDRESSES) + 1}`, i * DOCUMENTS)),
    );
    // Every subscribe answered: started (open in /health) or refused (an error message); bounded wait.
    const expected = sockets.filter((s) => !s.lost).length * DOCUMENTS;
    let open = 0;
    let refused = 0;
    for (let i = 0; i < 600 && open + refused < expected; i++) {
      await sleep(100);
      open = (await fetch(`${http}/health`).then((r) => r.json() as Promise<any>)).details.subscriptions.subscriptions;
      refused = sockets.reduce((n, s) => n + s.refusals.length, 0);
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = rssMb(child.pid!);
    const heapPeak = await liveHeapMb(inspector);
    probe.kill();
    const tally: Record<string, number> = {};
    for (const { refusals } of sockets) for (const r of refusals) tally[r] = (tally[r] ?? 0) + 1;
    const lost = sockets.filter((s) => s.lost).length;
    for (const { ws } of sockets) ws.terminate();
    await sleep(10_000);
    const after = rssMb(child.pid!);
    const heapAfter = await liveHeapMb(inspector);
    const left = (await fetch(`${http}/health`).then((r) => r.json() as Promise<any>)).details.subscriptions;
    console.log(
      [
        `${SOCKETS} sockets from ${ADDRESSES} addresses, ${DOCUMENTS} distinct ~${KB} KB documents each (${dir})`,
        `subscribes answered in ${seconds.toFixed(1)} s: ${open} started, refused ${JSON.stringify(tally)}; ${lost} sockets closed before their acknowledgement`,
        `gateway RSS: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB with the sockets open, ${after.toFixed(0)} MB 10 s after they closed`,
        `gateway heap in use after a full collection: ${heapBefore.toFixed(0)} MB before, ${heapPeak.toFixed(0)} MB with the sockets open, ${heapAfter.toFixed(0)} MB after they closed`,
        `/health: slowest answer ${(slowest / 1000).toFixed(2)} s while they arrived; after the sockets closed: ${left.subscriptions} subscriptions, ${left.heldDocumentBytes ?? '(not counted)'} document bytes held`,
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
