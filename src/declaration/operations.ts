/**
 * Phase 7: root fields (Query) and mutations. Every root field is bound by
 * @get or @catalog, every mutation by @create, @update, @delete, @addEdge or
 * @removeEdge; their arguments must fill what the directive needs.
 * Subscription fields are bound by the subscription directives, read
 * elsewhere.
 */
import { inputMismatch } from './nestedValues.js';
import { isAbstractType, isEnumType, isInterfaceType, isNonNullType, isObjectType, type GraphQLInputType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Access, Attribute, CatalogField, EdgesRelation, GetField, ItemType, KeylessType, Layout, MeField, MutationField, NodeField, QueryField, Relation, RootField } from './model.js';
import { keyIn, readSortArguments, shapeFilled } from './indexed.js';
import type { Problems } from './problems.js';
import { connectionShape, directiveArgs, directivesOn, getByOf, isInputObject, unwrap, type Field } from './schemaShape.js';
import { checkAccess, readAccess } from './access.js';
import { scalarKind } from './itemTypes.js';
import { storedEnumValues } from './storedText.js';
import { inverseSideOf } from './edgeLayout.js';

const QUERY_DIRECTIVES = ['get', 'catalog', 'query'];
const MUTATION_DIRECTIVES = ['create', 'update', 'delete', 'addEdge', 'removeEdge'];

export function readOperations(
  schema: GraphQLSchema,
  items: ReadonlyMap<string, ItemType>,
  relations: ReadonlyMap<string, Relation>,
  layout: Layout,
  problems: Problems,
  keyless: ReadonlyMap<string, KeylessType> = new Map(),
): { queries: RootField[]; mutations: MutationField[]; rootAccess: { Query: Access | null; Mutation: Access | null } } {
  const queries: RootField[] = [];
  const mutations: MutationField[] = [];
  const query = schema.getQueryType();
  const rootAccess = { Query: query ? readAccess(schema, query, 'Query', problems) : null, Mutation: null as Access | null };
  for (const field of Object.values(query?.getFields() ?? {})) {
    const root = readRootField(schema, field, items, layout, problems, keyless);
    if (root) queries.push(root);
  }
  const mutation = schema.getMutationType();
  if (mutation) rootAccess.Mutation = readAccess(schema, mutation, 'Mutation', problems);
  for (const field of Object.values(mutation?.getFields() ?? {})) {
    const m = readMutation(schema, field, items, relations, problems);
    if (m) mutations.push(m);
  }
  for (const root of [query, mutation, schema.getSubscriptionType()]) {
    if (!root) continue;
    const allowed = root === query ? QUERY_DIRECTIVES : root === mutation ? MUTATION_DIRECTIVES : [];
    for (const field of Object.values(root.getFields())) {
      for (const d of directivesOn(field)) {
        if ([...QUERY_DIRECTIVES, ...MUTATION_DIRECTIVES].includes(d) && !allowed.includes(d)) {
          problems.add(`${root.name}.${field.name} @${d}`, `belongs on a field of ${QUERY_DIRECTIVES.includes(d) ? 'Query' : 'Mutation'}`, field.astNode);
        }
      }
    }
  }
  checkAccess(items, problems);
  checkInverseSides(schema, relations, mutations, problems);
  checkGsi2Partitions(schema, items, queries, problems);
  return { queries, mutations, rootAccess };
}

/**
 * Renames and deletes of a node reach the edges pointing at it through the
 * node type's inverse side (its @edges field with inverseOf, read through
 * GSI1): without one, a rename would leave the copies old and a delete
 * would leave the edges (and the owners' counters) behind. So edges whose
 * node fields are copied, or whose node type can be deleted, need the
 * inverse side declared.
 */
function checkInverseSides(schema: GraphQLSchema, relations: ReadonlyMap<string, Relation>, mutations: readonly MutationField[], problems: Problems): void {
  for (const r of relations.values()) {
    if (r.kind !== 'edges' || r.direction !== 'base') continue;
    const inverse = [...relations.values()].some((x) => x.kind === 'edges' && x.direction === 'inverted' && x.owner === r.node && x.inverse === r.field);
    if (inverse) continue;
    const why = r.copies.length > 0 ? `renames of ${r.node} reach its copies` : mutations.some((m) => m.kind === 'delete' && m.type === r.node) ? `a delete of ${r.node} removes these edges` : null;
    if (why === null) continue;
    const node = (schema.getType(r.owner) as GraphQLObjectType).getFields()[r.field]?.astNode;
    problems.add(`${r.path} @edges`, `${r.node} declares no inverse side (an @edges field with inverseOf: "${r.field}"), through which ${why}`, node);
  }
}

