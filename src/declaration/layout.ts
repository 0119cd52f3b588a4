/**
 * The table's physical layout as the model declares it: the table's key
 * attributes (@table) and the global secondary indexes the model reads
 * (@index), both on the schema definition or a schema extension.
 *
 * In:  the built schema. Out: the Layout, every problem reported.
 * A model that declares neither gets the default layout (DEFAULT_LAYOUT):
 * PK/SK and the two indexes GSI1 and GSI2 over attributes of their names.
 */
import type { ConstDirectiveNode } from 'graphql';
import type { Annotations } from './annotations.js';
import type { IndexLayout, ItemType, Layout } from './model.js';
import type { ServedReading } from './reading.js';
import type { KeyCasing } from './template.js';
import type { Problems } from './problems.js';
import { inverseSideOf, writesGsi1Keys } from './edgeLayout.js';

/**
 * The one shard-count rule of the sharding scheme (dynamo/keys.ts): a
 * relation's edges and a catalog's entries are spread over 1 to 64 shards.
 * At most 64: a create puts every counter item in its one transaction, and
 * a merged page reads every shard.
 */
export const MAX_SHARDS = 64;
export const isShardCount = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= MAX_SHARDS;
/** Shards of each catalog in GSI2. Fixed: changing it re-keys every catalog entry (a migration). */
export const CATALOG_SHARDS = 8;
export const shardCountProblem = (n: number): string | null => (isShardCount(n) ? null : `must be a whole number 1–${MAX_SHARDS} (got ${String(n)})`);

/** DynamoDB's multi-attribute keys: up to four attributes per partition or sort key. */
export const MAX_KEY_ATTRIBUTES = 4;

/** The default layout's GSI1 key attributes (inverted items and edges read the other way): their one naming in src/. */
export const GSI1_KEYS = { pk: 'GSI1PK', sk: 'GSI1SK' } as const;

/** The layout of a model that declares none. */
export const DEFAULT_LAYOUT: Layout = {
  declared: false,
  pk: 'PK',
  sk: 'SK',
  casing: 'NONE',
  indexes: [
    { name: 'GSI1', pk: [GSI1_KEYS.pk], sk: [GSI1_KEYS.sk], casing: null },
    { name: 'GSI2', pk: ['GSI2PK'], sk: ['GSI2SK'], casing: null },
  ],
};

/** DynamoDB's rules for index names: 3–255 characters of [a-zA-Z0-9_.-]. */
const INDEX_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

export function readLayout(notes: Annotations, problems: Problems): Layout {
  const { tables, indexes } = notes;
  if (tables.length === 0 && indexes.length === 0) return DEFAULT_LAYOUT;
  if (tables.length > 1) problems.add('schema @table', 'is declared more than once: a model has one table', tables[1]!.node);
  const table = notes.table ?? { pk: 'PK', sk: 'SK', casing: 'NONE' as KeyCasing, node: undefined };
  const { pk, sk, casing } = table;
  checkAttributeName(pk, 'schema @table(pk)', problems, table.node);
  if (sk !== null) checkAttributeName(sk, 'schema @table(sk)', problems, table.node);
  if (sk === pk) problems.add('schema @table', `pk and sk name the same attribute ${pk}`, table.node);

  const declared: IndexLayout[] = [];
  for (const args of indexes) {
    const { node, name } = args;
    const where = `schema @index(name: "${name}")`;
    if (!INDEX_NAME.test(name)) problems.add(where, 'an index name is 3 to 255 letters, digits, _, - or .', node);
    if (declared.some((i) => i.name === name)) problems.add(where, `is declared twice: index names are unique`, node);
    const keyPk = args.pk;
    const keySk = args.sk ?? [];
    for (const [part, list, min] of [
      ['pk', keyPk, 1],
      ['sk', keySk, 0],
    ] as const) {
      if (list.length < min || list.length > MAX_KEY_ATTRIBUTES) {
        problems.add(`${where}(${part})`, `names ${list.length} attributes; a key has ${min} to ${MAX_KEY_ATTRIBUTES}`, node);
      }
      for (const attribute of list) checkAttributeName(attribute, `${where}(${part})`, problems, node);
    }
    const all = [...keyPk, ...keySk];
    const twice = all.find((a, i) => all.indexOf(a) !== i);
    if (twice !== undefined) problems.add(where, `names the attribute ${twice} twice in its key`, node);
    declared.push({ name, pk: keyPk, sk: keySk, casing: args.casing });
  }
  return { declared: true, pk, sk, casing, indexes: declared };
}

