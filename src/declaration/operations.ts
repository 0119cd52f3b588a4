/**
 * Phase 7: root fields (Query) and mutations. Every root field is bound by
 * @get or @catalog, every mutation by @create, @update, @delete, @addEdge or
 * @removeEdge; their arguments must fill what the directive needs.
 * Subscription fields are bound by the subscription directives, read
 * elsewhere.
 */
import { isAbstractType, isInterfaceType, isNonNullType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Access, CatalogField, GetField, ItemType, KeylessType, Layout, MeField, MutationField, NodeField, QueryField, Relation, RootField } from './model.js';
import { keyIn, readSortArguments } from './indexed.js';
import type { Problems } from './problems.js';
import { connectionShape, directiveArgs, directivesOn, getByOf, unwrap, type Field } from './schemaShape.js';
import { checkAccess, readAccess } from './access.js';
import { argType, MUTATION_DIRECTIVES, only, readMutation } from './mutationFields.js';

const QUERY_DIRECTIVES = ['get', 'catalog', 'query'];

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
  const key = keyIn(node, index, layout);
  if (!key) {
    problems.add(where, `${node.name} has no key with a sort attribute in ${index ?? 'the table'} (declare it with @indexed)`, field.astNode);
    return null;
  }
  const argNames = field.args.map((a) => a.name);
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
    arguments: filled,
    bounds: from === null && until === null ? null : { from, until },
    sortArguments,
    descending: args.order === 'DESCENDING',
    access,
  };
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
