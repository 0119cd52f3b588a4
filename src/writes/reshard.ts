/**
 * Online resharding of one parent of a write-sharded relation: moves its
 * edges and counts from P shards to N while the gateway keeps serving
 * (docs/sharding.md, "Resharding", holds the eight steps and what each
 * waits for). Resumable: each step is conditioned on the parent item's
 * `reshardTo` / `reshardFrom` / `reshardMoves` / `reshardCopies`, so a run
 * after a crash continues where the last one stopped. Asked for the shard
 * count the parent has, it moves nothing: it calls off a prepared reshard
 * and writes the layout copy onto edges that lack it.
 *
 * Exact as long as a request finishes within the grace period and the
 * index shows a committed write within `settleMs`; both are settings.
 */
import { DeleteCommand, PutCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { COUNTER_SK, GSI1, itemKeyString, type ItemKey } from '../dynamo/keys.js';
import { badUserInput, notFound } from '../errors.js';
import { batchGet, type Item } from '../dynamo/batchGet.js';
import { validateId } from '../connections/args.js';
import { RESHARD_FROM_ATTR, RESHARD_MOVES_ATTR, RESHARD_TO_ATTR, RESTORING_ATTR, type Sharding } from '../plan/sharding.js';
import { getItem, planOf, readsOf, type Store } from './store.js';
import { sleep } from '../dynamo/backoff.js';
import { transact, TransactionCancelled } from './transact.js';
import { writePlanOf } from './writePlan.js';
import { GSI1_PK, GSI1_SK } from '../declaration/layout.js';

export interface ReshardOptions {
  /** Wait after the switch before sweeping (longest request). */
  graceMs: number;
  /** Wait after a batch of moves before readers may trust the index again. */
  settleMs: number;
  /** Moves per batch. */
  batchSize: number;
  /** Pause between batches, so readers find windows without moves. */
  pauseMs: number;
  onProgress?: (event: { moved: number; sweep: number }) => void;
  /** Called when a step is done (awaited: tests hold the reshard there to read the parent mid-way). */
  onStep?: (step: ReshardStep) => void | Promise<void>;
}

/** The steps a reshard reports, in order (see the module comment). */
export type ReshardStep = 'prepared' | 'copiesRemoved' | 'switched' | 'moved' | 'copiesRestored';



export interface ReshardResult {
  type: string;
  id: string;
  from: number;
  to: number;
  moved: number;
  sweeps: number;
  /** Edges whose layout copy was removed (step 3) and written back (step 7). */
  copiesRemoved: number;
  copiesRestored: number;
}



const addCount = (store: Store, counter: string, key: ItemKey, delta: number) => ({
  Update: {
    TableName: store.tableName,
    Key: store.plan.keys.key(key),
    UpdateExpression: 'ADD #c :d',
    ConditionExpression: 'attribute_exists(#c)',
    ExpressionAttributeNames: { '#c': counter },
    ExpressionAttributeValues: { ':d': delta },
  },
});

async function bumpMoves(store: Store, s: Sharding, parentId: string) {
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: store.plan.keys.key(s.parentKey(parentId)),
      UpdateExpression: 'ADD #m :one',
      ExpressionAttributeNames: { '#m': RESHARD_MOVES_ATTR },
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

/** Moves one edge from `from` to `to`; false when it is no longer there (unlinked or moved meanwhile). */
async function moveEdge(store: Store, s: Sharding, parentId: string, edge: ItemKey, from: string, to: string) {
  const [a, b] = [s.partitionCounterKey(parentId, from), s.partitionCounterKey(parentId, to)];
  const counters = itemKeyString(a) === itemKeyString(b) ? [] : [addCount(store, s.counter!, a, -1), addCount(store, s.counter!, b, 1)];
  try {
    await transact(store, [
      {
        Update: {
          TableName: store.tableName,
          Key: store.plan.keys.key(edge),
          // A moved edge never carries the layout copy (step 7 writes the new one once every edge is moved).
          UpdateExpression: `SET ${GSI1_PK} = :to REMOVE #copy`,
          ConditionExpression: `${GSI1_PK} = :from`,
          ExpressionAttributeNames: { '#copy': s.copy! },
          ExpressionAttributeValues: { ':to': to, ':from': from },
        },
      },
      ...counters,
    ]);
    return true;
  } catch (err) {
    if (err instanceof TransactionCancelled && err.failed(0)) return false;
    if (err instanceof TransactionCancelled) {
      throw new Error(`a counter of ${s.relation.owner.name} ${parentId} is missing (${err.reasons.join(', ')}); counts must be maintained to reshard`);
    }
    throw err;
  }
}

/** Pages of the edges indexed under one GSI1 partition of the parent (`Limit` = batch size). */
async function* edgePages(store: Store, s: Sharding, partition: string, batchSize: number) {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await readsOf(store).query({
      TableName: store.tableName,
      IndexName: GSI1,
      KeyConditionExpression: `${GSI1_PK} = :p AND begins_with(${GSI1_SK}, :s)`,
      ExpressionAttributeValues: { ':p': partition, ':s': s.relation.node.type.pk.prefix },
      Limit: batchSize,
      ExclusiveStartKey: startKey,
    });
    startKey = out.LastEvaluatedKey;
    yield out.Items ?? [];
  } while (startKey);
}

const conditionFailed = (err: unknown) => (err as { name?: string }).name === 'ConditionalCheckFailedException';

/**
 * Edits every edge of the parent's `shards` layout that `pick` selects, one
 * conditional UpdateItem each (an edge whose condition fails, e.g. one
 * unlinked meanwhile, is skipped, never re-created); the number edited.
 */
async function editEdges(
  store: Store,
  s: Sharding,
  parentId: string,
  shards: number,
  options: ReshardOptions,
  pick: (item: Record<string, unknown>) => boolean,
  edit: (partition: string) => Pick<UpdateCommandInput, 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
) {
  let edited = 0;
  if (s.copy === null) return 0; // the edges carry no copy of the layout
  for (const partition of s.shardPartitions(parentId, shards)) {
    for await (const items of edgePages(store, s, partition, options.batchSize)) {
      const done = await Promise.all(
        items.filter(pick).map((item) =>
          store.doc
            .send(new UpdateCommand({ TableName: store.tableName, Key: store.plan.keys.itemKey(item), ...edit(partition) }))
            .then(
              () => true,
              (err) => {
                if (conditionFailed(err)) return false;
                throw err;
              },
            ),
        ),
      );
      edited += done.filter(Boolean).length;
    }
  }
  return edited;
}

/** Step 3: removes the layout copy from every edge of the parent's current layout that carries one; the number removed. */
const removeCopies = (store: Store, s: Sharding, parentId: string, shards: number, options: ReshardOptions) =>
  editEdges(
    store,
    s,
    parentId,
    shards,
    options,
    (item) => item[s.copy!] !== undefined,
    () => ({ UpdateExpression: 'REMOVE #copy', ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: { '#pk': store.plan.keys.pk, '#copy': s.copy! } }),
  );

/**
 * Step 8: writes the new layout's copy onto every edge of it that lacks
 * one, on the condition that the edge still exists and is indexed where it
 * was read; the number written.
 */
const restoreCopies = (store: Store, s: Sharding, parentId: string, shards: number, options: ReshardOptions) =>
  editEdges(
    store,
    s,
    parentId,
    shards,
    options,
    (item) => item[s.copy!] !== shards,
    (partition) => ({
      UpdateExpression: 'SET #copy = :n',
      ConditionExpression: `attribute_exists(#pk) AND ${GSI1_PK} = :p`,
      ExpressionAttributeNames: { '#pk': store.plan.keys.pk, '#copy': s.copy! },
      ExpressionAttributeValues: { ':n': shards, ':p': partition },
    }),
  );

/** One reshard under way: the parent, its relation's sharding, and the shard counts from and to. */
interface ReshardJob {
  store: Store;
  s: Sharding;
  typeName: string;
  parentId: string;
  /** How errors name the parent: `<type> <id>`. */
  label: string;
  from: number;
  to: number;
  options: ReshardOptions;
}

/** One pass over the old layout's partitions; the number of edges moved. */
async function sweep({ store, s, parentId, from, to, options }: ReshardJob, sweepNo: number) {
  let moved = 0;
  for (const partition of s.shardPartitions(parentId, from)) {
    for await (const items of edgePages(store, s, partition, options.batchSize)) {
      const misplaced = items.flatMap((item) => {
        const memberId = s.relation.node.type.pk.match(item[GSI1_SK])?.id;
        const target = memberId === undefined ? null : s.partition(parentId, memberId, to);
        return target && target !== partition ? [{ edge: store.plan.keys.keyOf(item), target }] : [];
      });
      if (misplaced.length === 0) continue;
      await bumpMoves(store, s, parentId); // odd: a batch is in flight
      try {
        const done = await Promise.all(misplaced.map(({ edge, target }) => moveEdge(store, s, parentId, edge, partition, target)));
        moved += done.filter(Boolean).length;
        await sleep(options.settleMs);
      } finally {
        await bumpMoves(store, s, parentId); // even: readers may trust what they read
      }
      options.onProgress?.({ moved, sweep: sweepNo });
      await sleep(options.pauseMs);
    }
  }
  return moved;
}

/** The parent item, refused (BAD_USER_INPUT, NOT_FOUND) when it cannot be resharded to `shards` now. */
async function parentToReshard(store: Store, s: Sharding | null, typeName: string, parentId: string, shards: number) {
  if (s === null) throw badUserInput(`${typeName} has no write-sharded relation: it cannot be resharded`, 'type');
  if (s.counter === null) throw badUserInput(`${s.relation.path} keeps no counter: it cannot be resharded`, 'type');
  const label = `${typeName.toLowerCase()} ${parentId}`;
  validateId(parentId, typeName.toLowerCase());
  if (!Number.isInteger(shards) || shards < 1 || shards > s.max) {
    throw badUserInput(`shards must be a whole number between 1 and ${s.max}; got ${shards}`, 'shards');
  }
  const parent = await getItem(store, s.parentKey(parentId));
  if (!parent) throw notFound(`${typeName} ${parentId} not found`);
  const layout = s.layoutOf(parent);
  if (layout.reshardFrom !== null && layout.shards !== shards) {
    throw badUserInput(`${label} is being resharded from ${layout.reshardFrom} to ${layout.shards} shards; finish that first`, 'shards');
  }
  const restoring = parent[RESTORING_ATTR];
  if (restoring !== undefined && restoring !== shards) {
    throw badUserInput(`${label} is finishing a reshard to ${String(restoring)} shards; run that again first`, 'shards');
  }
  const preparing = typeof parent[RESHARD_TO_ATTR] === 'number' ? (parent[RESHARD_TO_ATTR] as number) : null;
  return { s, parent, layout, preparing, restoring, label };
}

/**
 * Reshards the item `parentId` of `typeName` (a type with a write-sharded
 * relation) to `shards` shards.
 */
export async function reshard(store: Store, typeName: string, parentId: string, shards: number, options: ReshardOptions): Promise<ReshardResult> {
  const sharding = writePlanOf(planOf(store)).type(typeName).sharding;
  const { s, parent, layout, preparing, restoring, label } = await parentToReshard(store, sharding, typeName, parentId, shards);
  if (layout.reshardFrom === null && layout.shards === shards) {
    // A reshard prepared but never switched is called off by asking for the layout the parent has.
    if (preparing !== null) await callOff(store, s, parentId, preparing);
    // Nothing to move: the edges that lack the layout copy (written before copies existed, during an earlier
    // reshard, or by an interrupted one) get it, as in step 8.
    if (restoring === undefined) await startCopies(store, s, parentId, shards, parent[s.count]);
    const copiesRestored = await finishCopies(store, s, parentId, shards, options);
    return { type: typeName, id: parentId, from: shards, to: shards, moved: 0, sweeps: 0, copiesRemoved: 0, copiesRestored };
  }
  if (preparing !== null && preparing !== shards) {
    throw badUserInput(`${label} is being prepared for a reshard to ${preparing} shards; finish that first`, 'shards');
  }
  const job: ReshardJob = { store, s, typeName, parentId, label, from: layout.reshardFrom ?? layout.shards, to: shards, options };
  const copiesRemoved = layout.reshardFrom === null ? await switchLayout(job, parent, preparing) : 0;
  // A run that crashed mid-batch left the batch counter odd: even it out (no batch is in flight now).
  if (layout.moves % 2 === 1) await bumpMoves(store, s, parentId);

  // 5. Requests that read the old layout, or an edge's copy of it, finish.
  await sleep(options.graceMs);

  // 6. Sweep until nothing moves.
  let moved = 0;
  let sweeps = 0;
  for (;;) {
    sweeps += 1;
    const n = await sweep(job, sweeps);
    moved += n;
    if (n === 0) break;
  }
  await endMoving(job);
  await options.onStep?.('moved');

  // 8. Every edge is in the new layout: the edges say so again.
  const copiesRestored = await finishCopies(store, s, parentId, shards, options);
  await options.onStep?.('copiesRestored');
  return { type: typeName, id: parentId, from: job.from, to: shards, moved, sweeps, copiesRemoved, copiesRestored };
}

/** Steps 1 to 4: prepare, let requests finish, remove the layout copies, switch. The number of copies removed. */
async function switchLayout(job: ReshardJob, parent: Item, preparing: number | null): Promise<number> {
  const { store, s, parentId, from, to: shards, options } = job;
  const keys = store.plan.keys;
  // Counts move with the edges: they must be kept in the old layout, or the moved counts would be wrong.
  const counters = await batchGet(readsOf(store), store.tableName, keys, s.counters(parentId, s.layoutOf(parent)), { consistentRead: true });
  if (counters.some((c) => typeof c?.[s.counter!] !== 'number')) {
    throw badUserInput(`the ${s.counter} of ${job.label} is not maintained (a counter is missing); it cannot be resharded`, job.typeName.toLowerCase());
  }
  const was = parent[s.count] === undefined ? {} : { ':was': parent[s.count] };
  const sameShards = parent[s.count] === undefined ? 'attribute_not_exists(#s)' : '#s = :was';

  // 1. Prepare: links stop copying the layout onto their edges.
  if (preparing === null) {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.key(s.parentKey(parentId)),
        UpdateExpression: 'SET #t = :to',
        ConditionExpression: `attribute_exists(#pk) AND attribute_not_exists(#f) AND attribute_not_exists(#t) AND attribute_not_exists(#r) AND ${sameShards}`,
        ExpressionAttributeNames: { '#pk': keys.pk, '#s': s.count, '#f': RESHARD_FROM_ATTR, '#t': RESHARD_TO_ATTR, '#r': RESTORING_ATTR },
        ExpressionAttributeValues: { ':to': shards, ...was },
      }),
    );
  }
  await options.onStep?.('prepared');
  // 2. Requests that read the parent before (and may still write a copy) finish; their edges reach the index.
  await sleep(options.graceMs + options.settleMs);
  // 3. No edge says where the parent's edges are any more; readers see that before anything moves.
  const copiesRemoved = await removeCopies(store, s, parentId, from, options);
  await sleep(options.settleMs);
  await options.onStep?.('copiesRemoved');

  // 4. Counters of the new layout exist (at 0) before any edge is counted there; then the switch.
  await createCounters(job, parent);
  // The switch, on the condition that nobody else switched or called the reshard off meanwhile.
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.key(s.parentKey(parentId)),
      UpdateExpression: 'SET #s = :to, #f = :from, #m = if_not_exists(#m, :zero) REMOVE #t',
      ConditionExpression: `attribute_exists(#pk) AND attribute_not_exists(#f) AND #t = :to AND ${sameShards}`,
      ExpressionAttributeNames: { '#pk': keys.pk, '#s': s.count, '#f': RESHARD_FROM_ATTR, '#m': RESHARD_MOVES_ATTR, '#t': RESHARD_TO_ATTR },
      ExpressionAttributeValues: { ':to': shards, ':from': from, ':zero': 0, ...was },
    }),
  );
  await options.onStep?.('switched');
  return copiesRemoved;
}

