/**
 * Phase 7, mutations: each mutation field bound by @create, @update,
 * @delete, @addEdge or @removeEdge, its arguments and input checked
 * against what its directive needs (operations.ts reads the root fields).
 */
import { inputMismatch } from './nestedValues.js';
import { isEnumType, type GraphQLInputType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Attribute, EdgesRelation, ItemType, MutationField, Relation } from './model.js';
import type { Problems } from './problems.js';
import { directiveArgs, directivesOn, isInputObject, unwrap, type Field } from './schemaShape.js';
import { readAccess } from './access.js';
import { scalarKind } from './itemTypes.js';
import { storedEnumValues } from './storedText.js';
import { inverseSideOf } from './edgeLayout.js';

export const MUTATION_DIRECTIVES = ['create', 'update', 'delete', 'addEdge', 'removeEdge'];

/** The one directive of `names` binding `field`, or null (a problem added). */
export function only(field: Field, names: string[], at: string, problems: Problems): string | null {
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

export function argType(field: Field, name: string) {
  const arg = field.args.find((a) => a.name === name);
  return arg ? unwrap(arg.type) : null;
}

/** One Mutation field being read: where problems are reported, and its access rule. */
export interface MutationReading {
  schema: GraphQLSchema;
  field: Field;
  problems: Problems;
  at: string;
  where: string;
  access: ReturnType<typeof readAccess>;
}

export function readMutation(
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

export function needId({ field, problems, where }: MutationReading, item: ItemType): void {
  const id = argType(field, 'id');
  // A type with a derived id is also found by its key's values (keyArguments).
  if (!id && item.derivedId) return;
  if (!id || id.named.name !== 'ID' || !id.nonNull) problems.add(where, 'takes the argument id: ID!', field.astNode);
}

export function needInput({ field, problems, where }: MutationReading): string | null {
  const input = argType(field, 'input');
  if (!input || !isInputObject(input.named)) {
    problems.add(where, 'takes the argument input of an input object type', field.astNode);
    return null;
  }
  return input.named.name;
}

export function readWriteMutation(m: MutationReading, directive: 'create' | 'update', items: ReadonlyMap<string, ItemType>): MutationField | null {
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

export function readDeleteMutation(m: MutationReading, items: ReadonlyMap<string, ItemType>): MutationField | null {
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

export function readLinkMutation(m: MutationReading, directive: 'link' | 'unlink', relations: ReadonlyMap<string, Relation>): MutationField | null {
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
export function edgeKeyFields(base: EdgesRelation, relations: ReadonlyMap<string, Relation>): { fields: string[]; ownId: boolean; attributes: Attribute[] } {
  const mirror = inverseSideOf(base, relations);
  const ownId = base.key?.ownId === true;
  const fields = [...new Set([...(base.key?.fields ?? []), ...(mirror?.key?.fields ?? []), ...(ownId ? ['id'] : [])])];
  return { fields, ownId, attributes: [...base.edgeAttributes, ...(mirror?.edgeAttributes ?? [])] };
}

/** An unlink takes an argument for each field the pair's keys hold, of its kind. */
export function checkUnlinkKeyArguments({ field, problems, at, where }: MutationReading, path: string, held: { fields: string[]; attributes: Attribute[] }): void {
  for (const name of held.fields) {
    const arg = field.args.find((x) => x.name === name);
    const a = held.attributes.find((x) => x.name === name);
    if (!arg) problems.add(where, `takes no argument ${name}, which the key of ${path}'s edges holds: an unlink finds the edge by it`, field.astNode);
    else if (a) checkKind(`${at}(${name})`, unwrap(arg.type), a, `the edge field ${name}`, arg.astNode ?? field.astNode, problems);
  }
}

/** A link's arguments beside from and to: each an edge field, of its kind; every required edge field among them (an own id is generated when not given). */
export function checkLinkArguments({ field, problems, at, where }: MutationReading, relation: EdgesRelation, from: string, to: string, ownId: boolean): void {
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
export function keyArguments(field: Field, item: ItemType, parentArgument: string | null, where: string, problems: Problems): Record<string, string> {
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
export function derivedIdArguments(field: Field, item: ItemType, placeholders: readonly string[], parentArgument: string | null, where: string, problems: Problems): Record<string, string> {
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
export function childParent(schema: GraphQLSchema, directive: 'update' | 'delete', field: Field, item: ItemType, where: string, problems: Problems): string | null {
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
export function checkInput(schema: GraphQLSchema, inputName: string, item: ItemType, directive: 'create' | 'update', problems: Problems): void {
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
export function checkIndexKeyUpdate(at: string, field: string, item: ItemType, input: ReadonlySet<string>, problems: Problems, node: unknown): void {
  const known = new Set(['id', ...(item.parent ? [item.parent.field] : []), ...item.keyFields, ...input]);
  for (const placement of item.indexed) {
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
export function checkKind(at: string, given: ReturnType<typeof unwrap>, a: Attribute, what: string, node: unknown, problems: Problems): void {
  const kind = scalarKind(given.named.name, isEnumType(given.named));
  const text = (k: string | null) => k === 'String' || k === 'ID';
  const values = isEnumType(given.named) ? storedEnumValues(given.named).join() : undefined;
  const fits = !given.list && (kind === a.kind || (text(kind) && text(a.kind))) && (a.kind !== 'enum' || values === a.values?.join());
  const stored = a.kind === 'enum' ? `an enum of ${a.values?.join(', ')}` : a.kind;
  if (!fits) problems.add(at, `takes ${given.list ? `[${given.named.name}]` : given.named.name}, but ${what} is ${stored}`, node as never);
}
