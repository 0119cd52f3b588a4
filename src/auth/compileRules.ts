/**
 * compileRules(): the model's @access declarations → the Rules every field
 * is checked with (rules.ts finds a field's rule; docs/auth.md, "The
 * rules"). Compiled once per model; nothing on the request path reads
 * directives. Declarations come from fields (item fields, relations, root
 * and mutation fields) and types (item types, Query, Mutation).
 *
 * An administrator passes every rule. ANYONE: everyone (the field is not
 * wrapped); SIGNED_IN: a verified token; ADMIN: administrators; OWNER of
 * type O: a caller whose token names the O item whose id is the field's
 * `argument`, the parent object's `field` (`id`: the object itself; a
 * @parent field: the parent's id the record holds), or the result's
 * `resultField` (a caller owning no O item is refused before the read).
 * Throws ModelError for an @item(claimSetting:) config.ts would never read.
 */
import { Kind, type DocumentNode, type TypeNode } from 'graphql';
import type { Access, GetField, ItemType, Model, NodeField } from '../declaration/model.js';
import { invariant } from '../errors.js';
import { parentIdProperty } from '../plan/records.js';
import { parseGlobalId } from '../plan/globalId.js';
import type { Identity } from './identity.js';
import { ownerClaims } from './ownerClaims.js';
import { ADMIN, ANYONE, isWrapperName, SIGNED_IN, type Parent, type Rule, type Rules } from './rules.js';

const idOf = (value: unknown): unknown => (value !== null && typeof value === 'object' ? (value as Parent).id : value);

/** Reads the id an object of type `item` holds in `field`: its parent's id for the @parent field, else the field (an id, or an object with one). */
function idReader(item: ItemType | undefined, field: string): (object: Parent) => unknown {
  if (item?.parent?.field !== field) return (object) => idOf(object[field]);
  const property = parentIdProperty(field);
  return (object) => object[property] ?? idOf(object[field]);
}

const owns = (caller: Identity, type: string, id: unknown): boolean => {
  if (caller.kind !== 'caller') return false;
  const own = caller.owns.get(type);
  return own !== undefined && own === id;
};

/** `TeamMember` → `team member`, for rule names in messages. */
const words = (type: string) => type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** The named return type of every `Type.field` of the model's object types. */
function returnTypes(document: DocumentNode): Map<string, string> {
  const named = (t: TypeNode): string => (t.kind === Kind.NAMED_TYPE ? t.name.value : named(t.type));
  const types = new Map<string, string>();
  for (const def of document.definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    for (const field of def.fields ?? []) types.set(`${def.name.value}.${field.name.value}`, named(field.type));
  }
  return types;
}

/** `on`: the item type of the parent object (a field or type rule); `result`: the field's return type. */
function compile(access: Access, on: ItemType | undefined, result: { name: string; item: ItemType | undefined } | undefined): Rule {
  switch (access.rule) {
    case 'ANYONE':
      return ANYONE;
    case 'SIGNED_IN':
      return SIGNED_IN;
    case 'ADMIN':
      return ADMIN;
    case 'OWNER': {
      const type = access.of!;
      const { argument, field, resultField } = access;
      const themselves = `the ${words(type)} themselves`;
      if (argument !== null) return { name: themselves, allows: (c, _, args) => owns(c, type, args[argument]) };
      if (field !== null) {
        const idOfParent = idReader(on, field);
        return { name: themselves, allows: (c, parent) => owns(c, type, idOfParent(parent)) };
      }
      const idOfResult = idReader(result?.item, resultField!);
      return {
        name: `the ${result ? `${words(result.name)}'s` : "result's"} ${words(type)}`,
        allows: (c) => c.kind === 'caller' && c.owns.has(type),
        allowsResult: (c, value) => owns(c, type, idOfResult(value)),
      };
    }
    default: {
      const never: never = access.rule;
      invariant(false, `unknown access rule ${String(never)}`);
    }
  }
}

/**
 * node(id:) reads an item as its type's own @get field does, so it follows
 * that field's rule, with the ids from the global id as the @get's
 * arguments (an OWNER rule on a result field is checked on the item read).
 * A type without a @get field follows its type's rule (who may read its
 * fields), else the Query type's default. A global id that does not parse
 * passes here: the resolver refuses it (BAD_USER_INPUT) before any read.
 */
