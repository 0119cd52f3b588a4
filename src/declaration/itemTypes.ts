/**
 * Phase 4: the @item types. For each: its key templates (parsed, every
 * placeholder naming `id` or a @parent field), its parent, its stored
 * attributes, its @propagating flags, its owner claim and @access.
 * Relations are read in the next phase (relations.ts), so `relations` is
 * left empty here.
 */
import { isInterfaceType, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Access, Attribute, ItemType, KeylessType } from './model.js';
import type { Problems } from './problems.js';
import { parseTemplate, TemplateError, type KeyCasing, type KeyTemplate } from './template.js';
import { connectionShape, isEnum, isObject, isScalarLike, unwrap, type Field } from './schemaShape.js';
import type { Annotations } from './annotations.js';
import type { ItemNote } from './annotationTypes.js';
import { readParentKeys } from './parentKeys.js';
import { readAccess } from './access.js';
import { attributeOf, nestedScalar, readAttributeDirective, scalarKind } from './attributeDirective.js';
import { enumValues } from './storedText.js';
import { isNested, mapTypesOf, readShape, referenceListShape, type NestedContext } from './nestedValues.js';

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);
/** Directives that belong on connection, root or mutation fields, never on a stored field. */
const NOT_ON_ITEM_FIELDS = ['children', 'edges', 'get', 'catalog', 'create', 'update', 'delete', 'addEdge', 'removeEdge'];

function template(source: string, where: string, problems: Problems, node: unknown, casing: KeyCasing): KeyTemplate | null {
  try {
    return parseTemplate(source, casing);
  } catch (error) {
    if (error instanceof TemplateError) {
      problems.add(where, `template "${source}" ${error.message}`, node as never);
      return null;
    }
    throw error;
  }
}

/**
 * The node interface: the interface a @get(by: NODE) root field returns, and
 * its one field (the global id). Its shape is checked in operations.ts;
 * null when the model declares no such field (or it returns no interface).
 */
export function nodeInterfaceOf(schema: GraphQLSchema, notes: Annotations): { name: string; idField: string } | null {
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    if (notes.field(field).get?.by !== 'NODE') continue;
    const named = unwrap(field.type).named;
    if (!isInterfaceType(named)) return null;
    const fields = Object.values(named.getFields());
    return fields.length === 1 ? { name: named.name, idField: fields[0]!.name } : null;
  }
  return null;
}

/** Is `type` keyless: an object type with `id: ID!`, no @item, and not a root type nor a connection's edge type (whose id is an edge's own)? */
function isKeyless(notes: Annotations, type: GraphQLObjectType): boolean {
  if (ROOT_TYPES.has(type.name) || notes.type(type).item) return false;
  if (type.getFields().cursor !== undefined && type.getFields().node !== undefined) return false;
  const id = type.getFields().id;
  return id !== undefined && unwrap(id.type).named.name === 'ID' && unwrap(id.type).nonNull && !unwrap(id.type).list;
}

/**
 * The keyless types: entities known only by the ids that refer to them (a
 * customer id on tickets). They have no item, so they hold no field but
 * their id.
 */
export function readKeylessTypes(schema: GraphQLSchema, notes: Annotations, problems: Problems): Map<string, KeylessType> {
  const keyless = new Map<string, KeylessType>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObject(type) || type.name.startsWith('__') || !isKeyless(notes, type)) continue;
    for (const field of Object.values(type.getFields())) {
      // Its id, and connections over items whose keys name it (read in relations.ts).
      if (field.name === 'id' || connectionShape(unwrap(field.type).named)) continue;
      problems.add(
        `${type.name}.${field.name}`,
        `${type.name} is keyless (an id and no @item): it has no item to hold this field; give ${type.name} an @item or remove the field`,
        field.astNode,
      );
    }
    keyless.set(type.name, { name: type.name });
  }
  return keyless;
}