/**
 * @query on a root field: a connection over the node type's items in one
 * partition of an index; the arguments fill the placeholders of the node's
 * pk template there by name ({customer} from customer or customerId).
 */
function readQueryField(
  schema: GraphQLSchema,
  field: Field,
  at: string,
  items: ReadonlyMap<string, ItemType>,
  layout: Layout,
  access: Access | null,
  problems: Problems,
): QueryField | null {
  const args = directiveArgs(schema, 'query', field) ?? {};
  const index = typeof args.index === 'string' ? args.index : null;
  const where = `${at} @query${index === null ? '' : `(index: "${index}")`}`;
  const shape = connectionShape(unwrap(field.type).named);
  // A connection over a union or interface is a collection (collections.ts).
  if (shape && isAbstractType(shape.node)) return null;
  const node = shape ? items.get(shape.node.name) : undefined;
  if (!shape || !node) {
    problems.add(where, `returns ${unwrap(field.type).named.name}, which is no connection of an @item type`, field.astNode);
    return null;
  }
  if (index !== null && !layout.indexes.some((i) => i.name === index)) {
    problems.add(where, `names no index the model declares (${layout.indexes.map((i) => i.name).join(', ') || 'none'})`, field.astNode);
    return null;
  }
  const argNames = field.args.map((a) => a.name);
  // Of several shapes in the index, the one whose partition the arguments name.
  const keyShape = shapeFilled(node, index, argNames);
  const key = keyIn(node, index, layout, keyShape);
  if (!key) {
    problems.add(where, `${node.name} has no key with a sort attribute in ${index ?? 'the table'} (declare it with @indexed)`, field.astNode);
    return null;
  }
  for (const name of ['first', 'after', 'last', 'before']) {
    if (!argNames.includes(name)) problems.add(at, `a connection field takes first, after, last and before (missing ${name})`, field.astNode);
  }
  const filled: Record<string, string> = {};
  for (const placeholder of new Set([key.pk, ...key.pkMore.map((p) => p.template)].flatMap((t) => t.placeholders))) {
    const candidates = [placeholder, `${placeholder}Id`];
    const arg = candidates.find((c) => argNames.includes(c));
    if (!arg) problems.add(where, `no argument fills {${placeholder}} of ${node.name}'s partition key "${key.pk.source}" (expected ${candidates.join(' or ')})`, field.astNode);
    else filled[placeholder] = arg;
  }
  const from = typeof args.from === 'string' ? args.from : null;
  const until = typeof args.until === 'string' ? args.until : null;
  for (const [name, value] of [['from', from], ['until', until]] as const) {
    if (value !== null && !argNames.includes(value)) problems.add(`${where}(${name})`, `names no argument of the field: ${value}`, field.astNode);
  }
  if ((from !== null || until !== null) && key.skMore.length === 0 && key.sk.placeholders.length === 0) {
    problems.add(where, `from/until narrow the sort key from its first placeholder on; "${key.sk.source}" has none`, field.astNode);
  }
  if (Array.isArray(args.filter)) problems.add(`${where}(filter)`, 'filters a narrowed read of @children: use it on a field with @children beside @query', field.astNode);
  const taken = new Set(['first', 'after', 'last', 'before', ...Object.values(filled), ...(from ? [from] : []), ...(until ? [until] : [])]);
  const fieldArgs = field.args.map((a) => ({ name: a.name, required: isNonNullType(a.type) }));
  const sortArguments = readSortArguments(node, key, { args: fieldArgs, taken, bounded: from !== null || until !== null, where, astNode: field.astNode }, problems);
  const used = new Set([...taken, ...Object.values(sortArguments)]);
  for (const a of argNames) if (!used.has(a)) problems.add(`${at}(${a})`, 'no directive reads this argument', field.astNode);
  return {
    kind: 'query',
    field: field.name,
    type: node.name,
    connectionType: unwrap(field.type).named.name,
    index,
    ...(keyShape > 0 ? { shape: keyShape } : {}),
    arguments: filled,
    bounds: from === null && until === null ? null : { from, until },
    sortArguments,
    descending: args.order === 'DESCENDING',
    access,
  };
}

function only(field: Field, names: string[], at: string, problems: Problems): string | null {
  const used = directivesOn(field).filter((d) => names.includes(d));
  if (used.length === 0) {
    problems.add(at, `no directive binds this field: add one of ${names.map((n) => `@${n}`).join(', ')}`, field.astNode);
    return null;
  }
  if (used.length > 1) {
    problems.add(at, `has more than one of ${used.map((n) => `@${n}`).join(', ')}`, field.astNode);
    return null;
  }
  return used[0];
}

