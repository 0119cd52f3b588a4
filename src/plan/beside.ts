/**
 * An entity beside a connection: where one Query can read an entity and
 * the first page of a connection of its own. The connection's partition
 * must be one the entity is itself in (the table or an index, its key
 * there made from its id), the entity must sort before every member or
 * after every member, and nothing else the partition may hold can sort
 * between them (checked against the partition's residents), but kinds of
 * item a partition holds one of at most, read past (one item more each). The page is
 * then read from the entity's sort key toward the members: ascending when
 * they sort after it, descending when they sort before it (and ascending
 * too, reaching it when the connection is short: entityPage.ts).
 * Where kinds with many items may sort between them (`crowded`), only the
 * read toward the entity is one Query: the page comes first, and the
 * entity when what sorts between fits the same Query's over-read; a read
 * from the entity would have to read through all of them to fill the page.
 * Anything else is read as two requests sent together.
 */
import type { ItemType, Layout } from '../declaration/model.js';
import type { KeyTemplate } from '../declaration/template.js';
import { keyIn } from '../declaration/indexed.js';
import { intersects, intervalOf, shapeOf, singular, type IndexPartitions, type KeyInterval } from '../declaration/residents.js';

export interface Beside {
  /** The entity sorts before every member, or after every member. */
  side: 'before' | 'after';
  /** Kinds of item a partition holds one of at most that sort between the entity and the members: read past, one more item each. */
  passes: number;
  /** Kinds with many items a partition may sort between: one Query only reading toward the entity, which it reaches when they are few. */
  crowded: boolean;
  /** The entity's partition and sort key in the connection's index, from its key's values (`{ id }`, or a derived id's values). */
  at(values: Readonly<Record<string, string>>): { pk: string; sk: string };
}

/** What a connection reads, as the entity is compared with it: the index, its partition's template, the range of its members' sort keys. */
export interface ConnectionRange {
  index: string | null;
  pk: KeyTemplate;
  range: KeyInterval;
}

/** How an entity of `owner` and the first page of the connection `read` are read in one Query, or null when they cannot be. */
export function compileBeside(
  owner: ItemType,
  read: ConnectionRange,
  partitions: ReadonlyMap<string | null, IndexPartitions>,
  layout: Pick<Layout, 'pk' | 'sk'>,
): Beside | null {
  const key = keyIn(owner, read.index, layout);
  if (!key || key.pkMore.length > 0 || key.skMore.length > 0 || shapeOf(key.pk) !== shapeOf(read.pk)) return null;
  // Known before the read: the values of the entity's own key (its id's).
  const known = owner.derivedId ?? ['id'];
  if (![...key.pk.placeholders, ...key.sk.placeholders].every((p) => known.includes(p))) return null;
  const own = intervalOf(key.sk);
  const side = own.hi <= read.range.lo ? 'before' : own.lo >= read.range.hi ? 'after' : null;
  if (side === null) return null;
  const gap: KeyInterval = side === 'before' ? { lo: own.lo, hi: read.range.lo } : { lo: read.range.hi, hi: own.hi };
  // The entity's own kind holds it alone in the partition when its sort key there names nothing its partition key does not.
  const alone = key.sk.placeholders.every((p) => key.pk.placeholders.includes(p));
  let passes = 0;
  let crowded = false;
  for (const r of partitions.get(read.index)?.get(shapeOf(read.pk)) ?? []) {
    const itself = r.type === owner && r.sk.source === key.sk.source && r.skAttr === key.skAttr;
    if ((itself && alone) || !intersects(intervalOf(r.sk), gap)) continue;
    // One item a partition at most: read past. Any more could be without bound: read only toward the entity.
    if (singular(r)) passes++;
    else crowded = true;
  }
  return { side, passes, crowded, at: (values) => ({ pk: key.pk.fill(values), sk: key.sk.fill(values) }) };
}
