/**
 * Edges and pageInfo whose cursors are encoded only when a client selects
 * them (encoding is JSON, base64 and a signature per cursor), without a
 * getter defined per object.
 *
 * Why classes: a getter defined on each object (`Object.defineProperty(edge,
 * 'cursor', { get })`, or an object literal with `get endCursor()`) gives
 * every such object a hidden class of its own, made in V8's old generation
 * and holding the getter's closure, and through it the page and the
 * request. Young-generation collections treat those as live until the next
 * full collection, so every request's objects were copied and promoted: the
 * gateway spent a quarter of its GraphQL-layer CPU in the garbage collector.
 * Here the getters live once on the class's prototype, and the per-object
 * state is a private field.
 *
 * `cursor`, `startCursor` and `endCursor` are read like properties (as the
 * executors read them), but are not own properties of the objects.
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