function readRootField(
  schema: GraphQLSchema,
  field: Field,
  items: ReadonlyMap<string, ItemType>,
  layout: Layout,
  problems: Problems,
  keyless: ReadonlyMap<string, KeylessType>,
): RootField | null {
  const at = `Query.${field.name}`;
  const directive = only(field, QUERY_DIRECTIVES, at, problems);
  if (!directive) return null;
  const access = readAccess(schema, field, at, problems);
  const argNames = field.args.map((a) => a.name);
  const getBy = getByOf(schema, field);
  if (getBy === 'NODE') return readNodeField(field, at, items, access, problems);
  if (getBy === 'CALLER') return readMeField(field, at, items, access, problems);
  if (directive === 'query') return readQueryField(schema, field, at, items, layout, access, problems);
  if (directive === 'get') {
    const { named, list } = unwrap(field.type);
    if (keyless.has(named.name) && !list) {
      // Nothing to read: the entity is its id.
      const extra = argNames.filter((a) => a !== 'id');
      if (!argNames.includes('id')) problems.add(`${at} @get`, `${named.name} is keyless: @get takes its id in the argument id`, field.astNode);
      for (const a of extra) problems.add(`${at}(${a})`, `${named.name} is keyless: its @get takes only id`, field.astNode);
      return { kind: 'get', field: field.name, type: named.name, keyless: true, arguments: { id: 'id' }, access };
    }
    const item = items.get(named.name);
    if (!item || list) {
      problems.add(`${at} @get`, `returns ${named.name}${list ? ' as a list' : ''}; @get returns one @item type`, field.astNode);
      return null;
    }
    if (item.derivedId && argNames.includes('id')) {
      // A derived id holds the key's values: it alone finds the item.
      for (const a of argNames.filter((x) => x !== 'id')) problems.add(`${at}(${a})`, `${item.name}'s id is derived from its key and finds it alone: take id, or the key's values (${item.derivedId.join(', ')}) instead`, field.astNode);
      return { kind: 'get', field: field.name, type: item.name, arguments: { id: 'id' }, access };
    }
    // The keys it reads: the sort key alone (GSI1) for an inverted type, else both.
    const needed = item.inverted && !item.derivedId ? item.sk.placeholders : [...item.pk.placeholders, ...item.sk.placeholders];
    const args: Record<string, string> = {};
    for (const placeholder of new Set(needed)) {
      const candidates = placeholder === 'id' ? ['id'] : [placeholder, `${placeholder}Id`];
      const arg = candidates.find((c) => argNames.includes(c));
      if (!arg) problems.add(`${at} @get`, `no argument fills {${placeholder}} of ${item.name}'s key (expected ${candidates.join(' or ')})`, field.astNode);
      else args[placeholder] = arg;
    }
    for (const a of argNames) {
      if (!Object.values(args).includes(a)) problems.add(`${at}(${a})`, `fills no placeholder of ${item.name}'s key`, field.astNode);
    }
    const get: GetField = { kind: 'get', field: field.name, type: item.name, arguments: args, access };
    return get;
  }
  const args = directiveArgs(schema, 'catalog', field) ?? {};
  const item = items.get(String(args.type));
  const shape = connectionShape(unwrap(field.type).named);
  if (!item) {
    problems.add(`${at} @catalog(type)`, `names no @item type: ${String(args.type)}`, field.astNode);
    return null;
  }
  if (!shape || shape.node.name !== item.name) {
    problems.add(`${at} @catalog`, `returns ${unwrap(field.type).named.name}, which is no connection of ${item.name}`, field.astNode);
    return null;
  }
  const by = String(args.by);
  const attr = item.attributes.find((a) => a.name === by);
  if (!attr || attr.kind !== 'String') problems.add(`${at} @catalog(by)`, `names no String field of ${item.name}: ${by}`, field.astNode);
  const prefixArgument = typeof args.prefixArgument === 'string' ? args.prefixArgument : null;
  if (prefixArgument && !argNames.includes(prefixArgument)) problems.add(`${at} @catalog(prefixArgument)`, `names no argument of the field: ${prefixArgument}`, field.astNode);
  const shards = Number(args.shards);
  if (!Number.isInteger(shards) || shards < 1 || shards > 64) problems.add(`${at} @catalog(shards)`, `must be a whole number 1–64 (got ${String(args.shards)})`, field.astNode);
  const catalog: CatalogField = {
    kind: 'catalog',
    field: field.name,
    type: item.name,
    connectionType: unwrap(field.type).named.name,
    by,
    key: String(args.key),
    sortKey: String(args.sortKey),
    prefixArgument,
    shards,
    access,
  };
  return catalog;
}

