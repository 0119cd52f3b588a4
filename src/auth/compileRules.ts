/**
 * compileRules(): the model's @access declarations → the Rules every field
 * is checked with (rules.ts says how a field's rule is found). Compiled
 * once per model; nothing on the request path reads directives.
 *
 * In: the Model (buildModel.ts has checked that an OWNER rule names an
 * @owner type and exactly one of argument, field, resultField). Out:
 * ruleFor(type, field), from these declarations:
 * - on a field: `Model.items.get(T).fieldAccess[f]`, a relation's `access`
 *   (`Model.relations.get('T.f')`), a root or mutation field's `access`;
 * - on a type: `Model.items.get(T).access`, `Model.rootAccess.Query/Mutation`.
 *
 * What each rule allows (an administrator passes all of them):
 * - ANYONE: everyone, with or without a token (the field is not wrapped);
 * - SIGNED_IN: any caller whose token verified;
 * - ADMIN: administrators only;
 * - OWNER of type O: a caller whose token names the O item (identity.ts
 *   `owns`) whose id is
 *   - `argument`: the field's argument of that name (`join(playerId:)`);
 *   - `field`: the parent object's field of that name, `id` being the
 *     object itself; for a @parent field the record holds the parent's id
 *     under `<field>Id` (a match record's `teamId` for its `team`),
 *     or the parent itself under `<field>` (its `id` is read);
 *   - `resultField`: the same, on the resolver's result (a root field whose
 *     owner is known only once read): a caller who owns no O item at all is
 *     refused before anything is read, anyone else once the result says
 *     whose it is (a missing item stays a plain null).
 * Throws ModelError for an @owner setting config.ts would never read.
 */
import { Kind, type DocumentNode, type TypeNode } from 'graphql';
import type { Access, Model } from '../declaration/model.js';
import type { Identity } from './identity.js';
import { ownerClaims } from './ownerClaims.js';
import { ADMIN, ANYONE, isWrapperName, SIGNED_IN, type Parent, type Rule, type Rules } from './rules.js';

/** The id an object holds in `field`: `<field>Id` (a parent's id in a record), else `<field>` itself (an id, or an object with one). */
export function idIn(object: Parent, field: string): unknown {
  const value = object[`${field}Id`] ?? object[field];
  return value !== null && typeof value === 'object' ? (value as Parent).id : value;
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

function compile(access: Access, resultType: string | undefined): Rule {
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
      if (field !== null) return { name: themselves, allows: (c, parent) => owns(c, type, idIn(parent, field)) };
      return {
        name: `the ${resultType ? `${words(resultType)}'s` : "result's"} ${words(type)}`,
        allows: (c) => c.kind === 'caller' && c.owns.has(type),
        allowsResult: (c, result) => owns(c, type, idIn(result, resultField!)),
      };
    }
    default: {
      const never: never = access.rule;
      throw new Error(`Invariant violation: unknown access rule ${String(never)}`);
    }
  }
}

type Declarations = Pick<Model, 'source' | 'document' | 'items' | 'relations' | 'queries' | 'mutations' | 'rootAccess'>;

export function compileRules(model: Declarations): Rules {
  // A model whose @owner setting the environment could never set is refused here too, whatever AUTH_MODE.
  ownerClaims(model);
  const results = returnTypes(model.document);
  const typeRules = new Map<string, Rule>();
  const fieldRules = new Map<string, Rule>();
  const onField = (type: string, field: string, access: Access | null) => {
    const key = `${type}.${field}`;
    if (access) fieldRules.set(key, compile(access, results.get(key)));
  };

  for (const root of ['Query', 'Mutation'] as const) {
    const access = model.rootAccess[root];
    if (access) typeRules.set(root, compile(access, undefined));
  }
  for (const item of model.items.values()) {
    if (item.access) typeRules.set(item.name, compile(item.access, undefined));
    for (const [field, access] of Object.entries(item.fieldAccess)) onField(item.name, field, access);
  }
  for (const relation of model.relations.values()) onField(relation.owner, relation.field, relation.access);
  for (const query of model.queries) onField('Query', query.field, query.access);
  for (const mutation of model.mutations) onField('Mutation', mutation.field, mutation.access);

  // Connection and edge types the model declares, whatever their names; PageInfo and Relay names besides.
  const wrappers = new Set<string>();
  for (const relation of model.relations.values()) wrappers.add(relation.connectionType).add(relation.edgeType);
  for (const query of model.queries) {
    if (query.kind !== 'catalog') continue;
    wrappers.add(query.connectionType);
    const edge = results.get(`${query.connectionType}.edges`);
    if (edge) wrappers.add(edge);
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