export function readItemTypes(
  schema: GraphQLSchema,
  notes: Annotations,
  problems: Problems,
  keyless: ReadonlyMap<string, KeylessType> = new Map(),
  casing: KeyCasing = 'NONE',
): Map<string, ItemType> {
  const items = new Map<string, ItemType>();
  const node = nodeInterfaceOf(schema, notes);
  const objects = Object.values(schema.getTypeMap()).filter((t): t is GraphQLObjectType => isObject(t) && !t.name.startsWith('__'));
  // First every type with @item, so parents and field types can be told apart from plain objects.
  const declared = new Set(objects.filter((t) => notes.type(t).item).map((t) => t.name));
  // Map types' fields are values inside items, read with their item's field (nestedValues.ts).
  const mapTypes = mapTypesOf(
    notes,
    objects.filter((t) => declared.has(t.name)),
    (name) => declared.has(name) || keyless.has(name) || ROOT_TYPES.has(name),
  );
  const childrenOwners = childrenOwnersOf(notes, objects, declared);
  for (const type of objects) {
    const args = notes.type(type).item;
    if (!args) {
      if (keyless.has(type.name) || mapTypes.has(type.name)) continue; // readKeylessTypes, nestedValues.ts
      for (const field of Object.values(type.getFields())) checkPlainField(schema, notes, type, field, problems);
      continue;
    }
    if (ROOT_TYPES.has(type.name)) {
      problems.add(`${type.name} @item`, 'a root type cannot be an item type', type.astNode);
      continue;
    }
    const item = readItemType({ schema, notes, childrenOwners, declared, keyless, node, problems, casing }, type, args);
    if (item) items.set(item.name, item);
  }
  for (const item of items.values()) checkParentPartition(schema, item, items, problems);
  for (const item of items.values()) readParentKeys(schema, item, items, problems);
  return items;
}

/**
 * A child's parent is loaded from the id in the child's key alone, so the
 * parent type must be found by its id alone: a top-level type, or an
 * inverted child type (found through GSI1).
 */
function checkParentPartition(schema: GraphQLSchema, item: ItemType, items: ReadonlyMap<string, ItemType>, problems: Problems): void {
  if (item.parent && !items.has(item.parent.type) && item.inverted) {
    // Found by its id alone, an inverted child's id is claimed under its parent type's prefix: a keyless parent has none.
    problems.add(
      `${item.name} @item(inverted)`,
      `${item.name}'s parent ${item.parent.type} is keyless: a child of a keyless type is found with its parent's id, not inverted`,
      schema.getType(item.name)?.astNode,
    );
  }
  const parent = item.parent ? items.get(item.parent.type) : undefined;
  if (!item.parent || !parent || !parent.parent || parent.inverted || parent.derivedId) return;
  problems.add(
    `${item.name}.${item.parent.field} @parent`,
    `${parent.name} is a child type found only with its own parent's id: make it inverted: true, so ${item.name} can load it by id`,
    schema.getType(item.name)?.astNode,
  );
}

/** Fields of types without @item may not carry item-field directives (a root type's fields are read in operations.ts). */
function checkPlainField(schema: GraphQLSchema, notes: Annotations, type: GraphQLObjectType, field: Field, problems: Problems): void {
  if (ROOT_TYPES.has(type.name)) return;
  for (const name of notes.field(field).uses) {
    const onEdges = name === 'createdAt' || name === 'attribute';
    if (onEdges && isEdgeTypeName(schema, type.name)) continue;
    if (['parent', 'propagating', 'createdAt', 'attribute', 'access', ...NOT_ON_ITEM_FIELDS].includes(name)) {
      problems.add(
        `${type.name}.${field.name} @${name}`,
        `is on a field of ${type.name}, which is no @item type${onEdges ? ' or edge type' : ''}`,
        field.astNode,
      );
    }
  }
}

/** Is `name` the edge type of some connection type? */
function isEdgeTypeName(schema: GraphQLSchema, name: string): boolean {
  return Object.values(schema.getTypeMap()).some((t) => connectionShape(t)?.edge.name === name);
}