/** @get(by: NODE): returns an interface with one ID! field (the global id) and takes id: ID!. */
function readNodeField(field: Field, at: string, items: ReadonlyMap<string, ItemType>, access: Access | null, problems: Problems): NodeField | null {
  const { named, list } = unwrap(field.type);
  if (!isInterfaceType(named) || list) {
    problems.add(`${at} @get(by: NODE)`, `returns ${named.name}${list ? ' as a list' : ''}; @get(by: NODE) returns an interface such as Node { globalId: ID! }`, field.astNode);
    return null;
  }
  const fields = Object.values(named.getFields());
  const idField = fields[0];
  if (fields.length !== 1 || !idField || unwrap(idField.type).named.name !== 'ID' || !unwrap(idField.type).nonNull || unwrap(idField.type).list) {
    problems.add(`${at} @get(by: NODE)`, `${named.name} must have exactly one field, of type ID! (the global id)`, named.astNode ?? field.astNode);
    return null;
  }
  const id = argType(field, 'id');
  if (field.args.length !== 1 || !id || id.named.name !== 'ID' || !id.nonNull) problems.add(`${at} @get(by: NODE)`, 'takes exactly the argument id: ID!', field.astNode);
  if (access) problems.add(`${at} @access`, 'node(id) follows the rule of each item type\'s own root field (docs/api.md); it takes no @access of its own', field.astNode);
  if (idField.name === 'id' && [...items.values()].length > 0) {
    problems.add(`${at} @get(by: NODE)`, `${named.name}.id would replace every item type's own id: name the global id field otherwise (e.g. globalId)`, named.astNode ?? field.astNode);
  }
  return { kind: 'node', field: field.name, interface: named.name, idField: idField.name, access };
}

/** @get(by: CALLER): a plain object type whose every field returns a type with a claim, found by its id alone. */
function readMeField(field: Field, at: string, items: ReadonlyMap<string, ItemType>, access: Access | null, problems: Problems): MeField | null {
  const { named, list } = unwrap(field.type);
  if (!isObjectType(named) || list || items.has(named.name) || field.args.length > 0) {
    problems.add(`${at} @get(by: CALLER)`, `returns ${named.name}${list ? ' as a list' : ''}; @get(by: CALLER) takes no arguments and returns an object type with one field per type with a claim`, field.astNode);
    return null;
  }
  const owners: MeField['owners'] = [];
  for (const f of Object.values(named.getFields())) {
    const t = unwrap(f.type);
    const item = items.get(t.named.name);
    if (!item || t.list || t.nonNull || f.args.length > 0) {
      problems.add(`${named.name}.${f.name}`, `a field of the @get(by: CALLER) type ${named.name} returns one item type with a claim, nullable (null when the token names none)`, f.astNode);
    } else if (!item.owner) {
      problems.add(`${named.name}.${f.name}`, `${item.name} has no @item(claim:): nothing says which of its items a caller owns`, f.astNode);
    } else if (item.parent && !item.inverted) {
      problems.add(`${named.name}.${f.name}`, `${item.name} is a child type found only with its parent's id, which a claim does not hold`, f.astNode);
    } else {
      owners.push({ field: f.name, type: item.name });
    }
  }
  return { kind: 'me', field: field.name, type: named.name, owners, access };
}

function argType(field: Field, name: string) {
  const arg = field.args.find((a) => a.name === name);
  return arg ? unwrap(arg.type) : null;
}

/** One Mutation field being read: where problems are reported, and its access rule. */
interface MutationReading {
  schema: GraphQLSchema;
  field: Field;
  problems: Problems;
  at: string;
  where: string;
  access: ReturnType<typeof readAccess>;
}

function readMutation(
  schema: GraphQLSchema,
  field: Field,
  items: ReadonlyMap<string, ItemType>,
  relations: ReadonlyMap<string, Relation>,
  problems: Problems,
): MutationField | null {
  const at = `Mutation.${field.name}`;
  const directive = only(field, MUTATION_DIRECTIVES, at, problems);
  if (!directive) return null;
  const m: MutationReading = { schema, field, problems, at, where: `${at} @${directive}`, access: readAccess(schema, field, at, problems) };
  if (directive === 'create' || directive === 'update') return readWriteMutation(m, directive, items);
  if (directive === 'delete') return readDeleteMutation(m, items);
  return readLinkMutation(m, directive === 'addEdge' ? 'link' : 'unlink', relations);
}

function needId({ field, problems, where }: MutationReading, item: ItemType): void {
  const id = argType(field, 'id');
  // A type with a derived id is also found by its key's values (keyArguments).
  if (!id && item.derivedId) return;
  if (!id || id.named.name !== 'ID' || !id.nonNull) problems.add(where, 'takes the argument id: ID!', field.astNode);
}

function needInput({ field, problems, where }: MutationReading): string | null {
  const input = argType(field, 'input');
  if (!input || !isInputObject(input.named)) {
    problems.add(where, 'takes the argument input of an input object type', field.astNode);
    return null;
  }
  return input.named.name;
}

