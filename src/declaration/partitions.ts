/**
 * Phase 6: what shares a partition must be told apart by its sort key.
 *
 * In the base table a partition (a pk template, placeholders aside) holds
 * the items of every type with that pk, and the edge items of @edges fields
 * of those types (SK = the node's PK). In GSI1 a partition holds inverted
 * items (GSI1PK = their SK) and edge items (GSI1PK = the node's PK). Two
 * members whose sort-key prefixes overlap (one begins with the other)
 * would be read by each other's begins_with: the model is refused, unless
 * one is a type in the table whose sort key is a placeholder alone (`{id}`)
 * and the other a type with a literal prefix (`Join:{id}`): the first then
 * reads past the other's items and refuses keys with its prefix.
 */
import type { ItemType, Relation } from './model.js';
import type { Problems } from './problems.js';
import { prefixesOverlap, type KeyTemplate } from './template.js';
import { inverseSideOf, writesGsi1Keys } from './edgeLayout.js';

interface Member {
  what: string;
  /** The literal sort-key prefix, and whether it is the whole sort key (no placeholder). */
  prefix: string;
  exact: boolean;
  /** The item type, for the items of a type in the table. */
  item?: ItemType;
}

/** A type in the table whose sort key is one placeholder alone (`{id}`). */
const bare = (m: Member) => m.item !== undefined && m.item.sk.parts.length === 1 && !m.exact;

/** A template with its placeholders blanked: the partitions it can name. */
const shape = (t: KeyTemplate) => t.parts.map((p) => ('literal' in p ? p.literal : '{}')).join('');
const member = (what: string, sk: KeyTemplate): Member => ({ what, prefix: sk.prefix, exact: sk.placeholders.length === 0 });

function overlaps(a: Member, b: Member): boolean {
  if (a.exact && b.exact) return a.prefix === b.prefix;
  if (a.exact) return a.prefix.startsWith(b.prefix);
  if (b.exact) return b.prefix.startsWith(a.prefix);
  return prefixesOverlap(a.prefix, b.prefix);
}

export function checkPartitions(items: ReadonlyMap<string, ItemType>, relations: ReadonlyMap<string, Relation>, problems: Problems): void {
  const base = new Map<string, Member[]>();
  const gsi1 = new Map<string, Member[]>();
  const add = (map: Map<string, Member[]>, partition: string, m: Member) => map.set(partition, [...(map.get(partition) ?? []), m]);
  for (const item of items.values()) {
    add(base, shape(item.pk), { ...member(`${item.name} items (sk "${item.sk.source}")`, item.sk), item });
    if (item.inverted) add(gsi1, shape(item.sk), member(`${item.name} items inverted (GSI1SK "${item.pk.source}")`, item.pk));
  }
  for (const r of relations.values()) {
    if (r.kind !== 'edges') continue;
    // Edges with a key of their own (a base side's, or a mirror's) are in the partition it names.
    if (r.key !== null) {
      add(base, shape(r.key.pk), member(`${r.path} edges (sk "${r.key.sk.source}")`, r.key.sk));
      if (r.direction === 'base' && writesGsi1Keys(r, inverseSideOf(r, relations))) add(gsi1, shape(r.key.sk), member(`${r.path} edges in GSI1 (GSI1SK "${r.key.pk.source}")`, r.key.pk));
      continue;
    }
    if (r.direction !== 'base') continue;
    const owner = items.get(r.owner);
    const node = items.get(r.node);
    if (!owner || !node) continue;
    add(base, shape(owner.pk), member(`${r.path} edges (sk "${node.pk.source}")`, node.pk));
    if (writesGsi1Keys(r, inverseSideOf(r, relations))) add(gsi1, shape(node.pk), member(`${r.path} edges in GSI1 (GSI1SK "${owner.pk.source}")`, owner.pk));
  }
  // Items in declared indexes (@indexed): one partition attribute and one sort attribute.
  const declared = new Map<string, Map<string, Member[]>>();
  for (const item of items.values()) {
    for (const p of item.indexed) {
      if (p.pk.length !== 1 || p.sk.length !== 1) continue;
      if (!declared.has(p.index)) declared.set(p.index, new Map());
      add(declared.get(p.index)!, shape(p.pk[0]!.template), member(`${item.name} items in ${p.index} (${p.sk[0]!.attribute} "${p.sk[0]!.template.source}")`, p.sk[0]!.template));
    }
  }
  const all: [string, Map<string, Member[]>][] = [['the table', base], ['GSI1', gsi1], ...[...declared].map(([name, map]) => [name, map] as [string, Map<string, Member[]>])];
  for (const [index, map] of all) {
    for (const [partition, members] of map) {
      for (let i = 0; i < members.length; i++) {
        for (let j = i + 1; j < members.length; j++) {
          if (!overlaps(members[i], members[j])) continue;
          // A bare sort key beside another type's literal prefix: it reads past their items, and its keys may not take that prefix.
          const [a, b] = [members[i]!, members[j]!];
          const [open, other] = bare(a) && b.item && b.prefix !== '' ? [a, b] : bare(b) && a.item && a.prefix !== '' ? [b, a] : [null, null];
          if (open && other) {
            open.item!.skExcludes = [...new Set([...(open.item!.skExcludes ?? []), other.prefix])];
            continue;
          }
          problems.add(
            members[j].what.split(' ')[0],
            `its sort-key prefix "${members[j].prefix}" overlaps "${members[i].prefix}" of ${members[i].what} in the partition "${partition}" of ${index}: a read of one would return the other`,
          );
        }
      }
    }
  }
}
