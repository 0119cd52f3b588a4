/**
 * A node built from an edge's denormalized copy knows only its id and
 * title/name. When a field needs more, the entity item is read (batched
 * through the item loader). A missing entity behind an existing edge is a
 * broken table, reported as an internal error rather than a made-up value.
 */
interface Partial {
  id: string;
  complete: boolean;
}

export async function complete<R extends Partial>(parent: R, kind: string, load: (id: string) => Promise<R | null>): Promise<R> {
  if (parent.complete) return parent;
  const loaded = await load(parent.id);
  if (!loaded) throw new Error(`${kind} ${parent.id} is referenced by an edge but its item does not exist`);
  return loaded;
}

/** A required attribute missing on a stored item (a table filled by another program). */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`stored item lacks ${what}`);
  return value;
}
