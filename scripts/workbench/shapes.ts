/**
 * Samples → key shapes → key templates.
 *
 * In:  the table read by read.ts. Out: its samples grouped by facet and key
 *      shape (hints.ts says which pieces are values), and each shape placed:
 *      its templates, its parent's partition, its key fields, or the reason
 *      it cannot be served.
 *
 * A shape's values become: one value → `{id}`; a value in the PK and one in
 * the SK → a child (`{parent}` in the PK, `{id}` in the SK); a value equal
 * to the PK's in every sample → the same placeholder; further values →
 * required key fields (keyFields.ts), `{id}` staying on the value an
 * id-named attribute holds, else none: the id is derived from the key.
 */
import { parseTemplate } from '../../src/declaration/template.js';
import { plainValue } from './demo.js';
import { classifyKeys } from './hints.js';
import { holds, ID_ATTRIBUTE, nameKeyFields, type KeyField, type KeyValue } from './keyFields.js';
import { PLACEHOLDER, type Token } from './keys.js';
import { LIMITS } from './limits.js';
import { WorkbenchError, type RawItem, type WorkbenchTable } from './read.js';

export interface Shape {
  facet: string | null;
  pk: Token[];
  sk: Token[];
  items: RawItem[];
  /** Each item's key tokens (aligned with the shape's: same literals, its own values). */
  keys: { pk: Token[]; sk: Token[] }[];
  /** Some value of its keys was read by the last resort (hints.ts), not a hint. */
  guessed: boolean;
}

export interface Placed {
  shape: Shape;
  pk: string;
  sk: string;
  /** The parent's PK: the child's PK up to the parent's placeholder, as {id}. */
  parentPk: string | null;
  /** The samples' ids (none for a derived id). */
  idValues: string[];
  /** The samples' parent ids (none without a parent). */
  parentValues: string[];
  /** The key's values beyond the id and the parent, as fields. */
  keyFields: KeyField[];
  todos: string[];
}

/** Names a model may not give a stored field: the keys, the item's id and what the gateway keeps on items. */
export const RESERVED_FIELDS = new Set([
  'id',
  'PK',
  'SK',
  'GSI1PK',
  'GSI1SK',
  'GSI2PK',
  'GSI2SK',
  'deletingAt',
  'propagatingSince',
  'countingSince',
  'reshardFrom',
  'reshardMoves',
  'reshardTo',
  'reshardCopies',
  'expiresAt',
]);

export const stringKey = (item: RawItem, attribute: string): string => {
  const v = plainValue(item[attribute]);
  return typeof v === 'string' ? v : String(v);
};

/** Groups samples by facet and key shape, in the order they are first seen. */
export function shapesOf(table: WorkbenchTable): Shape[] {
  const keys = classifyKeys(table);
  const groups: { facet: string | null; items: RawItem[] }[] = table.facets.map((f) => ({ facet: f.name, items: f.items }));
  if (table.items.length > 0) groups.push({ facet: null, items: table.items });
  const byShape = new Map<string, Shape>();
  for (const group of groups) {
    for (const item of group.items) {
      const { pk, sk, guessed } = keys.get(item)!;
      const key = `${group.facet ?? ''}\u0000${pk.pattern}\u0000${sk.pattern}`;
      const shape = byShape.get(key);
      if (shape) {
        shape.items.push(item);
        shape.keys.push({ pk: pk.tokens, sk: sk.tokens });
        shape.guessed ||= guessed;
      } else {
        if (byShape.size === LIMITS.shapes)
          throw new WorkbenchError(
            `${table.file}: its samples show more than ${LIMITS.shapes} key shapes (a type each): the import drafts at most ${LIMITS.shapes} types`,
          );
        byShape.set(key, { facet: group.facet, pk: pk.tokens, sk: sk.tokens, items: [item], keys: [{ pk: pk.tokens, sk: sk.tokens }], guessed });
      }
    }
  }
  return [...byShape.values()];
}

export const sampleKey = (shape: Shape, table: WorkbenchTable): string =>
  `${stringKey(shape.items[0]!, table.pk.name)} / ${stringKey(shape.items[0]!, table.sk!.name)}`;

/** The values of a shape's keys, key by key, in order. */
function valuesOf(shape: Shape): KeyValue[] {
  const values: KeyValue[] = [];
  for (const key of ['pk', 'sk'] as const) {
    shape[key].forEach((t, at) => {
      if ('value' in t) values.push({ key, at, values: shape.keys.map((k) => (k[key][at] as { value: string }).value) });
    });
  }
  return values;
}

