/**
 * `npm run bench:subscriptions [-- --only latency,fanout,idle --writes 40 --subscribers 1000 --events 30 --idle 1000 --rounds 3 --old DIR --out FILE]`
 *
 * Live updates as deployed for many instances: DynamoDB Local, redis-server, gateway processes
 * (`STREAM_WORKER=0`) and a stream worker, all with REDIS_URL; graphql-ws clients in this process.
 * - latency: write → message beside the stream's own delay;
 * - fanout: `--subscribers` over two instances, `--events` writes read by the worker at once: messages/s,
 *   CPU per message; `--rounds` rounds on fresh tables and processes; `--old DIR` (another checkout):
 *   each round runs old, new and new again (the control: its spread is the machine's), in turn;
 * - idle: per round a fresh gateway's RSS before and after `--idle` WebSockets from 127.0.0.1
 *   (`connection_init` acknowledged), then after one subscription each.
 * Prints a table (median and range of rounds); `--out` also writes it to a file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createDynamo } from '../src/dynamo/client.js';
import { freePort, startLocalDynamo } from '../src/dynamo/local.js';
import { describeLayout } from '../src/dynamo/table.js';
import { batchPut } from '../src/dynamo/batchWrite.js';
import { courseItem } from '../test/support/defaultItems.js';
import { createStreamsClient } from '../src/stream/streamsClient.js';
import { median } from './compare.js';
import { writeNamed } from './output.js';
import { cpuMs } from './run.js';

const text = (fallback?: string) => ({ type: 'string', ...(fallback === undefined ? {} : { default: fallback }) }) as const;
const { values } = parseArgs({
  options: {
    only: text('latency,fanout,idle'),
    writes: text('40'),
    subscribers: text('1000'),
    events: text('30'),
    idle: text('1000'),
    rounds: text('3'),
    old: text(),
    out: text(),
  },
});
const [WRITES, SUBSCRIBERS, EVENTS, IDLE, ROUNDS] = [values.writes, values.subscribers, values.events, values.idle, values.rounds].map(Number) as number[];
const only = new Set(values.only!.split(','));
const root = join(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const children: ChildProcess[] = [];
const node = process.execPath;

function child(args: string[], env: Record<string, string>, ready: RegExp, cwd = root): Promise<ChildProcess> {
  const c = children[children.push(spawn(args[0]!, args.slice(1), { cwd, env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })) - 1]!;
  let out = '';
  return new Promise((resolve, reject) => {
    const check = (chunk: Buffer) => ((out = (out + chunk).slice(-20_000)), ready.test(out) && resolve(c));
    c.stdout!.on('data', check),
      c.stderr!.on('data', check),
      c.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out.slice(-2000)}`)));
  });
}
const stopChild = (c: ChildProcess) => new Promise<void>((done) => (c.exitCode !== null ? done() : (c.once('exit', () => done()), c.kill('SIGTERM'))));

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
/** Median and range of per-round figures. */
const spread = (xs: number[], digits = 0) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
const client = (url: string): Client => createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });

