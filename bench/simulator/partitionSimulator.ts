/**
 * The partition simulator: a DynamoDB-compatible HTTP proxy in front of
 * DynamoDB Local that meters read and write units per partition key (the
 * base table and every GSI separately) and throttles a partition whose
 * token bucket is empty, the way DynamoDB does. DynamoDB Local never
 * throttles; this puts the one limit that shapes a single-table design back:
 * one partition key serves about 1,000 write units and 3,000 read units a
 * second, and a throttled index throttles the base-table writes feeding it.
 *
 * In:  the endpoint of a DynamoDB Local; rates, burst and a time scale.
 * Out: an endpoint to point the SDK at, per-partition usage, totals.
 *
 * A model, not DynamoDB (capacity.ts has the arithmetic; docs/sharding.md
 * the simplifications):
 * - a request is admitted when the buckets of every partition it touches
 *   are above zero and then charged what it consumed, so a bucket may go
 *   negative by one request; partitions never split and adaptive capacity
 *   is not modelled;
 * - a refused request is answered as DynamoDB answers: 400
 *   `ProvisionedThroughputExceededException`; a transaction instead gets a
 *   `TransactionCanceledException` whose reason for each throttled item is
 *   `ThrottlingError`; BatchGetItem/BatchWriteItem return throttled keys
 *   unprocessed (and fail as a whole only when none could be served);
 * - old images (and new images of updates) are read from Local around the
 *   write to learn item sizes and index keys; an update that moves an item
 *   to another index partition is admitted on the old one's bucket;
 * - `scale` multiplies every rate (0.1: 100 WCU/s per partition) so a small
 *   machine can run a rush at the same ratios; benchmarks divide by it.
 */
import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INDEX_ENTRY_OVERHEAD, itemSize, readUnits, TokenBuckets, writeUnits, type AttributeValue, type WireItem } from './capacity.js';

export interface SimulatorOptions {
  /** DynamoDB Local endpoint (`http://127.0.0.1:8000`). */
  target: string;
  /** Port to listen on (127.0.0.1); 0 picks a free one. */
  port?: number;
  /** Write units per second per partition key (default 1,000). */
  writeRate?: number;
  /** Read units per second per partition key (default 3,000). */
  readRate?: number;
  /** Bucket size in seconds of the rate (default 1 s: a partition may spend one second of its rate at once). */
  burstSeconds?: number;
  /** Multiplies every rate (default 1). */
  scale?: number;
}

export interface PartitionUsage {
  readUnits: number;
  writeUnits: number;
  /** Requests (or batch keys) refused because this partition's bucket was empty. */
  throttled: number;
}

export interface SimulatorTotals {
  requests: number;
  readUnits: number;
  writeUnits: number;
  throttledRequests: number;
}

interface Schema {
  pk: string;
  sk?: string;
  indexes: { name: string; pk: string; sk?: string }[];
}

/** Where units go: `<table>` or `<table>/<index>`, and the partition key value. */
export const partitionLabel = (table: string, index: string | undefined, pk: string) => `${table}${index ? `/${index}` : ''} ${pk}`;

const scalar = (v: AttributeValue | undefined): string | undefined => {
  if (!v) return undefined;
  const inner = Object.values(v)[0];
  return typeof inner === 'string' ? inner : JSON.stringify(inner);
};

const THROUGHPUT = 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException';
const CANCELLED = 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException';
const THROTTLE_MESSAGE =
  'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly.';

interface Reply {
  status: number;
  body: string;
}

const throttledReply = (): Reply => ({ status: 400, body: JSON.stringify({ __type: THROUGHPUT, message: THROTTLE_MESSAGE }) });

function cancelledReply(throttled: boolean[]): Reply {
  const codes = throttled.map((t) => (t ? 'ThrottlingError' : 'None'));
  return {
    status: 400,
    body: JSON.stringify({
      __type: CANCELLED,
      Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
      CancellationReasons: throttled.map((t) => (t ? { Code: 'ThrottlingError', Message: THROTTLE_MESSAGE } : { Code: 'None' })),
    }),
  };
}

/** One write of a request (a Put/Update/Delete/ConditionCheck, alone or inside a transaction or batch). */
interface Write {
  table: string;
  kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  key: WireItem;
  item?: WireItem;
}

