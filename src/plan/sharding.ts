/**
 * Write sharding of a write-sharded relation (docs/sharding.md), bound to
 * its plan: where a parent's edges and counts live, as its stored item
 * says. Readers, writers and the resharder ask here instead of reading the
 * attributes. The *parent* owns the sharded (inverse) side; a *member* is
 * the node of one of its edges, whose id picks the shard
 * (k = fnv1a32(member id) mod N).
 *
 * The parent item holds `<count>` (the layout new edges are written in;
 * absent = 1) and, during a reshard, `reshardTo`, `reshardFrom`,
 * `reshardMoves` (odd while a batch moves) and `reshardCopies`. An edge's
 * copy of the count says where all the parent's edges are when it agrees
 * with the edge's own GSI1 pk. Invariant: the counter of a GSI1 partition
 * (the parent item's, or `<parent pk>#<k>`'s) equals its edges.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import {
  fnv1a32,
  itemKeyString,
  parseShardPartition,
  shardCountFrom,
  shardCounterKey,
  shardPartition,
  type ItemKey,
} from '../dynamo/keys.js';
import type { MergedCollection } from './sources.js';
import { invariant } from '../errors.js';
import type { RelationPlan } from './relationPlan.js';
import { GSI1_PK } from '../declaration/layout.js';

export const RESHARD_FROM_ATTR = 'reshardFrom';
export const RESHARD_MOVES_ATTR = 'reshardMoves';
export const RESHARD_TO_ATTR = 'reshardTo';
/** Present while a finished reshard writes its layout copies back onto the edges (no other reshard may start). */
export const RESTORING_ATTR = 'reshardCopies';

export interface ShardLayout {
  /** Shard count of new writes (1 = unsharded). */
  shards: number;
  /** Shard count edges are being moved from, while a reshard runs. */
  reshardFrom: number | null;
  /** The mover's batch counter (odd: a batch is in flight). */
  moves: number;
}

export const UNSHARDED: ShardLayout = { shards: 1, reshardFrom: null, moves: 0 };

export const isMoving = (layout: ShardLayout): boolean => layout.reshardFrom !== null;

/** The shard counts whose partitions hold edges now (one, or two while moving). */
export const layoutsOf = (layout: ShardLayout): number[] =>
  layout.reshardFrom === null || layout.reshardFrom === layout.shards ? [layout.shards] : [layout.reshardFrom, layout.shards];

export const shardOf = (memberId: string, shards: number): number => (shards <= 1 ? 0 : fnv1a32(memberId) % shards);

export interface Sharding {
  /** The inverse @edges side that is sharded (owner: the parent). */
  relation: RelationPlan;
  /** The parent's shard count attribute, its largest value, the edge attribute copying it. */
  count: string;
  max: number;
  copy: string | null;
  /** The count attribute of the parent item and of its counter items. */
  counter: string | null;
  parentKey(parentId: string): ItemKey;
  parentPk(parentId: string): string;
  /** The layout a stored parent item (or null) declares. */
  layoutOf(parent: Item | null | undefined): ShardLayout;
  /** The shard count an edge may copy from the parent as read, or null while a reshard prepares or moves. */
  layoutToCopy(parent: Item | null | undefined): number | null;
  /** The layout an edge's copy gives, or undefined when it has none consistent with its own partition. */
  edgeLayout(edge: Item): ShardLayout | undefined;
  /** The parent's and the member's ids in an edge's keys, or null when it is no edge of this relation. */
  ids(edge: Item): { parentId: string; memberId: string } | null;
  /** GSI1 pk of a member's edge into a parent of `shards` shards. */
  partition(parentId: string, memberId: string, shards: number): string;
  /** Every GSI1 partition of a parent of `shards` shards, shard 0 first. */
  shardPartitions(parentId: string, shards: number): string[];
  /** Every partition that may hold an edge of the parent in `layout`, each once. */
  partitions(parentId: string, layout: ShardLayout): string[];
  /** The collection of one GSI1 partition of the parent. */
  partitionCollection(parentId: string, partition: string): Collection;
  /** The parent's connection over every partition of `layout`, merged by member. */
  merged(parentId: string, layout: ShardLayout): MergedCollection;
  counterKey(parentId: string, k: number): ItemKey;
  /** Every item holding part of the parent's count in `layout` (the parent item when unsharded), each once. */
  counters(parentId: string, layout: ShardLayout): ItemKey[];
  /** The item counting the edges of GSI1 partition `partition`: its counter item, or the parent item. */
  partitionCounterKey(parentId: string, partition: unknown): ItemKey;
  /** The shard index of `partition` of the parent, or null when it is the unsharded partition (or foreign). */
  shardIndex(parentId: string, partition: unknown): number | null;
}