function checkAttributeName(name: string, where: string, problems: Problems, node: ConstDirectiveNode | undefined): void {
  // DynamoDB allows 1–255 bytes for a key attribute's name.
  if (name.length === 0 || Buffer.byteLength(name, 'utf8') > 255) problems.add(where, `"${name}" is no attribute name (1 to 255 bytes)`, node);
  // Keys are built by compiled object literals, where __proto__ would set the prototype instead.
  if (name === '__proto__') problems.add(where, '"__proto__" cannot name a key attribute', node);
}

/** The declared index of that name, or undefined. */
export const indexOf = (layout: Layout, name: string): IndexLayout | undefined => layout.indexes.find((i) => i.name === name);

/** Every key attribute of the table and its indexes, the table's first. */
export const keyAttributesOf = (layout: Layout): string[] => [
  ...new Set([layout.pk, ...(layout.sk === null ? [] : [layout.sk]), ...layout.indexes.flatMap((i) => [...i.pk, ...i.sk])]),
];

const sameKey = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * What the served declarations need of the layout: a table with a sort key
 * (every item the engine writes has one; the key attributes may have any
 * names), and the fixed indexes that inverted items and edges (GSI1),
 * catalogs and keys by instant (GSI2) are written to. Each reader missing its
 * index is one problem naming the reader and the @index it needs.
 */
export function checkServedLayout({ layout, items, relations, queries, problems }: ServedReading): void {
  if (!layout.declared) return;
  if (layout.sk === null) {
    problems.add('schema @table', `keys the table on ${layout.pk} alone: this gateway serves tables with a sort key (add sk)`);
  }
  const needs = (index: string, reader: string) => {
    const declared = indexOf(layout, index);
    const want = DEFAULT_LAYOUT.indexes.find((i) => i.name === index)!;
    if (declared && sameKey(declared.pk, want.pk) && sameKey(declared.sk, want.sk)) return;
    problems.add(
      reader,
      `reads the index ${index} on ${want.pk[0]}/${want.sk[0]}, which the model ${declared ? 'declares with other keys' : 'does not declare'}: add @index(name: "${index}", pk: ["${want.pk[0]}"], sk: ["${want.sk[0]}"])`,
    );
  };
  for (const item of items.values()) {
    if (item.inverted) needs('GSI1', `${item.name} @item(inverted)`);
    if (item.byInstant) needs('GSI2', `${item.name} @indexed(index: "GSI2")`);
  }
  // An @edges field already refused (a bad key, a keyless end) gets no second line about what it would read.
  const refused = (path: string) => problems.list.some((p) => p.where.startsWith(`${path} @edges`));
  for (const r of relations.values()) {
    if (r.kind === 'edges' && r.direction === 'base' && !refused(r.path) && writesGsi1Keys(r, inverseSideOf(r, relations))) needs('GSI1', `${r.path} @edges`);
  }
  for (const q of queries) if (q.kind === 'catalog') needs('GSI2', `Query.${q.field} @catalog`);
}

/**
 * The DynamoDB type of each key attribute: N where a field stored under it
 * is an Int or Float, else S (templates write text). One attribute holding
 * numbers for one type and text for another is a problem.
 */
export function keyAttributeTypes(layout: Layout, items: ReadonlyMap<string, ItemType>, problems?: Problems): Map<string, 'S' | 'N'> {
  const types = new Map<string, 'S' | 'N'>();
  for (const attribute of keyAttributesOf(layout)) {
    const kinds = new Set<'S' | 'N'>();
    for (const item of items.values()) {
      const field = item.attributes.find((a) => a.storedAs === attribute);
      if (field) kinds.add(field.kind === 'Int' || field.kind === 'Float' ? 'N' : 'S');
    }
    if (kinds.size > 1) problems?.add(`key attribute ${attribute}`, 'holds a number in one type and text in another: a key attribute has one type');
    types.set(attribute, kinds.has('N') && kinds.size === 1 ? 'N' : 'S');
  }
  return types;
}

/** The model's table shape: its key attributes and indexes (what DynamoDB knows of them: no casing), with their DynamoDB types. */
export const tableShapeOf = (model: { layout: Layout; items: ReadonlyMap<string, ItemType> }) => ({
  pk: model.layout.pk,
  sk: model.layout.sk,
  indexes: model.layout.indexes.map(({ name, pk, sk }) => ({ name, pk, sk })),
  types: keyAttributeTypes(model.layout, model.items),
});