/**
 * The parent of a type without @parent that some type's @children lists:
 * the one reference field of such an owner's type its pk names (taken out
 * of `attributes`: it is the parent field now). Several: one line naming
 * them, and none is taken.
 */
function inferredParent(reading: ItemTypeReading, type: GraphQLObjectType, pk: KeyTemplate, attributes: Attribute[]): ItemType['parent'] {
  const owners = reading.childrenOwners.get(type.name);
  if (!owners) return null;
  const candidates = attributes.filter((a) => a.reference && owners.has(a.reference.type) && pk.placeholders.includes(a.name) && a.storedAs === a.name);
  if (candidates.length > 1) {
    const names = candidates.map((a) => `${a.name}: ${a.reference!.type}`).join(', ');
    reading.problems.add(
      `${type.name} @item(pk)`,
      `names several references to types listing ${type.name} with @children (${names}): mark its parent with @parent`,
      type.astNode,
    );
    return null;
  }
  const [found] = candidates;
  if (!found) return null;
  attributes.splice(attributes.indexOf(found), 1);
  return { field: found.name, type: found.reference!.type };
}

/** Each item type some @children field lists as its node → the types with such a field. */
function childrenOwnersOf(notes: Annotations, objects: readonly GraphQLObjectType[], declared: ReadonlySet<string>): Map<string, Set<string>> {
  const owners = new Map<string, Set<string>>();
  for (const type of objects) {
    if (!declared.has(type.name)) continue;
    for (const field of Object.values(type.getFields())) {
      const node = connectionShape(unwrap(field.type).named)?.node.name;
      if (node === undefined || !notes.field(field).children) continue;
      owners.set(node, (owners.get(node) ?? new Set()).add(type.name));
    }
  }
  return owners;
}

/** What reading one @item type needs beside the type: the schema, the names of item and keyless types, the node interface. */
interface ItemTypeReading {
  schema: GraphQLSchema;
  notes: Annotations;
  /** For @parent inferred: each type listed by @children fields → their types. */
  childrenOwners: ReadonlyMap<string, ReadonlySet<string>>;
  declared: Set<string>;
  keyless: ReadonlyMap<string, KeylessType>;
  node: { name: string; idField: string } | null;
  problems: Problems;
  /** The case the table's keys are written in (@table(casing:)). */
  casing: KeyCasing;
}

function readItemType(reading: ItemTypeReading, type: GraphQLObjectType, args: ItemNote): ItemType | null {
  const { notes, node, problems } = reading;
  const where = `${type.name} @item`;
  // With a @get(by: NODE) root field every item type is reachable through it, so every one implements the interface.
  const globalId = node && type.getInterfaces().some((i) => i.name === node.name) ? node.idField : null;
  if (node && globalId === null) {
    problems.add(
      type.name,
      `implement ${node.name} (the model declares a @get(by: NODE) root field, which finds every item type by its global id)`,
      type.astNode,
    );
  }
  const pk = template(args.pk, `${where}(pk)`, problems, type.astNode, reading.casing);
  const sk = template(args.sk, `${where}(sk)`, problems, type.astNode, reading.casing);
  const fields = type.getFields();
  const id = fields.id;
  if (!id || unwrap(id.type).named.name !== 'ID' || !unwrap(id.type).nonNull || unwrap(id.type).list) {
    problems.add(`${type.name}.id`, 'an @item type needs a field id: ID!', id?.astNode ?? type.astNode);
  }
  const fieldAccess: Record<string, Access> = {};
  for (const field of Object.values(fields)) {
    if (connectionShape(unwrap(field.type).named)) continue; // a relation's access is read in relations.ts
    const access = readAccess(notes.field(field).access, field, `${type.name}.${field.name}`, problems);
    if (access) fieldAccess[field.name] = access;
  }
  const read = readItemFields(reading, type, globalId);
  const { attributes, flags, idName } = read;
  const parent = read.parent ?? (pk ? inferredParent(reading, type, pk, attributes) : null);
  // A cased key cannot give back the values it holds: the id and the parent's id are stored beside it.
  const cased = reading.casing !== 'NONE';
  const parentStoredAs = cased && parent ? parent.field : null;
  const constants = readConstants(args.constants, where, type, problems);
  const keyFields = readKeyFields({ pk, sk, parent, attributes }, where, type, problems);
  const derivedId = readDerivedId(pk, sk, args.inverted, where, type, problems);
  // A derived id is made again from the fields its key holds: nothing to store for it unless declared.
  const idStoredAs = idName ?? (cased && derivedId === null ? 'id' : null);
  const owner = args.claim !== null ? { claim: args.claim, setting: args.claimSetting } : null;
  if (owner === null && args.claimSetting !== null) problems.add(`${where}(claimSetting)`, 'renames a claim the type does not name: add claim', type.astNode);
  const access: Access | null = readAccess(notes.type(type).access, type, type.name, problems);

  if (!pk || !sk) return null;
  return {
    name: type.name,
    pk,
    sk,
    inverted: args.inverted,
    indexed: [],
    parent,
    keyFields,
    derivedId,
    idStoredAs,
    parentStoredAs,
    constants,
    attributes,
    flags,
    relations: [],
    byInstant: null,
    owner,
    access,
    fieldAccess,
    globalId,
  };
}