/** The sharding of a write-sharded relation plan (compilePlan makes one per relation: read it with `plan.sharding`). */
export function compileSharding(relation: RelationPlan): Sharding {
  const r = relation.relation;
  invariant(r.kind === 'edges' && r.sharded !== null && r.direction === 'inverted', `${relation.path} is not a write-sharded inverse side`);
  const { count, max, copy } = r.sharded;
  const owner = relation.owner;
  const member = relation.node;
  const parentPk = (id: string) => owner.type.pk.fill({ id });
  const layoutOf = (parent: Item | null | undefined): ShardLayout => {
    const from = parent?.[RESHARD_FROM_ATTR];
    const moves = parent?.[RESHARD_MOVES_ATTR];
    return {
      shards: shardCountFrom(parent?.[count], max),
      reshardFrom: from === undefined || from === null ? null : shardCountFrom(from, max),
      moves: typeof moves === 'number' ? moves : 0,
    };
  };
  const { pk: pkAttr, sk: skAttr } = relation.keys;
  const ids = (edge: Item) => {
    const p = owner.type.pk.match(edge[skAttr]);
    const m = member.type.pk.match(edge[pkAttr]);
    return p?.id !== undefined && m?.id !== undefined ? { parentId: p.id, memberId: m.id } : null;
  };
  const partition = (parentId: string, memberId: string, shards: number) =>
    shardPartition(parentPk(parentId), shardOf(memberId, shards), shards);
  const shardPartitions = (parentId: string, shards: number) =>
    Array.from({ length: Math.max(1, shards) }, (_, k) => shardPartition(parentPk(parentId), k, shards));
  const partitions = (parentId: string, layout: ShardLayout) => [
    ...new Set(layoutsOf(layout).flatMap((n) => shardPartitions(parentId, n))),
  ];
  const partitionCollection = (parentId: string, pk: string): Collection => ({ ...relation.collection(parentId), pk });
  const counterKey = (parentId: string, k: number) => shardCounterKey(parentPk(parentId), k);
  const shardIndex = (parentId: string, value: unknown) => parseShardPartition(parentPk(parentId), value, max);
  const sharding: Sharding = {
    relation,
    count,
    max,
    copy,
    counter: relation.counter,
    parentKey: (id) => owner.key(id),
    parentPk,
    layoutOf,
    layoutToCopy: (parent) => {
      if (!parent || parent[RESHARD_TO_ATTR] !== undefined || parent[RESHARD_FROM_ATTR] !== undefined) return null;
      return shardCountFrom(parent[count], max);
    },
    edgeLayout: (edge) => {
      if (copy === null) return undefined;
      const n = edge[copy];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) return undefined;
      const found = ids(edge);
      if (found === null || edge[GSI1_PK] !== partition(found.parentId, found.memberId, n)) return undefined;
      return { shards: n, reshardFrom: null, moves: 0 };
    },
    ids,
    partition,
    shardPartitions,
    partitions,
    partitionCollection,
    merged: (parentId, layout) => ({
      name: relation.path,
      group: parentPk(parentId),
      shards: partitions(parentId, layout).map((pk) => partitionCollection(parentId, pk)),
    }),
    counterKey,
    counters: (parentId, layout) => {
      const seen = new Map<string, ItemKey>();
      for (const n of layoutsOf(layout)) {
        const keys = n <= 1 ? [owner.key(parentId)] : Array.from({ length: n }, (_, k) => counterKey(parentId, k));
        for (const key of keys) seen.set(itemKeyString(key), key);
      }
      return [...seen.values()];
    },
    partitionCounterKey: (parentId, value) => {
      const k = shardIndex(parentId, value);
      return k === null ? owner.key(parentId) : counterKey(parentId, k);
    },
    shardIndex,
  };
  return sharding;
}