function nodeRule(model: Declarations, node: NodeField, fieldRules: Map<string, Rule>, typeRules: Map<string, Rule>): Rule {
  const perType = new Map<string, { rule: Rule; args: (ids: string[]) => Record<string, unknown> }>();
  for (const item of model.items.values()) {
    if (item.globalId === null) continue;
    const get = model.queries.find((q): q is GetField => q.kind === 'get' && q.type === item.name);
    const rule = (get ? fieldRules.get(`Query.${get.field}`) : typeRules.get(item.name)) ?? typeRules.get('Query') ?? ADMIN;
    const parentField = item.parent?.field;
    const args = (ids: string[]): Record<string, unknown> => {
      if (!get) return {};
      const id = ids[ids.length - 1];
      const values: Record<string, unknown> = { [get.arguments.id ?? 'id']: id };
      const parentArg = parentField === undefined ? undefined : get.arguments[parentField];
      if (parentArg !== undefined && ids.length === 2) values[parentArg] = ids[0];
      return values;
    };
    perType.set(item.name, { rule, args });
  }
  return {
    name: "callers allowed by the item type's own root field",
    allows: (caller, parent, args) => {
      const parsed = parseGlobalId(args.id);
      const found = parsed && perType.get(parsed.type);
      if (!parsed || !found) return true;
      return !found.rule.allows || found.rule.allows(caller, parent, found.args(parsed.ids));
    },
    allowsResult: (caller, result) => {
      const found = perType.get(String(result.__typename));
      return !found?.rule.allowsResult || found.rule.allowsResult(caller, result);
    },
  };
}

type Declarations = Pick<Model, 'source' | 'document' | 'items' | 'relations' | 'queries' | 'mutations' | 'rootAccess'> &
  Partial<Pick<Model, 'keyless' | 'collections'>>;

export function compileRules(model: Declarations): Rules {
  // A model whose @item(claimSetting:) the environment could never set is refused here too, whatever AUTH_MODE.
  ownerClaims(model);
  const results = returnTypes(model.document);
  const typeRules = new Map<string, Rule>();
  const fieldRules = new Map<string, Rule>();
  const onField = (type: string, field: string, access: Access | null) => {
    if (!access) return;
    const key = `${type}.${field}`;
    const returned = results.get(key);
    const result = returned === undefined ? undefined : { name: returned, item: model.items.get(returned) };
    fieldRules.set(key, compile(access, model.items.get(type), result));
  };

  for (const root of ['Query', 'Mutation'] as const) {
    const access = model.rootAccess[root];
    if (access) typeRules.set(root, compile(access, undefined, undefined));
  }
  for (const item of model.items.values()) {
    if (item.access) typeRules.set(item.name, compile(item.access, item, undefined));
    for (const [field, access] of Object.entries(item.fieldAccess)) onField(item.name, field, access);
  }
  for (const relation of model.relations.values()) onField(relation.owner, relation.field, relation.access);
  for (const collection of model.collections?.values() ?? []) onField(collection.owner, collection.field, collection.access);
  for (const query of model.queries) onField('Query', query.field, query.access);
  for (const mutation of model.mutations) onField('Mutation', mutation.field, mutation.access);
  // The global id says no more than the id: whoever may read one may read the other.
  for (const item of model.items.values()) {
    const idRule = fieldRules.get(`${item.name}.id`);
    if (item.globalId !== null && idRule) fieldRules.set(`${item.name}.${item.globalId}`, idRule);
  }
  for (const query of model.queries) {
    if (query.kind === 'node') fieldRules.set(`Query.${query.field}`, nodeRule(model, query, fieldRules, typeRules));
  }

  // Connection and edge types the model declares, whatever their names; PageInfo and Relay names besides.
  const wrappers = new Set<string>();
  for (const relation of model.relations.values()) wrappers.add(relation.connectionType).add(relation.edgeType);
  for (const collection of model.collections?.values() ?? []) wrappers.add(collection.connectionType).add(collection.edgeType);
  for (const query of model.queries) {
    // The @get(by: CALLER) type holds the caller's own items: its fields need no rule (each item's fields keep theirs).
    if (query.kind === 'me') wrappers.add(query.type);
    if (query.kind !== 'catalog' && query.kind !== 'query') continue;
    wrappers.add(query.connectionType);
    const edge = results.get(`${query.connectionType}.edges`);
    if (edge) wrappers.add(edge);
  }

  // A keyless type is its id alone: whoever may read the field that refers to it may read that.
  for (const name of model.keyless?.keys() ?? []) wrappers.add(name);

  // Each subscription is checked by the rules of the query that reads the same thing (src/subscriptions/access.ts),
  // its change objects (not item types) are wrappers like connections.
  typeRules.set('Subscription', ANYONE);
  for (const [path, returned] of results) {
    if (path.startsWith('Subscription.') && !model.items.has(returned)) wrappers.add(returned);
  }

  return {
    fields: [...fieldRules.keys()],
    ruleFor(type, field) {
      const rule = fieldRules.get(`${type}.${field}`) ?? typeRules.get(type);
      if (rule) return rule;
      return wrappers.has(type) || isWrapperName(type) ? null : ADMIN;
    },
  };
}