/** @item(constants:): each an attribute name (non-empty, named once) and its text. */
function readConstants(value: ItemNote['constants'], where: string, type: GraphQLObjectType, problems: Problems): ItemType['constants'] {
  const constants: { attribute: string; value: string }[] = [];
  for (const c of value) {
    if (c.attribute === '' || c.attribute === '__proto__') problems.add(`${where}(constants)`, `"${c.attribute}" is no attribute name`, type.astNode);
    else if (constants.some((k) => k.attribute === c.attribute)) problems.add(`${where}(constants)`, `names the attribute ${c.attribute} twice`, type.astNode);
    else constants.push({ attribute: c.attribute, value: c.value });
  }
  return constants;
}

/** The fields of an item type other than its ids and connections: its @parent field, stored attributes and @propagating flags. */
function readItemFields(reading: ItemTypeReading, type: GraphQLObjectType, globalId: string | null) {
  const { schema, notes, declared, keyless, problems } = reading;
  const isEntity = (name: string) => declared.has(name) || keyless.has(name) || ROOT_TYPES.has(name);
  const nested: NestedContext = {
    schema,
    notes,
    problems,
    isEntity,
    scalar: (f, at, t, inList) => nestedScalar(notes, f, at, t as GraphQLNamedType, inList, problems),
  };
  let parent: ItemType['parent'] = null;
  let idName: string | null = null;
  const attributes: Attribute[] = [];
  const flags: string[] = [];
  for (const field of Object.values(type.getFields())) {
    const at = `${type.name}.${field.name}`;
    const used = notes.field(field).uses;
    if (field.name === 'id' && field.name !== globalId) {
      idName = readIdAttribute(notes, field, at, problems);
      continue;
    }
    if (field.name === globalId) {
      if (used.includes('attribute')) problems.add(`${at} @attribute`, 'belongs on a stored field; the global id is made from the keys', field.astNode);
      continue;
    }
    if (used.includes('attribute') && (used.includes('parent') || used.includes('propagating') || connectionShape(unwrap(field.type).named))) {
      problems.add(`${at} @attribute`, 'belongs on a stored field (not a @parent, @propagating or connection field)', field.astNode);
    }
    const { named, list } = unwrap(field.type);
    for (const name of used) {
      if (['get', 'catalog', 'create', 'update', 'delete', 'addEdge', 'removeEdge'].includes(name)) {
        problems.add(`${at} @${name}`, `belongs on a field of ${['get', 'catalog'].includes(name) ? 'Query' : 'Mutation'}, not of an item type`, field.astNode);
      }
    }
    if (used.includes('parent')) {
      if (list || (!declared.has(named.name) && !keyless.has(named.name))) {
        problems.add(`${at} @parent`, `the field's type ${list ? `[${named.name}]` : named.name} is not an @item type or a keyless type`, field.astNode);
      } else if (parent) {
        problems.add(`${at} @parent`, `${type.name} already has the parent field ${parent.field}`, field.astNode);
      } else {
        parent = { field: field.name, type: named.name };
      }
      continue;
    }
    if (connectionShape(named) || used.includes('children') || used.includes('edges')) continue; // relations.ts
    const stored = readStoredField(reading, nested, field, at, used);
    if (stored === 'flag') flags.push(field.name);
    else if (stored) attributes.push(stored);
  }
  return { parent: parent as ItemType['parent'], attributes, flags, idName };
}

