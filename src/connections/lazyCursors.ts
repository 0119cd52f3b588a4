/**
 * Edges and pageInfo whose cursors are encoded only when a client selects
 * them (a cursor costs JSON, base64 and a signature). The getters live once
 * on a class's prototype with the state in a private field: a getter
 * defined per object gives each object a hidden class of its own in V8's
 * old generation, holding the page and the request alive through young
 * collections, and so promoted with it. `cursor`, `startCursor` and
 * `endCursor` read like properties but are not own properties.
 */
import type { PageInfoRecord } from '../plan/records.js';

/** An edge's own fields come from the connection's `toEdge`; its cursor from the page. */
class LazyCursorEdge {
  readonly #cursorAt: (index: number) => string;
  readonly #index: number;

  constructor(cursorAt: (index: number) => string, index: number) {
    this.#cursorAt = cursorAt;
    this.#index = index;
  }

  get cursor(): string {
    return this.#cursorAt(this.#index);
  }
}

/** The edges of a page: `toEdge(item)` for each item, and `cursor` from `cursorAt(index)` when read. */
export function lazyCursorEdges<T, Edge extends object>(
  items: readonly T[],
  toEdge: (item: T) => Edge,
  cursorAt: (index: number) => string,
): (Edge & { cursor: string })[] {
  return items.map((item, i) => Object.assign(new LazyCursorEdge(cursorAt, i), toEdge(item)) as unknown as Edge & { cursor: string });
}

class LazyPageInfo implements PageInfoRecord {
  readonly #cursor: (end: 'start' | 'end') => string | null;

  constructor(
    readonly hasNextPage: PageInfoRecord['hasNextPage'],
    readonly hasPreviousPage: PageInfoRecord['hasPreviousPage'],
    cursor: (end: 'start' | 'end') => string | null,
  ) {
    this.#cursor = cursor;
  }

  get startCursor(): string | null {
    return this.#cursor('start');
  }

  get endCursor(): string | null {
    return this.#cursor('end');
  }
}

/** pageInfo with `startCursor`/`endCursor` from `cursor(end)` when read. */
export function lazyPageInfo(
  hasNextPage: PageInfoRecord['hasNextPage'],
  hasPreviousPage: PageInfoRecord['hasPreviousPage'],
  cursor: (end: 'start' | 'end') => string | null,
): PageInfoRecord {
  return new LazyPageInfo(hasNextPage, hasPreviousPage, cursor);
}