function readWriteMutation(m: MutationReading, directive: 'create' | 'update', items: ReadonlyMap<string, ItemType>): MutationField | null {
  const { schema, field, problems, where, access } = m;
  const returned = unwrap(field.type).named.name;
  const item = items.get(returned);
  if (!item) {
    problems.add(where, `returns ${returned}, which is no @item type`, field.astNode);
    return null;
  }
  const input = needInput(m);
  if (input) checkInput(schema, input, item, directive, problems);
  if (directive === 'update') {
    needId(m, item);
    const parentArgument = childParent(schema, 'update', field, item, where, problems);
    return { kind: 'update', field: field.name, type: item.name, input: input ?? '', parentArgument, keyArguments: keyArguments(field, item, parentArgument, where, problems), access };
  }
  const parentArgument = (directiveArgs(schema, 'create', field) ?? {}).parent;
  const parentArg = typeof parentArgument === 'string' ? parentArgument : null;
  if (item.parent && parentArg === null) problems.add(where, `${item.name} is a child of ${item.parent.type}: name the argument holding its id in parent`, field.astNode);
  if (!item.parent && parentArg !== null) problems.add(`${where}(parent)`, `${item.name} has no @parent field`, field.astNode);
  if (parentArg !== null && !argType(field, parentArg)) problems.add(`${where}(parent)`, `names no argument of the field: ${parentArg}`, field.astNode);
  return { kind: 'create', field: field.name, type: item.name, input: input ?? '', parentArgument: parentArg, access };
}

function readDeleteMutation(m: MutationReading, items: ReadonlyMap<string, ItemType>): MutationField | null {
  const { schema, field, problems, where, access } = m;
  const args = directiveArgs(schema, 'delete', field) ?? {};
  const named = typeof args.type === 'string' ? args.type : unwrap(field.type).named.name;
  const item = items.get(named);
  if (!item) {
    problems.add(where, `deletes ${named}, which is no @item type (return the type, or name it in @delete(type))`, field.astNode);
    return null;
  }
  needId(m, item);
  const parentArgument = childParent(schema, 'delete', field, item, where, problems);
  const match = Array.isArray(args.match) ? (args.match as string[]) : [];
  for (const name of match) {
    const attribute = item.attributes.find((a) => a.name === name);
    if (!attribute || attribute.reference) problems.add(`${where}(match)`, `${name} is no stored field of ${item.name} holding a scalar or an enum`, field.astNode);
    else if (!field.args.some((a) => a.name === name)) problems.add(`${where}(match)`, `takes no argument ${name} holding the value ${item.name}.${name} must have`, field.astNode);
  }
  if (match.length > 0 && item.parent) problems.add(`${where}(match)`, `${item.name} is a child type: match is not supported on a child's delete yet`, field.astNode);
  return { kind: 'delete', field: field.name, type: item.name, parentArgument, keyArguments: keyArguments(field, item, parentArgument, where, problems), match, access };
}

function readLinkMutation(m: MutationReading, directive: 'link' | 'unlink', relations: ReadonlyMap<string, Relation>): MutationField | null {
  const { schema, field, problems, where, access } = m;
  const args = directiveArgs(schema, directive === 'link' ? 'addEdge' : 'removeEdge', field) ?? {};
  const path = String(args.edges);
  const relation = relations.get(path);
  if (!relation || relation.kind !== 'edges') {
    problems.add(`${where}(edges)`, `names no @edges field: ${path} (write Type.field)`, field.astNode);
    return null;
  }
  const from = String(args.from);
  const to = String(args.to);
  for (const name of [from, to]) {
    const t = argType(field, name);
    if (!t || t.named.name !== 'ID') problems.add(where, `names the argument ${name}, which the field does not take as ID`, field.astNode);
  }
  // The answer: link's the new edge as the base side's connection shows it (its node the base side's node), unlink's true.
  const baseSide = relation.direction === 'base' ? relation : relations.get(`${relation.node}.${relation.inverse}`);
  const answer = unwrap(field.type);
  if (directive === 'link' && baseSide?.kind === 'edges' && (answer.list || answer.named.name !== baseSide.edgeType)) {
    problems.add(where, `returns ${String(field.type)}; it answers the new edge: return ${baseSide.edgeType}!`, field.astNode);
  }
  if (directive === 'unlink' && (answer.list || answer.named.name !== 'Boolean')) {
    problems.add(where, `returns ${String(field.type)}; it answers true: return Boolean!`, field.astNode);
  }
  const keyFields = baseSide?.kind === 'edges' ? edgeKeyFields(baseSide, relations) : { fields: [], ownId: false, attributes: [] };
  if (directive === 'unlink') checkUnlinkKeyArguments(m, path, keyFields);
  if (directive === 'link') checkLinkArguments(m, relation, from, to, keyFields.ownId);
  return { kind: directive, field: field.name, edges: path, from, to, phrase: typeof args.phrase === 'string' ? args.phrase : null, access };
}