/**
 * @attribute on id: the attribute the id is also stored under (another
 * library's name for it, ElectroDB's `employee`), written at create and
 * read where the keys cannot give it back. Only name applies.
 */
function readIdAttribute(notes: Annotations, field: Field, at: string, problems: Problems): string | null {
  const args = notes.field(field).attribute;
  if (!args) return null;
  for (const key of ['min', 'max', 'format'] as const) {
    if (args[key] != null)
      problems.add(`${at} @attribute(${key})`, 'applies to stored fields; the id takes name alone (the attribute it is also stored under)', field.astNode);
  }
  if (args.name === null) return null;
  if (args.name === '' || args.name === '__proto__') {
    problems.add(`${at} @attribute(name)`, `"${args.name}" is no attribute name`, field.astNode);
    return null;
  }
  return args.name;
}

/** One stored field: a reference, a map or list, or a scalar attribute; `flag` for a @propagating one; null when refused or not stored. */
function readStoredField(reading: ItemTypeReading, nested: NestedContext, field: Field, at: string, used: readonly string[]): Attribute | 'flag' | null {
  const { notes, declared, keyless, problems } = reading;
  const { named, list } = unwrap(field.type);
  if (isObject(named) && !list && (declared.has(named.name) || keyless.has(named.name))) {
    // A reference: stored as the referred id, read back as that item (or, keyless, as just its id).
    const { storedAs, constraints, counter } = readAttributeDirective(notes, field, at, 'ID', problems, 'reference');
    return {
      name: field.name,
      storedAs,
      kind: 'ID',
      required: unwrap(field.type).nonNull,
      createdAt: false,
      constraints,
      reference: { type: named.name, keyless: keyless.has(named.name) },
      ...(counter ? { counter } : {}),
    };
  }
  if (isObject(named) && list && (declared.has(named.name) || keyless.has(named.name))) {
    // A list of references: the referred ids, in a list attribute (bounded as any list).
    const shape = referenceListShape(nested, field, at);
    const name = attributeOf(notes, field).name;
    const storedAs = typeof name === 'string' && name !== '' ? name : field.name;
    const none = { min: null, max: null, format: null };
    const references = { type: named.name, keyless: keyless.has(named.name) };
    return shape ? { name: field.name, storedAs, kind: 'List', shape, required: shape.required, createdAt: false, constraints: none, references } : null;
  }
  if (isNested(field.type, nested.isEntity)) {
    // A map or list inside the item (nestedValues.ts), stored whole under its attribute.
    for (const name of ['createdAt', 'propagating'].filter((d) => used.includes(d)))
      problems.add(`${at} @${name}`, 'belongs on a scalar field, not a map or list', field.astNode);
    const shape = readShape(nested, field, at);
    const name = attributeOf(notes, field).name;
    if (name === '') problems.add(`${at} @attribute(name)`, 'is empty: name the attribute the field is stored under', field.astNode);
    const storedAs = typeof name === 'string' && name !== '' ? name : field.name;
    const none = { min: null, max: null, format: null };
    return shape
      ? { name: field.name, storedAs, kind: shape.kind === 'list' ? 'List' : 'Map', shape, required: shape.required, createdAt: false, constraints: none }
      : null;
  }
  if (!isScalarLike(named)) return null;
  const kind = scalarKind(named.name, isEnum(named));
  if (used.includes('propagating')) {
    if (named.name !== 'Boolean' || list) problems.add(`${at} @propagating`, 'belongs on a Boolean field', field.astNode);
    return named.name !== 'Boolean' || list ? null : 'flag';
  }
  if (used.includes('createdAt') && named.name !== 'DateTime' && named.name !== 'String') {
    problems.add(`${at} @createdAt`, 'belongs on a DateTime or String field', field.astNode);
  }
  if (kind === null || list) {
    problems.add(at, `a stored field must be a built-in scalar, DateTime or an enum${list ? ', not a list' : ''}`, field.astNode);
    return null;
  }
  const { storedAs, constraints, sequence } = readAttributeDirective(notes, field, at, kind, problems, 'item field');
  return {
    name: field.name,
    storedAs,
    kind,
    required: unwrap(field.type).nonNull,
    createdAt: used.includes('createdAt'),
    ...enumValues(named),
    constraints,
    ...(sequence ? { sequence } : {}),
  };
}

