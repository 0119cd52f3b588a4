/**
 * What a partition holds. A partition is the table or an index and one
 * partition-key value; its *shape* is a pk template with its placeholders
 * blanked (`REPO#{}#{}`), so two types whose pk templates differ only in
 * placeholder names (`REPO#{owner}#{name}`, `REPO#{repoOwner}#{repoName}`)
 * share every partition one of them names. The *residents* of a shape are
 * every kind of item whose key there has that shape: item types (their
 * table key, an `@indexed` placement of one partition and one sort
 * attribute, an inverted type's GSI1 keys) and edge items (in their
 * owner's partition, their own, or GSI1). Compiled from the declaration;
 * the partition check, collections and the look-ahead read it.
 */
import type { ItemType, Layout, Relation } from './model.js';
import type { KeyTemplate } from './template.js';
import { inverseSideOf, writesGsi1Keys } from './edgeLayout.js';
import { GSI1_PK, GSI1_SK } from './layout.js';

/** One kind of item in a partition shape, with its key there. */
export interface Resident {
  /** For messages: `Issue items (sk "ISSUE#{id}")`. */
  what: string;
  /** The type or the edges' connection (`Repo.stars`): what a problem names. */
  name: string;
  /** The item type of items of a type (in the table, GSI1 or an index); null for edge items. */
  type: ItemType | null;
  /** True for a type's items in the table itself (the partition check's `{id}` beside `Join:{id}` exception). */
  inTable: boolean;
  pkAttr: string;
  skAttr: string;
  pk: KeyTemplate;
  sk: KeyTemplate;
}

/** The residents of one index (null: the table), by partition shape. */
export type IndexPartitions = Map<string, Resident[]>;

/** Does a partition hold one item of this kind at most? Its sort key names nothing its partition key does not (`META`, `FRIENDS#{id}` under `{id}`). */
export const singular = (r: Pick<Resident, 'pk' | 'sk'>): boolean => r.sk.placeholders.every((p) => r.pk.placeholders.includes(p));

/** A template with its placeholders blanked: the partitions it can name. */
export const shapeOf = (t: KeyTemplate): string => t.parts.map((p) => ('literal' in p ? p.literal : '{}')).join('');

/** Where the residents of the table (null) and of each index are, index by index. */
export function residentsOf(
  items: ReadonlyMap<string, ItemType>,
  relations: ReadonlyMap<string, Relation>,
  layout: Pick<Layout, 'pk' | 'sk'>,
): Map<string | null, IndexPartitions> {
  const all = new Map<string | null, IndexPartitions>();
  const add = (index: string | null, r: Resident) => {
    if (!all.has(index)) all.set(index, new Map());
    const partitions = all.get(index)!;
    const shape = shapeOf(r.pk);
    partitions.set(shape, [...(partitions.get(shape) ?? []), r]);
  };
  const tablePk = layout.pk;
  const tableSk = layout.sk ?? 'SK';
  const gsi1 = (what: string, name: string, type: ItemType | null, pk: KeyTemplate, sk: KeyTemplate) =>
    add('GSI1', { what, name, type, inTable: false, pkAttr: GSI1_PK, skAttr: GSI1_SK, pk, sk });
  for (const item of items.values()) {
    add(null, { what: `${item.name} items (sk "${item.sk.source}")`, name: item.name, type: item, inTable: true, pkAttr: tablePk, skAttr: tableSk, pk: item.pk, sk: item.sk });
    if (item.inverted) gsi1(`${item.name} items inverted (${GSI1_SK} "${item.pk.source}")`, item.name, item, item.sk, item.pk);
    for (const p of item.indexed) {
      // A key of several attributes names its partition by all of them: not compared here.
      if (p.pk.length !== 1 || p.sk.length !== 1) continue;
      const [pk, sk] = [p.pk[0]!, p.sk[0]!];
      add(p.index, { what: `${item.name} items in ${p.index} (${sk.attribute} "${sk.template.source}")`, name: item.name, type: item, inTable: false, pkAttr: pk.attribute, skAttr: sk.attribute, pk: pk.template, sk: sk.template });
    }
  }
  for (const r of relations.values()) {
    if (r.kind !== 'edges') continue;
    const edges = (what: string, pk: KeyTemplate, sk: KeyTemplate) =>
      add(null, { what, name: r.path, type: null, inTable: false, pkAttr: tablePk, skAttr: tableSk, pk, sk });
    // Edges with a key of their own (a base side's, or a mirror's) are in the partition it names.
    if (r.key !== null) {
      edges(`${r.path} edges (sk "${r.key.sk.source}")`, r.key.pk, r.key.sk);
      if (r.direction === 'base' && writesGsi1Keys(r, inverseSideOf(r, relations))) gsi1(`${r.path} edges in GSI1 (${GSI1_SK} "${r.key.pk.source}")`, r.path, null, r.key.sk, r.key.pk);
      continue;
    }
    if (r.direction !== 'base') continue;
    const owner = items.get(r.owner);
    const node = items.get(r.node);
    if (!owner || !node) continue;
    edges(`${r.path} edges (sk "${node.pk.source}")`, owner.pk, node.pk);
    if (writesGsi1Keys(r, inverseSideOf(r, relations))) gsi1(`${r.path} edges in GSI1 (${GSI1_SK} "${owner.pk.source}")`, r.path, null, node.pk, owner.pk);
  }
  return all;
}

/** Below every key value and above every one DynamoDB stores in practice (dynamo/collection.ts KEY_MIN, KEY_MAX). */
const KEY_MIN = '\u0000';
const KEY_MAX = '\u{10FFFF}';

/** The smallest text after every text that starts with `prefix` (dynamo/collection.ts prefixEnd, for the start-up checks). */
function afterPrefix(prefix: string): string {
  if (prefix === '') return KEY_MAX;
  const points = [...prefix];
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return KEY_MAX;
}

/** The sort keys a template can write, as a half-open range [lo, hi) in DynamoDB's order: its literal prefix's, or its one literal. */
export interface KeyInterval {
  lo: string;
  hi: string;
}

export function intervalOf(sk: KeyTemplate): KeyInterval {
  // A literal key is one value: the next text after it is the value and U+0000.
  if (sk.placeholders.length === 0) return { lo: sk.prefix, hi: `${sk.prefix}\u0000` };
  return prefixInterval(sk.prefix);
}

/** Every key that starts with `prefix`. */
export const prefixInterval = (prefix: string): KeyInterval => ({ lo: prefix === '' ? KEY_MIN : prefix, hi: afterPrefix(prefix) });

export const intersects = (a: KeyInterval, b: KeyInterval): boolean => a.lo < b.hi && b.lo < a.hi;

/** The residents of the partition shape of `pk` in `index` (null: the table). */
export function residentsBeside(partitions: ReadonlyMap<string | null, IndexPartitions>, index: string | null, pk: KeyTemplate): readonly Resident[] {
  return partitions.get(index)?.get(shapeOf(pk)) ?? [];
}