/** The edge fields a pair's keys hold (the base item's and a mirror's) and whether they hold the edge's own id: an unlink finds the edge by them. */
function edgeKeyFields(base: EdgesRelation, relations: ReadonlyMap<string, Relation>): { fields: string[]; ownId: boolean; attributes: Attribute[] } {
  const mirror = inverseSideOf(base, relations);
  const ownId = base.key?.ownId === true;
  const fields = [...new Set([...(base.key?.fields ?? []), ...(mirror?.key?.fields ?? []), ...(ownId ? ['id'] : [])])];
  return { fields, ownId, attributes: [...base.edgeAttributes, ...(mirror?.edgeAttributes ?? [])] };
}

/** An unlink takes an argument for each field the pair's keys hold, of its kind. */
function checkUnlinkKeyArguments({ field, problems, at, where }: MutationReading, path: string, held: { fields: string[]; attributes: Attribute[] }): void {
  for (const name of held.fields) {
    const arg = field.args.find((x) => x.name === name);
    const a = held.attributes.find((x) => x.name === name);
    if (!arg) problems.add(where, `takes no argument ${name}, which the key of ${path}'s edges holds: an unlink finds the edge by it`, field.astNode);
    else if (a) checkKind(`${at}(${name})`, unwrap(arg.type), a, `the edge field ${name}`, arg.astNode ?? field.astNode, problems);
  }
}

/** A link's arguments beside from and to: each an edge field, of its kind; every required edge field among them (an own id is generated when not given). */
function checkLinkArguments({ field, problems, at, where }: MutationReading, relation: EdgesRelation, from: string, to: string, ownId: boolean): void {
  const edgeFields = new Set(relation.edgeAttributes.map((a) => a.name));
  for (const a of field.args) {
    if (a.name !== from && a.name !== to && !edgeFields.has(a.name)) problems.add(`${at}(${a.name})`, `is no edge field of ${relation.edgeType}`, field.astNode);
  }
  // An edge written without a required field could not be read back (a non-null field would be null).
  for (const a of relation.edgeAttributes) {
    if (a.createdAt) continue;
    const arg = field.args.find((x) => x.name === a.name);
    if (a.name === 'id' && ownId) {
      if (arg) checkKind(`${at}(id)`, unwrap(arg.type), a, `the edge's own id ${relation.edgeType}.id`, arg.astNode ?? field.astNode, problems);
      continue;
    }
    if (!arg) {
      if (a.required) problems.add(where, `takes no argument ${a.name}, so its edges would lack the required edge field ${relation.edgeType}.${a.name}`, field.astNode);
      continue;
    }
    checkKind(`${at}(${a.name})`, unwrap(arg.type), a, `the edge field ${relation.edgeType}.${a.name}`, arg.astNode ?? field.astNode, problems);
    if (a.required && !unwrap(arg.type).nonNull) problems.add(`${at}(${a.name})`, `must be non-null: the edge field ${relation.edgeType}.${a.name} is required`, arg.astNode ?? field.astNode);
  }
}

/**
 * The arguments of an @update/@delete holding the values of the fields a
 * type's key holds besides id and parent (`sentAt` for `msg#{sentAt}#{id}`):
 * the item's key is built from them, as @get's arguments build it.
 */
function keyArguments(field: Field, item: ItemType, parentArgument: string | null, where: string, problems: Problems): Record<string, string> {
  if (item.derivedId) return derivedIdArguments(field, item, item.derivedId, parentArgument, where, problems);
  const found: Record<string, string> = {};
  for (const f of item.keyFields) {
    const candidates = [f, `${f}Id`];
    const arg = candidates.find((c) => field.args.some((a) => a.name === c));
    if (!arg) problems.add(where, `${item.name}'s key holds {${f}}: take it in an argument ${f} (its id alone does not find the item)`, field.astNode);
    else found[f] = arg;
  }
  return found;
}

/**
 * The arguments of an @update/@delete of a type with a derived id: none
 * when it takes id (the id alone finds it), else one per value of its key
 * (the parent's id among them, in the argument `parent` names).
 */