/**
 * For keys that name no {id}: the placeholders the item's id is derived
 * from, in the order pk then sk name them (plan/derivedId.ts); null for
 * keys holding {id}.
 */
function readDerivedId(
  pk: ItemType['pk'] | null,
  sk: ItemType['sk'] | null,
  inverted: boolean,
  where: string,
  type: GraphQLObjectType,
  problems: Problems,
): string[] | null {
  if (!pk || !sk || pk.placeholders.includes('id') || sk.placeholders.includes('id')) return null;
  const derivedId = [...new Set([...pk.placeholders, ...sk.placeholders])];
  if (derivedId.length === 0)
    problems.add(
      where,
      'neither pk nor sk holds a placeholder: every item of the type would have the same key (name {id} or the fields that tell items apart)',
      type.astNode,
    );
  else if (inverted)
    problems.add(
      `${where}(inverted)`,
      `${type.name}'s key names no {id}: its id is derived from the key and finds it alone, so inverted: true has nothing to do`,
      type.astNode,
    );
  return derivedId;
}

/** The stored fields the key templates name; a placeholder names id, the parent field, or a stored field set at create. */
function readKeyFields(
  { pk, sk, parent, attributes }: { pk: ItemType['pk'] | null; sk: ItemType['sk'] | null; parent: ItemType['parent']; attributes: Attribute[] },
  where: string,
  type: GraphQLObjectType,
  problems: Problems,
): string[] {
  const allowed = new Set(['id', ...(parent ? [parent.field] : [])]);
  const keyFields: string[] = [];
  for (const [name, t] of [
    ['pk', pk],
    ['sk', sk],
  ] as const) {
    for (const p of t?.placeholders ?? []) {
      if (allowed.has(p)) continue;
      const a = attributes.find((x) => x.name === p);
      const problem = a
        ? keyFieldProblem(a, name)
        : `names no field (use {id}, a @parent field${parent ? ` such as {${parent.field}}` : ''} or a stored field set at create)`;
      if (problem) problems.add(`${where}(${name})`, `placeholder {${p}} ${problem}`, type.astNode);
      else if (!keyFields.includes(p)) keyFields.push(p);
    }
  }
  // A key without {parent} may hold the parent's key values instead (parentKeys.ts, once every type is read).
  return keyFields;
}

/**
 * Why a stored field cannot be part of a table key, or null when it can:
 * every item needs its value (required, or set at create), and its text
 * must sort and parse. DateTime is written as ISO-8601 UTC with three
 * fraction digits, so keys sort by time; an Int sorts as text only by
 * accident, so it may name a partition but not order a sort key.
 */