/** The new layout's counters at 0 where missing: the parent's own (one shard), or one item per shard. */
async function createCounters({ store, s, parentId, to: shards }: ReshardJob, parent: Item): Promise<void> {
  const keys = store.plan.keys;
  if (shards === 1 && typeof parent[s.counter!] !== 'number') {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.key(s.parentKey(parentId)),
        UpdateExpression: 'SET #c = if_not_exists(#c, :zero)',
        ExpressionAttributeNames: { '#c': s.counter! },
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
  }
  if (shards <= 1) return;
  await Promise.all(
    Array.from({ length: shards }, (_, k) =>
      store.doc
        .send(new PutCommand({ TableName: store.tableName, Item: { ...keys.key(s.counterKey(parentId, k)), [s.counter!]: 0 }, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: keys.pkName }))
        .catch((err) => {
          if (!conditionFailed(err)) throw err;
        }),
    ),
  );
}

/** Step 7: one layout again (links copy it again; the copies still missing are written next); the old layout's counters go. */
async function endMoving({ store, s, parentId, from, to: shards }: ReshardJob): Promise<void> {
  const keys = store.plan.keys;
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.key(s.parentKey(parentId)),
      UpdateExpression: 'SET #r = :to REMOVE #f',
      ConditionExpression: '#s = :to AND #f = :from',
      ExpressionAttributeNames: { '#s': s.count, '#f': RESHARD_FROM_ATTR, '#r': RESTORING_ATTR },
      ExpressionAttributeValues: { ':to': shards, ':from': from },
    }),
  );
  // Counters only the old layout had are empty now.
  const keep = new Set(s.counters(parentId, { shards, reshardFrom: null, moves: 0 }).map(itemKeyString));
  for (const key of s.counters(parentId, { shards, reshardFrom: from, moves: 0 })) {
    if (keep.has(itemKeyString(key)) || key.SK !== COUNTER_SK) continue;
    await store.doc
      .send(
        new DeleteCommand({
          TableName: store.tableName,
          Key: keys.key(key),
          ConditionExpression: '#c = :zero',
          ExpressionAttributeNames: { '#c': s.counter! },
          ExpressionAttributeValues: { ':zero': 0 },
        }),
      )
      .catch(() => {}); // not empty (a late writer): left for the next run to find
  }
}