function derivedIdArguments(field: Field, item: ItemType, placeholders: readonly string[], parentArgument: string | null, where: string, problems: Problems): Record<string, string> {
  const found: Record<string, string> = {};
  if (field.args.some((a) => a.name === 'id')) return found;
  const missing: string[] = [];
  for (const p of placeholders) {
    const candidates = p === item.parent?.field && parentArgument !== null ? [parentArgument] : [p, `${p}Id`];
    const arg = candidates.find((c) => field.args.some((a) => a.name === c));
    if (!arg) missing.push(`${candidates.join(' or ')} for {${p}}`);
    else found[p] = arg;
  }
  if (missing.length > 0) problems.add(where, `${item.name}'s id is derived from its key: take id: ID!, or every value of the key (missing: ${missing.join(', ')})`, field.astNode);
  return found;
}

/**
 * The argument holding the parent's id of an @update/@delete of a child
 * type (`parent`): required unless the type is inverted (found by its id
 * alone through GSI1); refused on a type without a parent.
 */
function childParent(schema: GraphQLSchema, directive: 'update' | 'delete', field: Field, item: ItemType, where: string, problems: Problems): string | null {
  const given = (directiveArgs(schema, directive, field) ?? {}).parent;
  const parent = typeof given === 'string' ? given : null;
  if (item.parent && parent === null && !item.inverted && !item.derivedId) {
    problems.add(where, `${item.name} is a child of ${item.parent.type}: name the argument holding its id in parent`, field.astNode);
  }
  if (!item.parent && parent !== null) problems.add(`${where}(parent)`, `${item.name} has no @parent field`, field.astNode);
  if (parent !== null) {
    const t = argType(field, parent);
    if (!t || t.named.name !== 'ID') problems.add(`${where}(parent)`, `names no argument of the field taking an ID: ${parent}`, field.astNode);
  }
  return parent;
}

/** The fields of a create/update input are id (create only) or stored fields of the type, or a shard count (@edges(shards)). */
function checkInput(schema: GraphQLSchema, inputName: string, item: ItemType, directive: 'create' | 'update', problems: Problems): void {
  const input = schema.getType(inputName) as unknown as GraphQLObjectType;
  const counts = new Set(item.relations.flatMap((r) => (r.kind === 'edges' && r.sharded ? [r.sharded.count] : [])));
  const fields = input.getFields();
  for (const f of Object.values(fields)) {
    if (f.name === 'id' && directive === 'create') {
      if (item.derivedId) problems.add(`${inputName}.id`, `${item.name}'s key names no {id}: its id is derived from the key's values (${item.derivedId.join(', ')}), so a create takes none`, f.astNode);
      continue;
    }
    if (directive === 'create' && counts.has(f.name)) continue;
    const attribute = item.attributes.find((a) => a.name === f.name && !a.createdAt);
    if (!attribute) {
      problems.add(`${inputName}.${f.name}`, `is no stored field of ${item.name} that a ${directive} may set`, f.astNode);
      continue;
    }
    if (attribute.shape) {
      // A map or list takes an input of the same shape (nestedValues.ts).
      const mismatch = inputMismatch(f.type as GraphQLInputType, attribute.shape, `${inputName}.${f.name}`);
      if (mismatch) problems.add(`${inputName}.${f.name}`, `${mismatch} (${item.name}.${f.name})`, f.astNode);
    } else checkKind(`${inputName}.${f.name}`, unwrap(f.type), attribute, `${item.name}.${f.name}`, f.astNode, problems);
    const at = `${inputName}.${f.name}`;
    const counted = item.countedBy?.find((c) => c.counter === attribute.storedAs);
    if (attribute.sequence) {
      problems.add(at, `${item.name}.${f.name} takes the next number of its parent's sequence ${attribute.sequence.attribute} at create: remove it from the ${directive} input`, f.astNode);
    } else if (counted) {
      problems.add(at, `${item.name}.${f.name} counts the ${counted.type} items referring to it (${counted.type}.${counted.field} @attribute(counter)), kept by their creates and deletes: remove it from the ${directive} input`, f.astNode);
    } else if (directive === 'update' && item.keyFields.includes(f.name)) {
      problems.add(at, `${item.name}.${f.name} is in ${item.name}'s table key, which an update cannot change: remove it from the update input`, f.astNode);
    } else if (directive === 'update' && attribute.counter !== undefined) {
      problems.add(at, `${item.name}.${f.name} is counted on the ${attribute.reference?.type} it refers to (@attribute(counter: "${attribute.counter}")): an update cannot move the item from one count to another; remove it from the update input`, f.astNode);
    } else if (directive === 'update') {
      checkIndexKeyUpdate(at, f.name, item, new Set(Object.keys(fields)), problems, f.astNode);
    }
  }
  if (directive !== 'create') return;
  // A create without a required field would refuse every call (or store an item that cannot be read back).
  for (const a of item.attributes) {
    if (!a.required || a.createdAt || a.sequence) continue;
    const f = fields[a.name];
    if (!f) problems.add(`${inputName}`, `has no field ${a.name}: every ${item.name} needs it (${item.name}.${a.name} is required)`, input.astNode);
    else if (!unwrap(f.type).nonNull) problems.add(`${inputName}.${a.name}`, `must be non-null: ${item.name}.${a.name} is required`, f.astNode);
  }
}