function keyFieldProblem(a: Attribute, key: 'pk' | 'sk'): string | null {
  if (a.shape) return `names ${a.name}, a ${a.kind === 'List' ? 'list' : 'map'}: a key holds text or a number`;
  if (!a.required && !a.createdAt) return `names ${a.name}, which is optional: every item needs its key (make it required)`;
  if (a.kind === 'Float' || a.kind === 'Boolean')
    return `names ${a.name}, a ${a.kind}: a key holds text (ID, String, an enum or DateTime) or an Int in the partition key`;
  // A sequence's numbers are written zero-padded: their text sorts as the numbers do.
  if (a.kind === 'Int' && key === 'sk' && !a.sequence)
    return `names ${a.name}, an Int: its text would not sort by value (1, 10, 2); use a DateTime, a String, a sequence (@attribute(sequence:, pad:)), or put it in the partition key`;
  return null;
}

/**
 * A type whose key holds fields besides id and the parent is found with
 * those values, never by its id alone: nothing that loads an item by id
 * may reach it (a reference, a child's parent, @get(by: NODE), an owner claim, inverted),
 * and it owns no @children or @edges (a delete follows connections from
 * the id alone).
 */
export function checkKeyFields(items: ReadonlyMap<string, ItemType>, problems: Problems): void {
  // A derived id holds every value of the key: such a type is found by its id alone.
  const byValues = (t: ItemType) => t.keyFields.length > 0 && t.derivedId === null;
  for (const item of items.values()) {
    // A token's claim holds an id a caller is given, not one derived from a key only the table knows.
    if (item.derivedId && item.owner)
      problems.add(
        `${item.name} @item(claim)`,
        `${item.name}'s key names no {id}: its id is derived from the key, which a token's claim does not hold; key it by {id} to own it through a claim`,
      );
    const held = item.keyFields.map((f) => `{${f}}`).join(', ');
    if (byValues(item)) {
      const why = `its key holds ${held}, so its id alone does not find it`;
      if (item.inverted) problems.add(`${item.name} @item(inverted)`, `${item.name} cannot be inverted: ${why}`);
      if (item.globalId !== null) problems.add(item.name, `${item.name} cannot be found by a global id (@get(by: NODE)): ${why}`);
      if (item.owner) problems.add(`${item.name} @item(claim)`, `${item.name} cannot be owned through a token's id: ${why}`);
      for (const r of item.relations) {
        if (r.kind === 'edges' || r.owned)
          problems.add(
            `${r.path} @${r.kind === 'edges' ? 'edges' : 'children'}`,
            `${item.name} cannot own connections: ${why} (a @query field reads without owning)`,
          );
      }
    }
    for (const a of item.attributes) {
      const target = a.reference && !a.reference.keyless ? items.get(a.reference.type) : undefined;
      if (target && byValues(target))
        problems.add(
          `${item.name}.${a.name}`,
          `refers to ${target.name}, whose key holds ${target.keyFields.map((f) => `{${f}}`).join(', ')}: a reference finds an item by its id alone`,
        );
    }
    const parent = item.parent ? items.get(item.parent.type) : undefined;
    if (parent && byValues(parent)) {
      problems.add(
        `${item.name}.${item.parent!.field} @parent`,
        `${parent.name}'s key holds ${parent.keyFields.map((f) => `{${f}}`).join(', ')}: a child's parent is found by its id alone`,
      );
    }
  }
}

/**
 * A reference to an @item type is read by that type's key from the id
 * alone: the referred type must be top-level, or an inverted child type
 * (found by its id through GSI1).
 */
export function checkReferences(items: ReadonlyMap<string, ItemType>, problems: Problems): void {
  for (const item of items.values()) {
    for (const a of item.attributes) {
      const target = a.reference && !a.reference.keyless ? items.get(a.reference.type) : undefined;
      if (target?.parent && !target.inverted && !target.derivedId) {
        problems.add(
          `${item.name}.${a.name}`,
          `refers to ${target.name}, a child type found only with its parent's id: make it inverted: true, or refer to its parent`,
        );
      }
    }
  }
}
