/**
 * Phase 5 (end): one meaning per stored attribute of an item or an edge
 * item. A field, a counter, a copy or a constant may not be stored under a
 * key attribute (the table's, an index's) or an attribute the gateway's own
 * bookkeeping writes, nor two of them under one name.
 */
import type { GraphQLObjectType, GraphQLSchema } from 'graphql';
import { storedName, type Attribute, type EdgesRelation, type ItemType, type Layout, type Relation } from './model.js';
import type { Problems } from './problems.js';
import { DEFAULT_LAYOUT } from './layout.js';
import { fieldNode } from './relations.js';

/** Where a stored field is named in a problem: `.field`, with its @attribute(name:) when it has one. */
const storedAt = (a: Attribute): string => (a.storedAs === a.name ? `.${a.name}` : `.${a.name} @attribute(name: ${JSON.stringify(a.storedAs)})`);

/** Key attributes of the default table and its indexes (and, beside them, a declared @table's): no field, counter or copy may be stored under them. */
export const KEY_ATTRIBUTES: readonly string[] = [DEFAULT_LAYOUT.pk, DEFAULT_LAYOUT.sk!, ...DEFAULT_LAYOUT.indexes.flatMap((i) => [...i.pk, ...i.sk])];

/**
 * Attributes the gateway's own bookkeeping writes on items (the writes'
 * and the plan's constants: a cascade's and a rename's marks, migrate's
 * counting mark, a reshard's state) and the table's time-to-live
 * attribute, which would have DynamoDB delete the item. A field, counter
 * or copy stored under one of them would be overwritten by the gateway or
 * overwrite its state.
 */
export const BOOKKEEPING_ATTRIBUTES = [
  'deletingAt',
  'propagatingSince',
  'countingSince',
  'countingBy',
  'reshardFrom',
  'reshardMoves',
  'reshardTo',
  'reshardCopies',
  'expiresAt',
] as const;

const RESERVED = new Set<string>([...KEY_ATTRIBUTES, ...BOOKKEEPING_ATTRIBUTES]);

/**
 * Every attribute of one stored item must have one meaning: the fields of
 * an item type, the counters of its relations, the versions of its copied
 * fields and a sharded count; on an edge item its fields, the copies both
 * sides declare with their versions, and the shard-count copy. Two
 * meanings under one name (a counter named like a field, two copies in one
 * attribute, a field named like a key) would have one write overwrite the
 * other, so such a model is refused, naming the second use.
 */