async function main() {
  const local = await startLocalDynamo({ port: 0 });
  const REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
  await child(
    ['redis-server', '--port', REDIS_URL.split(':')[2]!, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {},
    /Ready to accept connections/,
  );
  const common = (table: string) => ({ DYNAMODB_ENDPOINT: local.endpoint, TABLE_NAME: table, REDIS_URL, LOG_LEVEL: 'info', AWS_REGION: 'us-east-1' });
  const dynamo = createDynamo({ endpoint: local.endpoint, region: 'us-east-1' });
  const rows: string[][] = [];
  let tables = 0;

  /** `gateways` gateway processes and (with `worker`) a stream worker of the checkout `dir`, on a table of their own. */
  async function setup(dir: string, gateways: number, worker: boolean) {
    const [table, started, urls] = [`BenchSubscriptions${++tables}`, [] as ChildProcess[], [] as string[]];
    for (let i = 0; i < gateways; i++) {
      const port = await freePort();
      const env = {
        ...common(table),
        PORT: String(port),
        HOST: '127.0.0.1',
        STREAM_WORKER: '0',
        WS_MAX_CONNECTIONS: '10000',
        WS_MAX_CONNECTIONS_PER_ADDRESS: '0',
        HTTP_MAX_CONNECTIONS: '10000',
        HTTP_MAX_WAITING_PER_ADDRESS: '0',
      };
      started.push(await child([node, '--import', 'tsx', 'src/main.ts'], env, /gateway ready at/, dir));
      urls.push(`http://127.0.0.1:${port}/graphql`);
    }
    if (worker) started.push(await child([node, '--import', 'tsx', 'src/streamWorker.ts'], common(table), /stream processor started/, dir));
    const retitle = (id: string, title: string) =>
      dynamo.doc.send(
        new UpdateCommand({
          TableName: table,
          Key: { PK: `COURSE#${id}`, SK: 'PROFILE' },
          UpdateExpression: 'SET title = :t',
          ExpressionAttributeValues: { ':t': title },
        }),
      );
    return { table, urls, pids: started.map((c) => c.pid!), retitle, stop: () => Promise.all(started.map(stopChild)) };
  }

  if (only.has('latency')) {
    const s = await setup(root, 1, true);
    await batchPut(dynamo.doc, s.table, [courseItem({ id: 'lat', title: 'Latency' })]);
    const { streamArn } = await describeLayout(dynamo.raw, s.table);
    const streams = createStreamsClient({ endpoint: local.endpoint, region: 'us-east-1' });
    const [seenAt, arrived] = [new Map<string, number>(), new Map<string, number>()];
    let polling = true; // the stream's own delay, seen by a tight GetRecords loop
    const open = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn! }))).StreamDescription!.Shards!.filter(
      (sh) => !sh.SequenceNumberRange?.EndingSequenceNumber,
    );
    const iterators = await Promise.all(
      open.map(
        async (sh) =>
          (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn!, ShardId: sh.ShardId!, ShardIteratorType: 'LATEST' }))).ShardIterator,
      ),
    );
    const poller = (async () => {
      for (; polling; await sleep(10)) {
        for (let i = 0; i < iterators.length; i++) {
          if (!iterators[i]) continue;
          const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterators[i] }));
          iterators[i] = out.NextShardIterator;
          for (const title of (out.Records ?? []).map((r) => r.dynamodb?.NewImage?.title?.S)) if (title && !seenAt.has(title)) seenAt.set(title, Date.now());
        }
      }
    })();
    const one = client(s.urls[0]!);
    one.subscribe(
      { query: 'subscription { courseChanged(id: "lat") { title } }' },
      { next: (m: any) => void arrived.set(m.data.courseChanged.title, Date.now()), error: () => {}, complete: () => {} },
    );
    await sleep(1500);
    const [total, stream] = [[] as number[], [] as number[]];
    for (let i = 0; i < WRITES; i++) {
      const t0 = Date.now();
      await s.retitle('lat', `lat-${i}`);
      while (!arrived.has(`lat-${i}`)) await sleep(2);
      total.push(arrived.get(`lat-${i}`)! - t0), stream.push((seenAt.get(`lat-${i}`) ?? arrived.get(`lat-${i}`)!) - t0);
      await sleep(50 + Math.random() * 200);
    }
    polling = false;
    await Promise.all([poller, one.dispose(), s.stop()]);
    streams.destroy();
    const p50p95 = (xs: number[]) => `${pct(xs, 50)} / ${pct(xs, 95)} ms`;
    rows.push(['write → message, p50 / p95', p50p95(total)], ["the stream's own delay (write → visible to GetRecords), p50 / p95", p50p95(stream)]);
    rows.push(["beyond the stream's delay, p50 / p95", p50p95(total.map((t, i) => t - stream[i]!))]);
  }

  if (only.has('fanout')) {
    const variants: [string, string][] = values.old
      ? [
          ['old', resolve(values.old)],
          ['new', root],
          ['new again (control)', root],
        ]
      : [['new', root]];
    const figures = new Map(
      variants.map(([name]) => [name, { perSecond: [] as number[], cpuUs: [] as number[], busy: [] as number[], workerMs: [] as number[] }]),
    );
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved: each round starts with another variant, so a slow spell of the machine spreads over all.
      for (let v = 0; v < variants.length; v++) {
        const [name, dir] = variants[(round + v) % variants.length]!;
        const s = await setup(dir, 2, true);
        await batchPut(dynamo.doc, s.table, [courseItem({ id: 'fan', title: 'Fan-out' })]);
        let [delivered, lastAt, failed] = [0, 0, 0];
        const fans = Array.from({ length: SUBSCRIBERS }, (_, i) => client(s.urls[i % 2]!));
        const sink = { next: () => ((delivered += 1), (lastAt = Date.now())), error: () => (failed += 1), complete: () => {} };
        for (const c of fans) c.subscribe({ query: 'subscription { courseChanged(id: "fan") { id title } }' }, sink);
        const count = async (u: string) => ((await (await fetch(u.replace(/graphql$/, 'health'))).json()) as any).details.subscriptions.subscriptions as number;
        while ((await Promise.all(s.urls.map((u) => count(u).catch(() => 0)))).reduce((a, b) => a + b) < SUBSCRIBERS) {
          if (failed > 0) throw new Error(`fan-out (${name}): ${failed} subscribers failed`);
          await sleep(100);
        }
        // The worker stopped while the events are written, then resumed: it reads them at once, so the figure is the delivery's, not the stream's pace.
        process.kill(s.pids[2]!, 'SIGSTOP');
        for (let i = 0; i < EVENTS; i++) await s.retitle('fan', `fan-${i}`);
        const [cpu0, worker0, t0] = [cpuMs(s.pids[0]!) + cpuMs(s.pids[1]!), cpuMs(s.pids[2]!), Date.now()];
        process.kill(s.pids[2]!, 'SIGCONT');
        for (; delivered < EVENTS * SUBSCRIBERS; await sleep(20))
          if (Date.now() - t0 > 120_000) throw new Error(`fan-out (${name}): ${delivered} of ${EVENTS * SUBSCRIBERS} delivered`);
        const [cpu, f] = [cpuMs(s.pids[0]!) + cpuMs(s.pids[1]!) - cpu0, figures.get(name)!];
        f.workerMs.push((cpuMs(s.pids[2]!) - worker0) / EVENTS), f.perSecond.push((EVENTS * SUBSCRIBERS) / ((lastAt - t0) / 1000));
        f.cpuUs.push((cpu * 1000) / (EVENTS * SUBSCRIBERS)), f.busy.push((cpu / (lastAt - t0)) * 100);
        console.error(
          `fan-out round ${round + 1} ${name}: ${Math.round(f.perSecond.at(-1)!)} messages/s, ${f.cpuUs.at(-1)!.toFixed(1)} µs CPU/message, worker ${f.workerMs.at(-1)!.toFixed(1)} ms/event`,
        );
        await Promise.all(fans.map((c) => c.dispose()));
        await s.stop();
      }
    }
    for (const [name, f] of figures) {
      const who = values.old ? ` (${name})` : '';
      rows.push([
        `fan-out${who}: ${SUBSCRIBERS} subscribers over 2 instances, ${EVENTS} events, median (range) of ${ROUNDS}`,
        `${spread(f.perSecond)} messages/s`,
      ]);
      rows.push(
        [`gateway CPU per delivered message${who}`, `${spread(f.cpuUs, 1)} µs`],
        [`both gateways busy during the fan-out${who}`, `${spread(f.busy)}% of one core`],
      );
      rows.push([`stream worker CPU per event${who}`, `${spread(f.workerMs, 1)} ms`]);
    }
    const ratio = (a: string, b: string) => (median(figures.get(a)!.perSecond) / median(figures.get(b)!.perSecond)).toFixed(2);
    if (values.old) rows.push(['messages/s new ÷ old; control (new again ÷ new)', `${ratio('new', 'old')}; ${ratio('new again (control)', 'new')}`]);
  }

  if (only.has('idle')) {
    const [bare, subscribed]: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      const s = await setup(root, 1, false);
      const [idle, settled] = [[] as WebSocket[], async (ms: number) => (await sleep(ms), rssKb(s.pids[0]!))];
      const rss0 = await settled(2000);
      for (let i = 0; i < IDLE; i++) {
        const ws = idle[idle.push(new WebSocket(s.urls[0]!.replace(/^http/, 'ws'), ['graphql-transport-ws'])) - 1]!;
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
          ws.once('message', (m) => (JSON.parse(String(m)).type === 'connection_ack' ? resolve() : reject(new Error(String(m)))));
          ws.once('error', reject);
        });
      }
      const rss1 = await settled(2000);
      idle.forEach((ws, i) =>
        ws.send(JSON.stringify({ type: 'subscribe', id: 'a', payload: { query: `subscription { courseChanged(id: "idle${i % 50}") { title } }` } })),
      );
      const rss2 = await settled(3000);
      idle.forEach((ws) => ws.terminate());
      await s.stop();
      bare.push(((rss1 - rss0) * 1024) / IDLE / 1000), subscribed.push(((rss2 - rss0) * 1024) / IDLE / 1000);
      console.error(`idle round ${round + 1}: RSS ${rss0} → ${rss1} → ${rss2} KiB`);
    }
    rows.push(
      [`RSS per idle connection (${IDLE} from 127.0.0.1, fresh gateway), median (range) of ${ROUNDS}`, `${spread(bare, 1)} KB`],
      ['…with one subscription each', `${spread(subscribed, 1)} KB`],
    );
  }

  const table = ['| measure | value |', '|---|---|', ...rows.map((r) => `| ${r[0]} | ${r[1]} |`)].join('\n');
  const report = `Node ${process.version}, ${WRITES} latency writes, STREAM_POLL_MS=250 (worker), DynamoDB Local in memory, redis-server ${REDIS_URL}\n\n${table}\n`;
  console.log(report);
  if (values.out) writeNamed(values.out, report);
  dynamo.raw.destroy();
  await Promise.all([...children.map(stopChild), local.stop()]);
}

main().catch(async (err) => {
  console.error(err);
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
});
