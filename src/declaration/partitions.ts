/**
 * Phase 6: what shares a partition must be told apart by its sort key.
 *
 * A partition shape (residents.ts) holds, in the table, the items of every
 * type with that pk and the edge items of @edges fields of those types
 * (SK = the node's PK, or their own key); in GSI1, inverted items (GSI1 pk =
 * their SK) and edge items (GSI1 pk = the node's PK); in a declared index,
 * the @indexed items. Two residents whose sort-key prefixes overlap (one
 * begins with the other) would be read by each other's begins_with, and an
 * item of one could be taken for the other's: the model is refused, naming
 * both, unless one is a type in the table whose sort key is a placeholder
 * alone (`{id}`) and the other a type with a literal prefix (`Join:{id}`):
 * the first then reads past the other's items and refuses keys with its
 * prefix.
 */
import type { ItemType, Layout, Relation } from './model.js';
import type { Problems } from './problems.js';
import { prefixesOverlap } from './template.js';
import { residentsOf, type Resident } from './residents.js';

/** A type in the table whose sort key is one placeholder alone (`{id}`). */
const bare = (m: Resident) => m.inTable && m.sk.parts.length === 1 && m.sk.placeholders.length === 1;
const exact = (m: Resident) => m.sk.placeholders.length === 0;

function overlaps(a: Resident, b: Resident): boolean {
  if (exact(a) && exact(b)) return a.sk.prefix === b.sk.prefix;
  if (exact(a)) return a.sk.prefix.startsWith(b.sk.prefix);
  if (exact(b)) return b.sk.prefix.startsWith(a.sk.prefix);
  return prefixesOverlap(a.sk.prefix, b.sk.prefix);
}

export function checkPartitions(items: ReadonlyMap<string, ItemType>, relations: ReadonlyMap<string, Relation>, problems: Problems, layout: Pick<Layout, 'pk' | 'sk'> = { pk: 'PK', sk: 'SK' }): void {
  for (const [index, partitions] of residentsOf(items, relations, layout)) {
    for (const [partition, members] of partitions) {
      for (let i = 0; i < members.length; i++) {
        for (let j = i + 1; j < members.length; j++) {
          const [a, b] = [members[i]!, members[j]!];
          if (!overlaps(a, b)) continue;
          // A bare sort key beside another type's literal prefix: it reads past their items, and its keys may not take that prefix.
          const [open, other] = bare(a) && b.inTable && b.sk.prefix !== '' ? [a, b] : bare(b) && a.inTable && a.sk.prefix !== '' ? [b, a] : [null, null];
          if (open && other) {
            open.type!.skExcludes = [...new Set([...(open.type!.skExcludes ?? []), other.sk.prefix])];
            continue;
          }
          problems.add(
            b.name,
            `its sort-key prefix "${b.sk.prefix}" overlaps "${a.sk.prefix}" of ${a.what} in the partition "${partition}" of ${index ?? 'the table'}: a read of one would return the other`,
          );
        }
      }
    }
  }
}
