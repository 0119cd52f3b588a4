/**
 * @addEdge / @removeEdge: the edge item of an @edges relation and both counters
 * in one TransactWriteItems, so no reader ever sees an edge without its
 * counts or a count without its edge. The edge is keyed as its relation's
 * EdgePair says (writePlan.ts: GSI1 keys where an inverse side reads them,
 * a mirror item for a mirrored pair; a keyless end has no item to read,
 * check or count), and carries its @createdAt and other edge attributes,
 * the copies both sides declare with their versions, and a sharded node's
 * shard count unless a reshard is under way.
 *
 * link reads both ends first (one BatchGet; a child end is found by its
 * id through GSI1 first), then transacts on the
 * condition that what it read still holds: copied values and versions
 * unchanged (a racing rename cannot leave a stale copy), neither end being
 * deleted (a cascade cannot miss the edge), each counter present or absent
 * as read. Only those failing: read again and retry; the edge's own
 * condition failing: CONFLICT. On a write-sharded node the count moves in
 * the edge's shard counter, never on the node item (docs/sharding.md).
 * The first read is eventually consistent (the conditions catch what it
 * missed); an end read as absent is read again consistently before NOT_FOUND.
 * Edge fields and an edge id that a key holds go into that key, not its
 * attributes; an unlink takes them to find the edge.
 */
import { batchGet, type Item } from '../dynamo/batchGet.js';
import { badUserInput, conflict, notFound } from '../errors.js';
import { keyText } from '../plan/itemPlan.js';
import { validateId } from '../connections/args.js';
import { isMoving, UNSHARDED } from '../plan/sharding.js';
import { absent, conditionCheck, counterAfter, counterOrCheck, DELETING_ATTR, exists, unchanged, type Condition } from './conditions.js';
import { attributeValue } from './input.js';
import { idOrNew } from './ids.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import { getItem, planOf, readsOf, type Store } from './store.js';
import { findInverted } from './create.js';
import type { ItemKey } from '../dynamo/keys.js';
import { tryTransact, type TransactItem } from './transact.js';
import { gone } from './update.js';
import { versionAttr, writePlanOf, type EdgePair } from './writePlan.js';
import { GSI1_PK, GSI1_SK } from '../declaration/layout.js';

/** How the messages name a link: `<Owner> <id> is <phrase> <node> <id>` (phrase default "linked to"). */
export interface LinkWording {
  phrase: string | null;
}

/** A keyless end as read: it has no item, so it always "exists" and carries nothing. */
const KEYLESS: Item = Object.freeze({});

/**
 * An end's key: a top-level type's from its template; a child type's
 * (inverted: the model check requires it) found by its id alone with one
 * Query of GSI1, null when there is none.
 */
async function endKey(store: Store, end: EdgePair['owner'], id: string): Promise<ItemKey | null> {
  if (!end.type.parent) return end.key(id);
  const found = await findInverted(store, end.name, id);
  return found === null ? null : end.key(id, found.parentId);
}

/**
 * Both ends' items and keys (one BatchGet; a keyless end is not read, and
 * with two keyless ends nothing is; a child end is found first). A child
 * end not found reads as absent, under its id alone as a stand-in key.
 */
async function readBoth(store: Store, pair: EdgePair, ownerId: string, nodeId: string, consistentRead = true) {
  const [ownerKey, nodeKey] = await Promise.all([
    pair.ownerKeyless ? null : endKey(store, pair.owner, ownerId),
    pair.nodeKeyless ? null : endKey(store, pair.node, nodeId),
  ]);
  const keys = [...(ownerKey ? [ownerKey] : []), ...(nodeKey ? [nodeKey] : [])];
  const read = keys.length === 0 ? [] : await batchGet(readsOf(store), store.tableName, store.plan.keys, keys, { consistentRead });
  const owner = pair.ownerKeyless ? KEYLESS : ownerKey ? read.shift()! : null;
  const node = pair.nodeKeyless ? KEYLESS : nodeKey ? read.shift()! : null;
  return { owner, node, ownerKey: ownerKey ?? { PK: ownerId, SK: ownerId }, nodeKey: nodeKey ?? { PK: nodeId, SK: nodeId } };
}

/** A transaction's check or counter change on an end's item: none for a keyless end. */
const onEnd = (keyless: boolean, item: () => TransactItem): TransactItem[] => (keyless ? [] : [item()]);

/** `item` without the attributes of the edge fields a key holds (read back from that key instead). */
function withoutHeld(item: Item, pair: EdgePair, held: ReadonlySet<string>): Item {
  if (held.size === 0) return item;
  const out = { ...item };
  for (const a of pair.edgeAttributes) if (held.has(a.name)) delete out[a.storedAs];
  return out;
}

/**
 * The edge fields and own id the pair's keys hold, from the arguments of
 * an unlink (the same rules as link's: a DateTime given in any ISO form
 * finds the edge written with it).
 */