/**
 * An update input field held by a key the type writes from a template in
 * a declared index: the update writes that key attribute again, whole, in
 * its UpdateItem (writes/update.ts), so every other field the template
 * holds must be one the update knows: the id, the parent, a table-key
 * field (they find the item), or another field of the same input (which
 * a request must then give with it: BAD_USER_INPUT otherwise, as
 * ElectroDB refuses a patch of part of a key's composite attributes).
 */
function checkIndexKeyUpdate(at: string, field: string, item: ItemType, input: ReadonlySet<string>, problems: Problems, node: unknown): void {
  const known = new Set(['id', ...(item.parent ? [item.parent.field] : []), ...item.keyFields, ...input]);
  for (const placement of item.indexed) {
    // Which shape holds is told by the when field, which the update must then be able to give (it reads nothing).
    const shapeField = placement.when && (placement.when.field === field || [...placement.pk, ...placement.sk].some((p) => p.written && p.template.placeholders.includes(field)));
    if (shapeField && !input.has(placement.when!.field)) {
      problems.add(at, `${item.name}.${field} is in ${item.name}'s keys in the index ${placement.index}, whose shape ${placement.when!.field} chooses (@indexed(when:)): an update writes the shape that holds without a read, so the input needs ${placement.when!.field} too (or leave ${field} out of it)`, node as never);
      return;
    }
    for (const part of [...placement.pk, ...placement.sk]) {
      if (!part.written || !part.template.placeholders.includes(field)) continue;
      const missing = part.template.placeholders.filter((p) => !known.has(p));
      if (missing.length === 0) continue;
      const list = missing.map((p) => `{${p}}`).join(', ');
      problems.add(
        at,
        `${item.name}.${field} is in ${item.name}'s key in the index ${placement.index} ("${part.template.source}"), which also holds ${list}: an update writes ${part.attribute} whole, from values it is given, so the input needs ${missing.join(', ')} too (or leave ${field} out of it)`,
        node as never,
      );
    }
  }
}

/** Text (String, ID) takes either; any other kind the same (an enum one with the same values). */
function checkKind(at: string, given: ReturnType<typeof unwrap>, a: Attribute, what: string, node: unknown, problems: Problems): void {
  const kind = scalarKind(given.named.name, isEnumType(given.named));
  const text = (k: string | null) => k === 'String' || k === 'ID';
  const values = isEnumType(given.named) ? storedEnumValues(given.named).join() : undefined;
  const fits = !given.list && (kind === a.kind || (text(kind) && text(a.kind))) && (a.kind !== 'enum' || values === a.values?.join());
  const stored = a.kind === 'enum' ? `an enum of ${a.values?.join(', ')}` : a.kind;
  if (!fits) problems.add(at, `takes ${given.list ? `[${given.named.name}]` : given.named.name}, but ${what} is ${stored}`, node as never);
}

/**
 * GSI2 holds the catalogs' entries (partitions `<key>#<k>`, k < shards, with
 * one counter item each in the table) and the entries of keys by instant
 * (@indexed(index: "GSI2"), partitions from their templates). Two catalogs
 * with one key would share entries and counters (each totalCount counting
 * both), and an instant-key partition that can equal a catalog's would put one's items in the
 * other's reads: both are refused.
 */
function checkGsi2Partitions(schema: GraphQLSchema, items: ReadonlyMap<string, ItemType>, queries: readonly RootField[], problems: Problems): void {
  const catalogs = queries.filter((q): q is CatalogField => q.kind === 'catalog');
  const node = (field: string) => schema.getQueryType()?.getFields()[field]?.astNode;
  catalogs.forEach((c, i) => {
    const first = catalogs.slice(0, i).find((o) => o.key === c.key);
    if (first) problems.add(`Query.${c.field} @catalog(key)`, `${c.key} is already the key of Query.${first.field}'s catalog: each catalog needs a key of its own`, node(c.field));
    for (const item of items.values()) {
      if (!item.byInstant) continue;
      const shard = Array.from({ length: Number.isInteger(c.shards) && c.shards > 0 ? Math.min(c.shards, 64) : 1 }, (_, k) => k).find((k) => item.byInstant!.pk.match(`${c.key}#${k}`) !== null);
      if (shard !== undefined) {
        problems.add(`${item.name} @indexed(index: "GSI2", pk)`, `"${item.byInstant.pk.source}" can name "${c.key}#${shard}", a partition of Query.${c.field}'s catalog in GSI2: one would read the other's entries`, schema.getType(item.name)?.astNode);
      }
    }
  });
}