/** The values of a shape's keys → templates, or the reason the shape cannot be served. */
export function place(shape: Shape, table: WorkbenchTable): Placed | { unserved: string } {
  const values = valuesOf(shape);
  const same = (a: KeyValue, b: KeyValue) => a.values.every((v, i) => v === b.values[i]);
  const pkValues = values.filter((v) => v.key === 'pk');
  // A value the SK repeats from the PK in every sample is the same placeholder (`{id}`, `#METADATA#{id}`).
  const aliasOf = new Map<KeyValue, KeyValue>();
  for (const v of values) {
    const twin = v.key === 'sk' ? pkValues.find((p) => same(p, v)) : undefined;
    if (twin) aliasOf.set(v, twin);
  }
  const roots = values.filter((v) => !aliasOf.has(v));
  const todos: string[] = [];
  const sample = sampleKey(shape, table);
  const literalText = [...shape.pk, ...shape.sk].flatMap((t) => ('literal' in t ? [t.literal] : [])).join('');
  if (/[{}]/.test(literalText)) return { unserved: `items keyed like ${sample} hold a brace in their keys' text, which a key template cannot hold` };
  if (roots.length === 0) return { unserved: `items keyed like ${sample} hold no value in their keys (no id): every such item would have one key` };
  const skRoots = roots.filter((v) => v.key === 'sk');
  const pkRoots = roots.filter((v) => v.key === 'pk');
  // A parent lists its children by its id alone: a PK holding more values than that names no parent's partition.
  const parent = skRoots.length > 0 && pkRoots.length === 1 ? pkRoots[0]! : null;
  const own = roots.filter((v) => v !== parent);
  // One value of its own is the id; of several, the one an id-named attribute holds in every sample, else none (a derived id).
  const named = own.filter((v) => Object.keys(shape.items[0]!).some((a) => ID_ATTRIBUTE.test(a) && holds(shape.items, a, v.values)));
  const id = own.length === 1 ? own[0]! : named.length === 1 ? named[0]! : null;
  const names = new Map<KeyValue, string>();
  if (id) names.set(id, '{id}');
  if (parent) names.set(parent, '{parent}');
  const rest = own.filter((v) => v !== id);
  const keyFields = nameKeyFields(rest, shape, shape.items, new Set([...RESERVED_FIELDS, 'parent']), new Set([table.pk.name, table.sk!.name]));
  rest.forEach((v, i) => names.set(v, `{${keyFields[i]!.name}}`));
  todos.push(...keyFieldTodos(shape, rest, keyFields));
  if (skRoots.length > 0 && pkRoots.length > 1) {
    todos.push(
      `its PK holds ${pkRoots.length} values: no parent's id alone names its partition, so it has no parent; a root @query over its partition lists it`,
    );
  }
  if (rest.length > 0 && !id)
    todos.push(
      `no value of the key is the item's own id (no attribute named like an id holds one): its id is derived from the key's values (docs/model.md, derived ids)`,
    );
  for (const [v, twin] of aliasOf) names.set(v, names.get(twin)!);
  const render = (key: 'pk' | 'sk', tokens: Token[]) =>
    tokens.map((t, at) => ('literal' in t ? t.literal : names.get(values.find((v) => v.key === key && v.at === at)!)!)).join('');
  const pk = render('pk', shape.pk);
  const sk = render('sk', shape.sk);
  for (const t of [pk, sk]) {
    try {
      parseTemplate(t.replaceAll('{parent}', '{p}'));
    } catch (error) {
      return { unserved: `items keyed like ${sample}: template "${t}" ${(error as Error).message}` };
    }
  }
  if (shape.items.length === 1 && shape.guessed) todos.push(`one sample (${sample}): which parts of its keys are ids is a guess`);
  // The parent's partition: the child's PK up to the parent's id (`u#{parent}#follower` lives under `u#{id}`).
  const parentPk = parent ? pk.slice(0, pk.indexOf('{parent}')) + '{id}' : null;
  return { shape, pk, sk, parentPk, idValues: id?.values ?? [], parentValues: parent?.values ?? [], keyFields, todos };
}

/** The guesses in naming a shape's key fields, as TODOs. */
function keyFieldTodos(shape: Shape, rest: readonly KeyValue[], keyFields: readonly KeyField[]): string[] {
  const todos: string[] = [];
  const guessed = keyFields.filter((f) => f.guess !== null);
  if (guessed.length > 0) {
    const one = guessed.length === 1;
    todos.push(
      `the key's value${one ? '' : 's'} ${guessed.map((f) => `{${f.name}} (${f.guess})`).join(', ')} ${one ? 'is' : 'are'} named by guess: no attribute of the samples holds ${one ? 'it' : 'them'}; rename ${one ? 'it' : 'them'} in the keys and the fields`,
    );
  }
  rest.forEach((v, i) => {
    if (shape.items.length > 1 && !PLACEHOLDER.test(v.values[0]!) && v.values.every((x) => x === v.values[0]))
      todos.push(`every sample holds "${v.values[0]}" at {${keyFields[i]!.name}}: if it is literal text, write it into the key instead`);
  });
  return todos;
}
