/**
 * The table's physical layout as the model declares it: the table's key
 * attributes (@table) and the global secondary indexes the model reads
 * (@index), both on the schema definition or a schema extension.
 *
 * In:  the built schema. Out: the Layout, every problem reported.
 * A model that declares neither gets the default layout: PK/SK, GSI1 on
 * GSI1PK/GSI1SK and GSI2 on GSI2PK/GSI2SK.
 */
import { Kind, type ConstDirectiveNode, type GraphQLSchema } from 'graphql';
import { getDirectiveValues, type GraphQLDirective } from 'graphql';
import type { IndexLayout, ItemType, Layout, Relation, RootField } from './model.js';
import type { KeyCasing } from './template.js';
import type { Problems } from './problems.js';
import { inverseSideOf, writesGsi1Keys } from './edgeLayout.js';

/** DynamoDB's multi-attribute keys: up to four attributes per partition or sort key. */
export const MAX_KEY_ATTRIBUTES = 4;

/** GSI1's key attributes in the default layout: every other file names them through these. */
export const GSI1_PK = 'GSI1PK';
export const GSI1_SK = 'GSI1SK';

/** The layout of a model that declares none. */
export const DEFAULT_LAYOUT: Layout = {
  declared: false,
  pk: 'PK',
  sk: 'SK',
  casing: 'NONE',
  indexes: [
    { name: 'GSI1', pk: [GSI1_PK], sk: [GSI1_SK], casing: null },
    { name: 'GSI2', pk: ['GSI2PK'], sk: ['GSI2SK'], casing: null },
  ],
};

/** DynamoDB's rules for index names: 3–255 characters of [a-zA-Z0-9_.-]. */
const INDEX_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

export function readLayout(schema: GraphQLSchema, problems: Problems): Layout {
  const nodes = [schema.astNode, ...schema.extensionASTNodes].flatMap((n) => n?.directives ?? []);
  const tables = nodes.filter((d) => d.name.value === 'table');
  const indexes = nodes.filter((d) => d.name.value === 'index');
  if (tables.length === 0 && indexes.length === 0) return DEFAULT_LAYOUT;
  if (tables.length > 1) problems.add('schema @table', 'is declared more than once: a model has one table', tables[1]);
  const table = tables[0] ? valuesOf(schema, 'table', tables[0]) : { pk: 'PK', sk: 'SK' };
  const pk = String(table.pk);
  const sk = typeof table.sk === 'string' ? table.sk : null;
  const casing = (typeof table.casing === 'string' ? table.casing : 'NONE') as KeyCasing;
  checkAttributeName(pk, 'schema @table(pk)', problems, tables[0]);
  if (sk !== null) checkAttributeName(sk, 'schema @table(sk)', problems, tables[0]);
  if (sk === pk) problems.add('schema @table', `pk and sk name the same attribute ${pk}`, tables[0]);

  const declared: IndexLayout[] = [];
  for (const node of indexes) {
    const args = valuesOf(schema, 'index', node);
    const name = String(args.name);
    const where = `schema @index(name: "${name}")`;
    if (!INDEX_NAME.test(name)) problems.add(where, 'an index name is 3 to 255 letters, digits, _, - or .', node);
    if (declared.some((i) => i.name === name)) problems.add(where, `is declared twice: index names are unique`, node);
    const keyPk = (args.pk as string[] | undefined) ?? [];
    const keySk = (args.sk as string[] | null | undefined) ?? [];
    for (const [part, list, min] of [['pk', keyPk, 1], ['sk', keySk, 0]] as const) {
      if (list.length < min || list.length > MAX_KEY_ATTRIBUTES) {
        problems.add(`${where}(${part})`, `names ${list.length} attributes; a key has ${min} to ${MAX_KEY_ATTRIBUTES}`, node);
      }
      for (const attribute of list) checkAttributeName(attribute, `${where}(${part})`, problems, node);
    }
    const all = [...keyPk, ...keySk];
    const twice = all.find((a, i) => all.indexOf(a) !== i);
    if (twice !== undefined) problems.add(where, `names the attribute ${twice} twice in its key`, node);
    declared.push({ name, pk: keyPk, sk: keySk, casing: typeof args.casing === 'string' ? (args.casing as KeyCasing) : null });
  }
  return { declared: true, pk, sk, casing, indexes: declared };
}

function valuesOf(schema: GraphQLSchema, name: string, node: ConstDirectiveNode): Record<string, unknown> {
  const directive = schema.getDirective(name) as GraphQLDirective;
  // getDirectiveValues reads the first use on a node; each use is its own node here.
  return getDirectiveValues(directive, { kind: Kind.SCHEMA_DEFINITION, directives: [node] } as never) ?? {};
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
export function checkServedLayout(
  layout: Layout,
  items: ReadonlyMap<string, ItemType>,
  relations: ReadonlyMap<string, Relation>,
  queries: readonly RootField[],
  problems: Problems,
): void {
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