export async function startPartitionSimulator(options: SimulatorOptions) {
  const { target, port = 0, writeRate = 1000, readRate = 3000, burstSeconds = 1, scale = 1 } = options;
  const writes = new TokenBuckets({ rate: writeRate * scale, capacity: writeRate * scale * burstSeconds });
  const reads = new TokenBuckets({ rate: readRate * scale, capacity: readRate * scale * burstSeconds });
  const usage = new Map<string, PartitionUsage>();
  const totals: SimulatorTotals = { requests: 0, readUnits: 0, writeUnits: 0, throttledRequests: 0 };
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  const targetUrl = new URL(target);
  const schemas = new Map<string, Promise<Schema>>();

  const use = (label: string) => {
    let u = usage.get(label);
    if (!u) usage.set(label, (u = { readUnits: 0, writeUnits: 0, throttled: 0 }));
    return u;
  };
  const chargeRead = (label: string, units: number) => {
    reads.charge(label, units);
    use(label).readUnits += units;
    totals.readUnits += units;
  };
  const chargeWrite = (label: string, units: number) => {
    writes.charge(label, units);
    use(label).writeUnits += units;
    totals.writeUnits += units;
  };

  function send(op: string, body: string, headers: IncomingHttpHeaders = {}): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: targetUrl.hostname,
          port: targetUrl.port,
          method: 'POST',
          path: '/',
          agent,
          headers: {
            ...headers,
            host: targetUrl.host,
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': `DynamoDB_20120810.${op}`,
            'content-length': Buffer.byteLength(body),
            authorization: headers.authorization ?? 'AWS4-HMAC-SHA256 Credential=local/20260101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 500, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  function schemaOf(table: string): Promise<Schema> {
    let s = schemas.get(table);
    if (!s) {
      s = send('DescribeTable', JSON.stringify({ TableName: table })).then((r) => {
        const t = JSON.parse(r.body).Table;
        if (!t) throw new Error(`DescribeTable ${table}: ${r.body}`);
        const keys = (ks: { AttributeName: string; KeyType: string }[]) => ({
          pk: ks.find((k) => k.KeyType === 'HASH')!.AttributeName,
          sk: ks.find((k) => k.KeyType === 'RANGE')?.AttributeName,
        });
        return {
          ...keys(t.KeySchema),
          indexes: (t.GlobalSecondaryIndexes ?? []).map((g: { IndexName: string; KeySchema: never }) => ({ name: g.IndexName, ...keys(g.KeySchema) })),
        };
      });
      s.catch(() => schemas.delete(table));
      schemas.set(table, s);
    }
    return s;
  }

  const keyString = (schema: Schema, key: WireItem) => JSON.stringify([scalar(key[schema.pk]), schema.sk ? scalar(key[schema.sk]) : null]);

  /** Current images of `keys` (table → keys), read from Local directly (not metered). */
  async function images(byTable: Map<string, WireItem[]>): Promise<Map<string, WireItem>> {
    const found = new Map<string, WireItem>();
    const RequestItems: Record<string, { Keys: WireItem[]; ConsistentRead: boolean }> = {};
    for (const [table, keys] of byTable) if (keys.length) RequestItems[table] = { Keys: keys, ConsistentRead: true };
    let pending: typeof RequestItems | undefined = Object.keys(RequestItems).length ? RequestItems : undefined;
    while (pending) {
      const out = JSON.parse((await send('BatchGetItem', JSON.stringify({ RequestItems: pending }))).body);
      for (const [table, items] of Object.entries((out.Responses ?? {}) as Record<string, WireItem[]>)) {
        const schema = await schemaOf(table);
        for (const item of items) found.set(`${table} ${keyString(schema, item)}`, item);
      }
      pending = out.UnprocessedKeys && Object.keys(out.UnprocessedKeys).length ? out.UnprocessedKeys : undefined;
    }
    return found;
  }

  function keyOf(schema: Schema, item: WireItem): WireItem {
    const key: WireItem = { [schema.pk]: item[schema.pk] };
    if (schema.sk) key[schema.sk] = item[schema.sk];
    return key;
  }

  /** The partitions (table and index labels) a write is admitted on. */
  function writePartitions(write: Write, schema: Schema, old: WireItem | undefined): string[] {
    const labels = [partitionLabel(write.table, undefined, scalar(write.key[schema.pk])!)];
    for (const index of schema.indexes) {
      for (const image of [old, write.kind === 'Put' ? write.item : undefined]) {
        const pk = scalar(image?.[index.pk]);
        if (pk !== undefined && (!index.sk || image?.[index.sk])) labels.push(partitionLabel(write.table, index.name, pk));
      }
    }
    return [...new Set(labels)];
  }

  /** Charges one write (after it ran): base table by the larger image, each index by the entries it changed. */
  function chargeWriteOf(write: Write, schema: Schema, old: WireItem | undefined, next: WireItem | undefined, applied: boolean, txn: boolean) {
    const base = partitionLabel(write.table, undefined, scalar(write.key[schema.pk])!);
    const size = Math.max(itemSize(old), applied ? itemSize(next) : 0);
    chargeWrite(base, writeUnits(size, txn));
    if (!applied || write.kind === 'ConditionCheck') return;
    for (const index of schema.indexes) {
      const entry = (image: WireItem | undefined) =>
        image && image[index.pk] && (!index.sk || image[index.sk]) ? { pk: scalar(image[index.pk])!, sk: index.sk ? scalar(image[index.sk]) : '' } : null;
      const before = entry(old);
      const after = entry(next);
      if (before && after && before.pk === after.pk && before.sk === after.sk) {
        if (JSON.stringify(old) !== JSON.stringify(next)) {
          chargeWrite(partitionLabel(write.table, index.name, after.pk), writeUnits(Math.max(itemSize(old), itemSize(next)) + INDEX_ENTRY_OVERHEAD, txn));
        }
        continue;
      }
      if (before) chargeWrite(partitionLabel(write.table, index.name, before.pk), writeUnits(itemSize(old) + INDEX_ENTRY_OVERHEAD, txn));
      if (after) chargeWrite(partitionLabel(write.table, index.name, after.pk), writeUnits(itemSize(next) + INDEX_ENTRY_OVERHEAD, txn));
    }
  }

  /**
   * Admission: refused when any bucket is empty; otherwise each bucket is
   * charged `estimate` units now (so concurrent requests see each other) and
   * the difference to what the request consumed once it ran (`release`).
   */
  const refuse = (labels: string[], buckets: TokenBuckets, estimate: number) => {
    const empty = labels.filter((l) => !buckets.admits(l));
    for (const l of empty) use(l).throttled += 1;
    if (empty.length === 0) for (const l of labels) buckets.charge(l, estimate);
    return empty.length > 0;
  };
  const release = (labels: string[], buckets: TokenBuckets, estimate: number) => {
    for (const l of labels) buckets.charge(l, -estimate);
  };

  /** Runs writes (one request: a single write, a transaction, or a batch) with admission and metering. */
  async function handleWrites(op: string, body: Record<string, any>, list: Write[], headers: IncomingHttpHeaders): Promise<Reply> {
    const txn = op === 'TransactWriteItems';
    const schemaList = await Promise.all(list.map((w) => schemaOf(w.table)));
    const byTable = new Map<string, WireItem[]>();
    list.forEach((w) => byTable.set(w.table, [...(byTable.get(w.table) ?? []), w.key]));
    const before = await images(byTable);
    const oldOf = (w: Write, i: number) => before.get(`${w.table} ${keyString(schemaList[i], w.key)}`);
    const estimate = txn ? 2 : 1;
    const labels = list.map((w, i) => writePartitions(w, schemaList[i], oldOf(w, i)));
    const throttled = labels.map((l) => refuse(l, writes, estimate));
    const admitted = list.map((_, i) => !throttled[i]);
    const settle = () => labels.forEach((l, i) => admitted[i] && release(l, writes, estimate));
    if (throttled.some(Boolean) && (txn || op !== 'BatchWriteItem' || admitted.every((a) => !a))) settle();
    if (throttled.some(Boolean)) {
      totals.throttledRequests += 1;
      if (txn) return cancelledReply(throttled);
      if (op !== 'BatchWriteItem' || admitted.every((a) => !a)) return throttledReply();
    }
    let forwardBody = body;
    const unprocessed: Record<string, unknown[]> = {};
    if (op === 'BatchWriteItem' && admitted.some((a) => !a)) {
      // Serve the admitted requests; hand the rest back as UnprocessedItems, as DynamoDB does.
      const RequestItems: Record<string, unknown[]> = {};
      let i = 0;
      for (const [table, requests] of Object.entries(body.RequestItems as Record<string, unknown[]>)) {
        for (const r of requests) (admitted[i++] ? (RequestItems[table] ??= []) : (unprocessed[table] ??= [])).push(r);
      }
      forwardBody = { ...body, RequestItems };
    }
    let reply: Reply;
    try {
      reply = await send(op, JSON.stringify(forwardBody), headers);
    } finally {
      settle();
    }
    const out = JSON.parse(reply.body || '{}');
    const ok = reply.status === 200;
    let applied = list.map((_, i) => ok && admitted[i]);
    if (!ok && txn && Array.isArray(out.CancellationReasons)) applied = list.map(() => false);
    if (!ok && !txn && list.length === 1 && !String(out.__type ?? '').includes('ConditionalCheckFailed')) return reply;
    const updated = new Map<string, WireItem[]>();
    list.forEach((w, i) => {
      if (applied[i] && w.kind === 'Update') updated.set(w.table, [...(updated.get(w.table) ?? []), w.key]);
    });
    const after = updated.size ? await images(updated) : new Map<string, WireItem>();
    list.forEach((w, i) => {
      if (!admitted[i]) return;
      const key = `${w.table} ${keyString(schemaList[i], w.key)}`;
      const next = w.kind === 'Put' ? w.item : w.kind === 'Delete' ? undefined : w.kind === 'Update' ? after.get(key) : oldOf(w, i);
      chargeWriteOf(w, schemaList[i], oldOf(w, i), next, applied[i], txn);
    });
    if (Object.keys(unprocessed).length && ok) {
      return { status: 200, body: JSON.stringify({ ...out, UnprocessedItems: { ...(out.UnprocessedItems ?? {}), ...unprocessed } }) };
    }
    return reply;
  }

  /** The partition key value a Query's key condition names. */
  function queryPartition(body: Record<string, any>, pkAttr: string): string | undefined {
    const names: Record<string, string> = body.ExpressionAttributeNames ?? {};
    const values: Record<string, AttributeValue> = body.ExpressionAttributeValues ?? {};
    for (const m of String(body.KeyConditionExpression ?? '').matchAll(/([#\w.]+)\s*=\s*(:\w+)/g)) {
      const attr = m[1].startsWith('#') ? names[m[1]] : m[1];
      if (attr === pkAttr) return scalar(values[m[2]]);
    }
    return undefined;
  }

  async function handle(op: string, raw: string, headers: IncomingHttpHeaders): Promise<Reply> {
    const body = JSON.parse(raw || '{}');
    switch (op) {
      case 'GetItem': {
        const schema = await schemaOf(body.TableName);
        const label = partitionLabel(body.TableName, undefined, scalar(body.Key[schema.pk])!);
        const estimate = body.ConsistentRead ? 1 : 0.5;
        if (refuse([label], reads, estimate)) return (totals.throttledRequests++, throttledReply());
        const reply = await send(op, raw, headers).finally(() => release([label], reads, estimate));
        if (reply.status === 200) chargeRead(label, readUnits(itemSize(JSON.parse(reply.body).Item), { consistent: !!body.ConsistentRead }));
        return reply;
      }
      case 'Query': {
        const schema = await schemaOf(body.TableName);
        const index = body.IndexName ? schema.indexes.find((i) => i.name === body.IndexName) : undefined;
        const pk = queryPartition(body, index ? index.pk : schema.pk);
        if (pk === undefined) return send(op, raw, headers);
        const label = partitionLabel(body.TableName, index?.name, pk);
        if (refuse([label], reads, 0.5)) return (totals.throttledRequests++, throttledReply());
        const reply = await send(op, raw, headers).finally(() => release([label], reads, 0.5));
        if (reply.status === 200) {
          const out = JSON.parse(reply.body);
          // Select COUNT returns no items: assume 100 bytes per item it counted.
          const bytes = out.Items ? out.Items.reduce((s: number, i: WireItem) => s + itemSize(i), 0) : (out.ScannedCount ?? 0) * 100;
          chargeRead(label, readUnits(bytes, { consistent: !index && !!body.ConsistentRead }));
        }
        return reply;
      }
      case 'BatchGetItem':
      case 'TransactGetItems': {
        const txn = op === 'TransactGetItems';
        const gets: { table: string; key: WireItem; consistent: boolean; label: string }[] = [];
        if (txn) {
          for (const t of body.TransactItems) {
            const schema = await schemaOf(t.Get.TableName);
            gets.push({
              table: t.Get.TableName,
              key: t.Get.Key,
              consistent: true,
              label: partitionLabel(t.Get.TableName, undefined, scalar(t.Get.Key[schema.pk])!),
            });
          }
        } else {
          for (const [table, req] of Object.entries(body.RequestItems as Record<string, { Keys: WireItem[]; ConsistentRead?: boolean }>)) {
            const schema = await schemaOf(table);
            for (const key of req.Keys)
              gets.push({ table, key, consistent: !!req.ConsistentRead, label: partitionLabel(table, undefined, scalar(key[schema.pk])!) });
          }
        }
        const estimate = txn ? 2 : 0.5;
        const throttled = gets.map((g) => refuse([g.label], reads, estimate));
        const settle = () => gets.forEach((g, i) => !throttled[i] && release([g.label], reads, estimate));
        if (throttled.some(Boolean)) {
          totals.throttledRequests += 1;
          if (txn || throttled.every(Boolean)) {
            settle();
            return txn ? cancelledReply(throttled) : throttledReply();
          }
        }
        let forward = body;
        const UnprocessedKeys: Record<string, any> = {};
        if (!txn && throttled.some(Boolean)) {
          const RequestItems: Record<string, any> = {};
          gets.forEach((g, i) => {
            const into = throttled[i] ? UnprocessedKeys : RequestItems;
            (into[g.table] ??= { ...body.RequestItems[g.table], Keys: [] }).Keys.push(g.key);
          });
          forward = { ...body, RequestItems };
        }
        const reply = await send(op, JSON.stringify(forward), headers).finally(settle);
        if (reply.status !== 200) return reply;
        const out = JSON.parse(reply.body);
        const found = new Map<string, WireItem>();
        if (txn) (out.Responses ?? []).forEach((r: { Item?: WireItem }, i: number) => r.Item && found.set(String(i), r.Item));
        else {
          for (const [table, items] of Object.entries((out.Responses ?? {}) as Record<string, WireItem[]>)) {
            const schema = await schemaOf(table);
            for (const item of items) found.set(`${table} ${keyString(schema, item)}`, item);
          }
        }
        for (const [i, g] of gets.entries()) {
          if (throttled[i]) continue;
          const schema = await schemaOf(g.table);
          const item = found.get(txn ? String(i) : `${g.table} ${keyString(schema, g.key)}`);
          chargeRead(g.label, readUnits(itemSize(item), { consistent: g.consistent, transactional: txn }));
        }
        if (Object.keys(UnprocessedKeys).length) {
          return { status: 200, body: JSON.stringify({ ...out, UnprocessedKeys: { ...(out.UnprocessedKeys ?? {}), ...UnprocessedKeys } }) };
        }
        return reply;
      }
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem': {
        const schema = await schemaOf(body.TableName);
        const kind = op === 'PutItem' ? 'Put' : op === 'UpdateItem' ? 'Update' : 'Delete';
        const key = kind === 'Put' ? keyOf(schema, body.Item) : body.Key;
        return handleWrites(op, body, [{ table: body.TableName, kind, key, item: body.Item }], headers);
      }
      case 'TransactWriteItems': {
        const list: Write[] = [];
        for (const t of body.TransactItems) {
          const [kind, w] = Object.entries(t)[0] as [Write['kind'], any];
          const schema = await schemaOf(w.TableName);
          list.push({ table: w.TableName, kind, key: kind === 'Put' ? keyOf(schema, w.Item) : w.Key, item: w.Item });
        }
        return handleWrites(op, body, list, headers);
      }
      case 'BatchWriteItem': {
        const list: Write[] = [];
        for (const [table, requests] of Object.entries(body.RequestItems as Record<string, any[]>)) {
          const schema = await schemaOf(table);
          for (const r of requests) {
            if (r.PutRequest) list.push({ table, kind: 'Put', key: keyOf(schema, r.PutRequest.Item), item: r.PutRequest.Item });
            else list.push({ table, kind: 'Delete', key: r.DeleteRequest.Key });
          }
        }
        return handleWrites(op, body, list, headers);
      }
      default:
        return send(op, raw, headers);
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      totals.requests += 1;
      let reply: Reply;
      try {
        reply = await handle(op, Buffer.concat(chunks).toString('utf8'), { authorization: req.headers.authorization });
      } catch (err) {
        reply = { status: 500, body: JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(err) }) };
      }
      res.writeHead(reply.status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `sim-${totals.requests}` });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Units and throttles per partition label (`<table>[/<index>] <partition key>`). */
    usage: () => new Map([...usage].map(([k, v]) => [k, { ...v }])),
    totals: (): SimulatorTotals => ({ ...totals }),
    /** Clears the usage figures (buckets keep their state). */
    resetUsage() {
      usage.clear();
      Object.assign(totals, { requests: 0, readUnits: 0, writeUnits: 0, throttledRequests: 0 });
    },
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      agent.destroy();
    },
  };
}

export type PartitionSimulator = Awaited<ReturnType<typeof startPartitionSimulator>>;