/** Marks the parent as having its layout copies written (`reshardCopies`), on the condition that no reshard runs. */
async function startCopies(store: Store, s: Sharding, parentId: string, shards: number, stored: unknown) {
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: store.plan.keys.key(s.parentKey(parentId)),
      UpdateExpression: 'SET #r = :n',
      ConditionExpression: `attribute_exists(#pk) AND attribute_not_exists(#f) AND attribute_not_exists(#t) AND attribute_not_exists(#r) AND ${
        stored === undefined ? 'attribute_not_exists(#s)' : '#s = :was'
      }`,
      ExpressionAttributeNames: { '#pk': store.plan.keys.pk, '#s': s.count, '#f': RESHARD_FROM_ATTR, '#t': RESHARD_TO_ATTR, '#r': RESTORING_ATTR },
      ExpressionAttributeValues: { ':n': shards, ...(stored === undefined ? {} : { ':was': stored }) },
    }),
  );
}

/**
 * Step 8: the layout copies written back, then the parent item's marker
 * removed. While the marker is there no other reshard starts (its removal
 * of copies could otherwise race these writes).
 */
async function finishCopies(store: Store, s: Sharding, parentId: string, shards: number, options: ReshardOptions) {
  const restored = await restoreCopies(store, s, parentId, shards, options);
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: store.plan.keys.key(s.parentKey(parentId)),
      UpdateExpression: 'REMOVE #r',
      ConditionExpression: '#r = :n',
      ExpressionAttributeNames: { '#r': RESTORING_ATTR },
      ExpressionAttributeValues: { ':n': shards },
    }),
  );
  return restored;
}

/** Calls off a reshard that was prepared but never switched (the edges keep no layout copy: readers read the parent item). */
async function callOff(store: Store, s: Sharding, parentId: string, preparing: number) {
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: store.plan.keys.key(s.parentKey(parentId)),
      UpdateExpression: 'REMOVE #t',
      ConditionExpression: '#t = :to AND attribute_not_exists(#f)',
      ExpressionAttributeNames: { '#t': RESHARD_TO_ATTR, '#f': RESHARD_FROM_ATTR },
      ExpressionAttributeValues: { ':to': preparing },
    }),
  );
}