function keyValuesFrom(pair: EdgePair, args: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of pair.keyFields) {
    if (name === 'id' && pair.ownId) {
      values.id = validateId(args.id as string, 'id');
      continue;
    }
    const a = pair.edgeAttributes.find((x) => x.name === name)!;
    values[name] = keyText(a, attributeValue({ ...a, required: true }, args[name], name), name);
  }
  return values;
}

/**
 * The transact item changing the node's count of the GSI1 partition
 * `partition` by `delta`: the node item's counter for the unsharded
 * partition (with `also` conditions on the node), else that shard's
 * counter item, which must exist unless `maintained` is false (a table
 * whose counters another program does not keep: left alone, counted on
 * read).
 */
function partitionCounterChange(
  store: Store,
  pair: EdgePair,
  { nodeId, nodeKey, node, partition, delta, maintained, also = [] }: { nodeId: string; nodeKey: ItemKey; node: Item | null; partition: string; delta: number; maintained: boolean; also?: Condition[] },
): TransactItem {
  const sharding = pair.sharding;
  const k = sharding ? sharding.shardIndex(nodeId, partition) : null;
  if (!sharding || k === null || pair.nodeCounter === null) {
    return counterOrCheck(store.tableName, store.plan.keys, { key: nodeKey, seen: node, counter: pair.nodeCounter, delta, also });
  }
  const key = sharding.counterKey(nodeId, k);
  if (!maintained) return conditionCheck(store.tableName, store.plan.keys, key, absent(pair.nodeCounter));
  const c = exists(pair.nodeCounter);
  return {
    Update: {
      TableName: store.tableName,
      Key: store.plan.keys.key(key),
      UpdateExpression: 'ADD #counter :delta',
      ConditionExpression: c.expression,
      ExpressionAttributeNames: { ...c.names, '#counter': pair.nodeCounter },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

/** Is the counter item of a shard partition maintained (it exists with a count)? */
async function counterMaintained(store: Store, pair: EdgePair, nodeId: string, partition: string): Promise<boolean> {
  const k = pair.sharding?.shardIndex(nodeId, partition) ?? null;
  if (k === null || pair.nodeCounter === null) return true;
  const item = await getItem(store, pair.sharding!.counterKey(nodeId, k));
  return typeof item?.[pair.nodeCounter] === 'number';
}

function missing(pair: EdgePair, ownerId: string, nodeId: string, owner: Item | null, node: Item | null) {
  const names = [gone(owner) ? `${pair.owner.name} ${ownerId}` : null, gone(node) ? `${pair.node.name} ${nodeId}` : null];
  return notFound(`${names.filter(Boolean).join(' and ')} not found`);
}

const wording = (pair: EdgePair, ownerId: string, nodeId: string, state: string, w: LinkWording) =>
  `${pair.owner.name} ${ownerId} is ${state} ${w.phrase ?? 'linked to'} ${pair.node.name.toLowerCase()} ${nodeId}`;

/** Conditions that what was copied from `item` is still what it holds, and that it is not being deleted. */
const copiedUnchanged = (item: Item, copies: EdgePair['ownerCopies']): Condition[] => [
  ...copies.flatMap((c) => [unchanged(c.from, item[c.from]), unchanged(versionAttr(c.from), item[versionAttr(c.from)])]),
  absent(DELETING_ATTR),
];

/** The edge's copies of `item`'s fields, with the versions they were taken at (absent values are left out). */
function copiesOf(item: Item, copies: EdgePair['ownerCopies']): Item {
  const out: Item = {};
  for (const c of copies) {
    if (item[c.from] !== undefined) out[c.attribute] = item[c.from];
    const version = item[versionAttr(c.from)];
    if (typeof version === 'number') out[versionAttr(c.attribute)] = version;
  }
  return out;
}

/**
 * An item linked to itself would be checked and counted twice in one
 * transaction, which DynamoDB refuses: a caller's mistake, refused before
 * any request (a keyless end has nothing to check).
 */
function refuseSelfLink(pair: EdgePair, ownerId: string, nodeId: string, ids: { from: string; to: string }): void {
  if (pair.owner.name !== pair.node.name || ownerId !== nodeId || pair.ownerKeyless) return;
  throw badUserInput(`${pair.owner.name} ${ownerId} cannot be linked to itself (${ids.from} and ${ids.to} are the same)`, ids.to);
}

/** What link wrote: the edge item, and the owner and node items as they now are. */
export interface Linked {
  edge: Item;
  owner: Item;
  node: Item;
}

/**
 * Adds the edge of the relation `path` between `ownerId` and `nodeId`;
 * `args` are the link's other arguments (edge attributes of the same name).
 */
export async function link(
  store: Store,
  path: string,
  ownerId: string,
  nodeId: string,
  ids: { from: string; to: string },
  args: Record<string, unknown> = {},
  w: LinkWording = { phrase: null },
): Promise<Linked> {
  const pair = writePlanOf(planOf(store)).pair(path);
  pair.owner.checkId(ownerId, ids.from);
  pair.node.checkId(nodeId, ids.to);
  refuseSelfLink(pair, ownerId, nodeId, ids);
  const given: Item = {};
  // An edge of its own: its id, given or generated (time-ordered, as an item's).
  const edgeId = pair.ownId ? idOrNew(args.id as string | null | undefined, 'id') : null;
  for (const a of pair.edgeAttributes) {
    if (a.createdAt || !(a.name in args) || (a.name === 'id' && pair.ownId)) continue;
    const value = attributeValue(a, args[a.name], a.name);
    if (value !== null) given[a.storedAs] = pair.keyFields.includes(a.name) ? keyText(a, value, a.name) : value;
  }
  let maintained = true;
  return untilFresh(store, async (round) => {
    const consistent = round > 1;
    const { owner, node, ownerKey, nodeKey } = await readBoth(store, pair, ownerId, nodeId, consistent);
    if (owner === null || node === null || gone(owner) || gone(node)) {
      if (!consistent) return READ_AGAIN; // maybe only not visible yet: read consistently before NOT_FOUND
      throw missing(pair, ownerId, nodeId, owner, node);
    }
    const sharding = pair.sharding;
    const { shards } = sharding ? sharding.layoutOf(node) : UNSHARDED;
    const now = new Date().toISOString();
    const attributes: Item = {
      ...Object.fromEntries(pair.edgeAttributes.filter((a) => a.createdAt).map((a) => [a.storedAs, now])),
      ...given,
      ...(edgeId === null ? {} : { [pair.edgeAttributes.find((a) => a.name === 'id')?.storedAs ?? 'id']: edgeId }),
    };
    const values = Object.fromEntries(pair.keyFields.map((name) => [name, String(attributes[pair.edgeAttributes.find((a) => a.name === name)!.storedAs])]));
    const edgeKey = pair.edgeKey(ownerId, nodeId, values);
    const mirrorKey = pair.mirrorKey(ownerId, nodeId, values);
    const keys = store.plan.keys;
    const edge: Item = {
      ...keys.key(edgeKey),
      // GSI1 keys where an inverse side reads them there (GSI1 pk = SK, or the node's shard partition).
      ...(pair.gsi1 ? { [GSI1_PK]: sharding ? sharding.partition(nodeId, ownerId, shards) : edgeKey.SK, [GSI1_SK]: edgeKey.PK } : {}),
      ...withoutHeld(attributes, pair, pair.baseHeld),
      ...copiesOf(node, pair.nodeCopies),
      ...copiesOf(owner, pair.ownerCopies),
    };
    // A mirror holds the same fields, each in its key or as an attribute (a mirrored pair keeps no copies).
    const mirror = mirrorKey === null ? null : { ...keys.key(mirrorKey), ...withoutHeld(attributes, pair, pair.mirrorHeld) };
    // The layout's copy, unless a reshard is preparing or moving edges (plan/sharding.ts).
    if (sharding?.copy && sharding.layoutToCopy(node) !== null) edge[sharding.copy] = shards;
    // Unsharded: the node item's counter, conditioned on the node as read. Sharded: the owner's
    // counter shard only; the node item stays out of the transaction.
    const nodeConditions = shards === 1 ? copiedUnchanged(node, pair.nodeCopies) : [];
    // The edge first, then the owner's and the node's checks or counters (none for a keyless end), then a mirror.
    const ownerAt = 1;
    const nodeAt = ownerAt + (pair.ownerKeyless ? 0 : 1);
    const cancelled = await tryTransact(store, [
      { Put: { TableName: store.tableName, Item: edge, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: keys.pkName } },
      ...onEnd(pair.ownerKeyless, () => counterOrCheck(store.tableName, keys, { key: ownerKey, seen: owner, counter: pair.ownerCounter, delta: 1, also: copiedUnchanged(owner, pair.ownerCopies) })),
      ...onEnd(pair.nodeKeyless, () => partitionCounterChange(store, pair, { nodeId, nodeKey, node, partition: String(edge[GSI1_PK] ?? edgeKey.SK), delta: 1, maintained, also: nodeConditions })),
      // A mirror whose key is one per pair (no edge field or id in it) finds the pair linked already.
      ...(mirror ? [{ Put: { TableName: store.tableName, Item: mirror, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: keys.pkName } }] : []),
    ]);
    if (cancelled === null) {
      const counted =
        shards === 1 && pair.nodeCounter !== null ? { ...node, [pair.nodeCounter]: counterAfter(node, pair.nodeCounter, 1) } : node;
      const ownerCounted =
        pair.ownerCounter !== null ? { ...owner, [pair.ownerCounter]: counterAfter(owner, pair.ownerCounter, 1) } : owner;
      return { edge, owner: ownerCounted, node: counted };
    }
    // An item changed since it was read (renamed, deleted, counter added or removed): read again.
    if (!pair.ownerKeyless && cancelled.failed(ownerAt)) return READ_AGAIN;
    if (!pair.nodeKeyless && cancelled.failed(nodeAt)) {
      if (shards > 1) maintained = await counterMaintained(store, pair, nodeId, String(edge[GSI1_PK]));
      return READ_AGAIN;
    }
    if (cancelled.failed(0) || (mirror !== null && cancelled.failed(nodeAt + (pair.nodeKeyless ? 0 : 1)))) {
      throw conflict(edgeId !== null && cancelled.failed(0) ? `an edge ${edgeId} of ${pair.base.path} exists already` : wording(pair, ownerId, nodeId, 'already', w));
    }
    throw cancelled;
  });
}

/**
 * Deletes the edge (it must exist: NOT_FOUND otherwise) and decrements both
 * counters where they exist. An edge whose item is already gone (left by a
 * crashed cascade) is removed too.
 */
export async function unlink(
  store: Store,
  path: string,
  ownerId: string,
  nodeId: string,
  ids: { from: string; to: string },
  w: LinkWording = { phrase: null },
  keyArgs: Record<string, unknown> = {},
): Promise<boolean> {
  const pair = writePlanOf(planOf(store)).pair(path);
  pair.owner.checkId(ownerId, ids.from);
  pair.node.checkId(nodeId, ids.to);
  const values = keyValuesFrom(pair, keyArgs);
  const edgeKey = pair.edgeKey(ownerId, nodeId, values);
  const mirrorKey = pair.mirrorKey(ownerId, nodeId, values);
  const sharding = pair.sharding;
  const keys = store.plan.keys;
  // Where the edge is indexed: where the node's layout puts it, unless it was found elsewhere
  // (a reshard moving it, or a writer of the previous layout).
  let found: string | null = null;
  let maintained = true;
  return untilFresh(store, async () => {
    const { owner, node, ownerKey, nodeKey } = await readBoth(store, pair, ownerId, nodeId);
    const layout = sharding ? sharding.layoutOf(node) : UNSHARDED;
    const partition = found ?? (sharding ? sharding.partition(nodeId, ownerId, layout.shards) : edgeKey.SK);
    const unsharded = found === null && layout.shards === 1 && !isMoving(layout);
    const ownerAt = 1;
    const nodeAt = ownerAt + (pair.ownerKeyless ? 0 : 1);
    const cancelled = await tryTransact(store, [
      {
        Delete: {
          TableName: store.tableName,
          Key: keys.key(edgeKey),
          ExpressionAttributeNames: keys.pkName,
          // The count to change is the one of the partition the edge is indexed under.
          ...(unsharded
            ? { ConditionExpression: 'attribute_exists(#pk)' }
            : { ConditionExpression: `attribute_exists(#pk) AND ${GSI1_PK} = :p`, ExpressionAttributeValues: { ':p': partition } }),
        },
      },
      ...onEnd(pair.ownerKeyless, () => counterOrCheck(store.tableName, keys, { key: ownerKey, seen: owner, counter: pair.ownerCounter, delta: -1 })),
      ...onEnd(pair.nodeKeyless, () => partitionCounterChange(store, pair, { nodeId, nodeKey, node, partition, delta: -1, maintained })),
      // A mirrored pair goes together; the edge's own condition decides whether there was one.
      ...(mirrorKey ? [{ Delete: { TableName: store.tableName, Key: keys.key(mirrorKey) } }] : []),
    ]);
    if (cancelled === null) return true;
    if (!pair.ownerKeyless && cancelled.failed(ownerAt)) return READ_AGAIN;
    if (!pair.nodeKeyless && cancelled.failed(nodeAt)) {
      maintained = await counterMaintained(store, pair, nodeId, partition);
      return READ_AGAIN;
    }
    if (cancelled.failed(0)) {
      const edge = unsharded ? null : await getItem(store, edgeKey);
      if (edge && typeof edge[GSI1_PK] === 'string' && edge[GSI1_PK] !== partition) {
        found = edge[GSI1_PK];
        return READ_AGAIN;
      }
      if (owner === null || node === null) throw missing(pair, ownerId, nodeId, owner, node);
      if (pair.keyFields.length > 0) throw notFound(`${pair.owner.name} ${ownerId} has no such edge to ${pair.node.name.toLowerCase()} ${nodeId} (${Object.entries(values).map(([k, v]) => `${k} ${v}`).join(', ')})`);
      throw notFound(wording(pair, ownerId, nodeId, 'not', w));
    }
    throw cancelled;
  });
}
