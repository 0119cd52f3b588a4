/**
 * `npm run bench:subscriptions [-- --writes 40 --subscribers 1000 --events 30 --idle 1000 --out FILE]`
 *
 * Live updates as deployed for many instances: DynamoDB Local, a local
 * redis-server, two gateway processes and one stream worker, all with
 * REDIS_URL; graphql-ws clients in this process. Measures (1) write →
 * message latency beside the stream's own delay, (2) fan-out to
 * `--subscribers` over both instances: events per second and gateway CPU
 * per delivered message, (3) RSS per idle connection, with and without a
 * subscription. Prints a table; `--out` also writes it to a file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createDynamo } from '../src/dynamo/client.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { describeLayout } from '../src/dynamo/table.js';
import { batchPut } from '../src/dynamo/batchWrite.js';
import { courseItem } from '../test/support/defaultItems.js';
import { createStreamsClient } from '../src/stream/streamsClient.js';
import { freePort } from '../test/support/subscriptions.js';
import { writeNamed } from './output.js';
import { cpuMs } from './run.js';

const { values } = parseArgs({
  options: {
    writes: { type: 'string', default: '40' },
    subscribers: { type: 'string', default: '1000' },
    events: { type: 'string', default: '30' },
    idle: { type: 'string', default: '1000' },
    out: { type: 'string' },
  },
});
const WRITES = Number(values.writes);
const SUBSCRIBERS = Number(values.subscribers);
const EVENTS = Number(values.events);
const IDLE = Number(values.idle);
const root = join(import.meta.dirname, '..');
const TABLE = 'BenchSubscriptions';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const children: ChildProcess[] = [];

function child(args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  const c = spawn(args[0]!, args.slice(1), { cwd: root, env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(c);
  let out = '';
  return new Promise((resolve, reject) => {
    const check = (chunk: Buffer) => {
      out += chunk;
      if (ready.test(out)) resolve(c);
    };
    c.stdout!.on('data', check);
    c.stderr!.on('data', check);
    c.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out.slice(-2000)}`)));
  });
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function client(url: string): Client {
  return createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
}

async function main() {
  const local = await startLocalDynamo({ port: 0 });
  const redisPort = await freePort();
  await child(['redis-server', '--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {}, /Ready to accept connections/);
  const REDIS_URL = `redis://127.0.0.1:${redisPort}`;
  const common = { DYNAMODB_ENDPOINT: local.endpoint, TABLE_NAME: TABLE, REDIS_URL, LOG_LEVEL: 'info', AWS_REGION: 'us-east-1' };
  const node = process.execPath;
  const ports = [await freePort(), await freePort()];
  const gatewayEnv = (port: number) => ({ ...common, PORT: String(port), HOST: '127.0.0.1', STREAM_WORKER: '0', WS_MAX_CONNECTIONS: '10000', HTTP_MAX_CONNECTIONS: '10000' });
  const gwA = await child([node, '--import', 'tsx', 'src/main.ts'], gatewayEnv(ports[0]!), /gateway ready at/);
  const gwB = await child([node, '--import', 'tsx', 'src/main.ts'], gatewayEnv(ports[1]!), /gateway ready at/);
  const urls = ports.map((p) => `http://127.0.0.1:${p}/graphql`);
  await child([node, '--import', 'tsx', 'src/streamWorker.ts'], common, /stream processor started/);
  const dynamo = createDynamo({ endpoint: local.endpoint, region: 'us-east-1' });
  const courses = [courseItem({ id: 'lat', title: 'Latency' }), courseItem({ id: 'fan', title: 'Fan-out' })];
  await batchPut(dynamo.doc, TABLE, courses);
  const retitle = (id: string, title: string) =>
    dynamo.doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: `COURSE#${id}`, SK: 'PROFILE' }, UpdateExpression: 'SET title = :t', ExpressionAttributeValues: { ':t': title } }));

  // The stream's own delay, seen by a tight GetRecords loop.
  const { streamArn } = await describeLayout(dynamo.raw, TABLE);
  const streams = createStreamsClient({ endpoint: local.endpoint, region: 'us-east-1' });
  const seenAt = new Map<string, number>();
  let polling = true;
  const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn! }))).StreamDescription!.Shards!;
  const open = shards.filter((s) => !s.SequenceNumberRange?.EndingSequenceNumber);
  const iterators = await Promise.all(
    open.map(async (s) => (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn!, ShardId: s.ShardId!, ShardIteratorType: 'LATEST' }))).ShardIterator),
  );
  const poller = (async () => {
    while (polling) {
      for (let i = 0; i < iterators.length; i++) {
        if (!iterators[i]) continue;
        const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterators[i] }));
        iterators[i] = out.NextShardIterator;
        for (const r of out.Records ?? []) {
          const title = r.dynamodb?.NewImage?.title?.S;
          if (title && !seenAt.has(title)) seenAt.set(title, Date.now());
        }
      }
      await sleep(10);
    }
  })();

  // 1. Latency.
  const one = client(urls[0]!);
  const arrived = new Map<string, number>();
  one.subscribe({ query: 'subscription { courseChanged(id: "lat") { title } }' }, { next: (m: any) => void arrived.set(m.data.courseChanged.title, Date.now()), error: () => {}, complete: () => {} });
  await sleep(1500);
  const total: number[] = [];
  const stream: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const title = `lat-${i}`;
    const t0 = Date.now();
    await retitle('lat', title);
    while (!arrived.has(title)) await sleep(2);
    total.push(arrived.get(title)! - t0);
    stream.push((seenAt.get(title) ?? arrived.get(title)!) - t0);
    await sleep(50 + Math.random() * 200);
  }
  polling = false;
  await poller;
  const beyond = total.map((t, i) => t - stream[i]!);
  await one.dispose();

  // 2. Fan-out over both instances.
  const fans: Client[] = [];
  let delivered = 0;
  let lastAt = 0;
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const c = client(urls[i % 2]!);
    fans.push(c);
    c.subscribe({ query: 'subscription { courseChanged(id: "fan") { id title } }' }, { next: () => ((delivered += 1), (lastAt = Date.now())), error: (e) => console.error('fan-out subscriber error', e), complete: () => {} });
  }
  for (;;) {
    const counts = await Promise.all(urls.map(async (u) => ((await (await fetch(u.replace(/graphql$/, 'health'))).json()) as any).details.subscriptions.subscriptions));
    if (counts[0] + counts[1] >= SUBSCRIBERS) break;
    await sleep(100);
  }
  const cpu0 = cpuMs(gwA.pid!) + cpuMs(gwB.pid!);
  const own0 = process.cpuUsage();
  const t0 = Date.now();
  for (let i = 0; i < EVENTS; i++) await retitle('fan', `fan-${i}`);
  const want = EVENTS * SUBSCRIBERS;
  while (delivered < want) {
    await sleep(20);
    if (Date.now() - t0 > 120_000) throw new Error(`fan-out: ${delivered} of ${want} delivered`);
  }
  const cpu1 = cpuMs(gwA.pid!) + cpuMs(gwB.pid!);
  const own = process.cpuUsage(own0);
  const fanSeconds = (lastAt - t0) / 1000;
  const ownCpuShare = (own.user + own.system) / 1000 / (lastAt - t0);
  const gatewayCpuShare = (cpu1 - cpu0) / (lastAt - t0);
  await Promise.all(fans.map((c) => c.dispose()));
  await sleep(1000);

  // 3. Memory per idle connection, on instance A.
  const rss0 = rssKb(gwA.pid!);
  const idle: WebSocket[] = [];
  for (let i = 0; i < IDLE; i++) {
    const ws = new WebSocket(urls[0]!.replace(/^http/, 'ws'), ['graphql-transport-ws']);
    idle.push(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
  }
  await sleep(2000);
  const rss1 = rssKb(gwA.pid!);
  idle.forEach((ws, i) => ws.send(JSON.stringify({ type: 'subscribe', id: 'a', payload: { query: `subscription { courseChanged(id: "idle${i % 50}") { title } }` } })));
  await sleep(3000);
  const rss2 = rssKb(gwA.pid!);
  idle.forEach((ws) => ws.terminate());

  const rows = [
    ['write → message, p50 / p95', `${pct(total, 50)} / ${pct(total, 95)} ms`],
    ['the stream\'s own delay (write → visible to GetRecords), p50 / p95', `${pct(stream, 50)} / ${pct(stream, 95)} ms`],
    ['beyond the stream\'s delay, p50 / p95', `${pct(beyond, 50)} / ${pct(beyond, 95)} ms`],
    [`fan-out: ${SUBSCRIBERS} subscribers over 2 instances, ${EVENTS} events`, `${Math.round(want / fanSeconds)} messages/s (${fanSeconds.toFixed(2)} s for ${want})`],
    ['gateway CPU per delivered message (both instances)', `${(((cpu1 - cpu0) * 1000) / want).toFixed(1)} µs`],
    ['CPU busy during the fan-out: both gateways / the bench\'s clients', `${(gatewayCpuShare * 100).toFixed(0)}% / ${(ownCpuShare * 100).toFixed(0)}% of one core`],
    [`RSS per idle connection (${IDLE} connections)`, `${(((rss1 - rss0) * 1024) / IDLE / 1000).toFixed(1)} KB`],
    ['…with one subscription each', `${(((rss2 - rss0) * 1024) / IDLE / 1000).toFixed(1)} KB`],
  ];
  const table = ['| measure | value |', '|---|---|', ...rows.map((r) => `| ${r[0]} | ${r[1]} |`)].join('\n');
  const setup = `Node ${process.version}, ${WRITES} latency writes, STREAM_POLL_MS=250 (worker), DynamoDB Local in memory, redis-server ${REDIS_URL}`;
  console.log(`${setup}\n\n${table}`);
  if (values.out) writeNamed(values.out, `${setup}\n\n${table}\n`);
  streams.destroy();
  dynamo.raw.destroy();
  for (const c of children) c.kill('SIGTERM');
  await sleep(500);
  await local.stop();
}

main().catch(async (err) => {
  console.error(err);
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
});