export function checkStoredNames(
  schema: GraphQLSchema,
  items: ReadonlyMap<string, ItemType>,
  relations: ReadonlyMap<string, Relation>,
  problems: Problems,
  layout: Pick<Layout, 'pk' | 'sk' | 'indexes'>,
): void {
  // The table's own key attributes, whatever @table names them, are written from the templates.
  const tableKeys = new Set([layout.pk, ...(layout.sk === null ? [] : [layout.sk])]);
  const indexKeys = new Set([...tableKeys, ...layout.indexes.flatMap((i) => [...i.pk, ...i.sk])]);
  const isKey = (name: string) => KEY_ATTRIBUTES.includes(name as never) || tableKeys.has(name);
  /** Records `use` under `name`; false (and a problem) when the name is reserved or holds something else. */
  const claim = (names: Map<string, string>, name: string, use: string, where: string, node: unknown): boolean => {
    const known = names.get(name);
    if (RESERVED.has(name) || tableKeys.has(name)) {
      problems.add(where, `${use} is stored under ${name}, an attribute the gateway keeps${isKey(name) ? ' (a key)' : ''}: name it otherwise`, node as never);
      return false;
    }
    if (known !== undefined && known !== use) {
      problems.add(where, `${use} is stored under ${name}, which already holds ${known}: name it otherwise`, node as never);
      return false;
    }
    names.set(name, use);
    return true;
  };
  for (const item of items.values()) {
    const type = schema.getType(item.name) as GraphQLObjectType;
    const names = new Map<string, string>();
    for (const a of item.attributes)
      claim(names, a.storedAs, `the field ${item.name}.${a.name}`, `${item.name}${storedAt(a)}`, type.getFields()[a.name]?.astNode);
    // What a create writes besides the fields: the id and the parent's id beside cased keys, constant attributes.
    const beside = (name: string, use: string, where: string, node: unknown) => {
      if (indexKeys.has(name))
        problems.add(where, `${use} is stored under ${name}, a key attribute of the table or an index: name it otherwise`, node as never);
      else claim(names, name, use, where, node);
    };
    if (item.idStoredAs !== null)
      beside(
        item.idStoredAs,
        `the id of ${item.name}`,
        `${item.name}.id${item.idStoredAs === 'id' ? '' : ` @attribute(name: ${JSON.stringify(item.idStoredAs)})`}`,
        type.getFields().id?.astNode,
      );
    if (item.parent && item.parentStoredAs !== null)
      beside(
        item.parentStoredAs,
        `the parent's id of ${item.name} (its cased keys cannot give it back)`,
        `${item.name}.${item.parent.field} @parent`,
        type.getFields()[item.parent.field]?.astNode,
      );
    for (const c of item.constants) beside(c.attribute, `the constant ${c.attribute} of ${item.name}`, `${item.name} @item(constants)`, type.astNode);
    // A key attribute the type writes from a template in a declared index holds that key, not a field.
    for (const placement of item.indexed) {
      for (const part of [...placement.pk, ...placement.sk]) {
        if (!part.written) continue;
        const field = item.attributes.find((a) => a.storedAs === part.attribute);
        if (field)
          problems.add(
            `${item.name}${storedAt(field)}`,
            `the field ${item.name}.${field.name} is stored under ${part.attribute}, which ${item.name}'s key in the index ${placement.index} fills from a template: name it otherwise`,
            type.getFields()[field.name]?.astNode,
          );
      }
    }
    for (const r of item.relations) {
      if (r.counter !== null) claim(names, r.counter, `the counter of ${r.path}`, `${r.path} @${r.kind}(counter)`, fieldNode(schema, r));
      if (r.kind === 'edges' && r.sharded) claim(names, r.sharded.count, `the shard count of ${r.path}`, `${r.path} @edges(shards)`, fieldNode(schema, r));
    }
    for (const r of relations.values()) {
      if (r.kind !== 'edges' || r.node !== item.name) continue;
      // One version per copied field, however many relations copy it.
      for (const c of r.copies)
        claim(names, `${storedName(item, c.field)}Version`, `the version of ${item.name}.${c.field}`, `${r.path} @edges(copy)`, fieldNode(schema, r));
    }
  }
  for (const base of relations.values()) {
    if (base.kind !== 'edges' || base.direction !== 'base') continue;
    const sides = [
      base,
      ...[...relations.values()].filter(
        (r): r is EdgesRelation => r.kind === 'edges' && r.direction === 'inverted' && r.node === base.owner && r.inverse === base.field,
      ),
    ];
    const names = new Map<string, string>();
    const edgeType = schema.getType(base.edgeType) as GraphQLObjectType;
    for (const a of base.edgeAttributes)
      claim(names, a.storedAs, `the edge field ${base.edgeType}.${a.name}`, `${base.edgeType}${storedAt(a)}`, edgeType.getFields()[a.name]?.astNode);
    for (const side of sides) {
      for (const c of side.copies) {
        if (!claim(names, c.attribute, `the copy of ${side.node}.${c.field} (${side.path})`, `${side.path} @edges(copy)`, fieldNode(schema, side))) continue;
        claim(names, `${c.attribute}Version`, `the version of the copy ${c.attribute} (${side.path})`, `${side.path} @edges(copy)`, fieldNode(schema, side));
      }
      if (side.sharded?.copy)
        claim(names, side.sharded.copy, `the shard-count copy of ${side.path}`, `${side.path} @edges(shardsCopy)`, fieldNode(schema, side));
    }
  }
}
