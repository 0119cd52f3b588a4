/**
 * Maps and lists inside an item: a stored field whose type is a *map type*
 * (an object type without @item and without `id: ID!`), a list of map
 * types, or a list of scalars is held in the item as a DynamoDB map or
 * list (AWS's gaming design keeps `ItemAttributes` and `FriendList` so).
 *
 * In: the built schema and the field. Out: the field's ValueShape, or
 * problems: a list without `@attribute(max:)` (an item holds at most
 * 400 KB: itemSize.ts bounds every list), a list of lists, a map type that
 * holds itself, a map field of a kind no map holds. Also: which object
 * types are map types (their fields may carry @attribute), and whether a
 * mutation's input type matches a map or list field.
 */
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import type { Constraints, MapField, ScalarKind, ValueShape } from './model.js';
import type { Problems } from './problems.js';
import { isObject, isScalarLike, type Field } from './schemaShape.js';
import type { Annotations } from './annotations.js';
import { storedEnumValues } from './storedText.js';

/** A GraphQL type with its non-null and list wrappers read one level at a time. */
interface Layer {
  required: boolean;
  list: GraphQLType | null;
  named: GraphQLType;
}

function layer(type: GraphQLType): Layer {
  const required = isNonNullType(type);
  const inner = required ? type.ofType : type;
  return isListType(inner) ? { required, list: inner.ofType, named: inner } : { required, list: null, named: inner };
}

/** What a map or list may hold, and how its scalars are read (the item fields' own reading, itemTypes.ts). */
export interface NestedContext {
  schema: GraphQLSchema;
  notes: Annotations;
  problems: Problems;
  /** Object types that are items or keyless types: a map holds neither. */
  isEntity(name: string): boolean;
  /** A scalar's kind and constraints; `inList`: an element of a list field (whose @attribute(max:) is the list's length). */
  scalar(field: Field, at: string, named: GraphQLType, inList: boolean): { kind: ScalarKind; values?: readonly string[]; constraints: Constraints } | null;
}

/** Is this field's type one a map or list attribute serves: a map type, a list of one, or a list of scalars? */
export function isNested(type: GraphQLType, isEntity: (name: string) => boolean): boolean {
  const top = layer(type);
  if (top.list !== null) return true;
  const named = top.named;
  return isObject(named as never) && !isEntity((named as GraphQLObjectType).name);
}

/** The most elements a list field may hold: its @attribute(max:), required (an item holds at most 400 KB). */
function listMax(ctx: NestedContext, field: Field, at: string): number {
  const max = ctx.notes.field(field).attribute?.max;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) {
    ctx.problems.add(
      `${at} @attribute(max)`,
      `a list field needs @attribute(max: N), the most elements it may hold (a whole number ≥ 1): an item holds at most 400 KB`,
      field.astNode,
    );
    return 0;
  }
  return max;
}

/**
 * A list of references (`[Product!]!` on an item field): a list of the
 * referred ids, bounded by @attribute(max:) as any list. Null after a problem.
 */
export function referenceListShape(ctx: NestedContext, field: Field, at: string): ValueShape | null {
  const top = layer(field.type);
  const element = top.list === null ? null : layer(top.list);
  if (!element || element.list !== null) {
    ctx.problems.add(at, 'a list of lists is not stored: wrap the inner list in a map type', field.astNode);
    return null;
  }
  const none = { min: null, max: null, format: null };
  return {
    kind: 'list',
    of: { kind: 'scalar', scalar: 'ID', constraints: none, required: element.required },
    max: listMax(ctx, field, at),
    required: top.required,
  };
}

/**
 * The shape of `field` (a map, list or scalar), or null after a problem.
 * `inside`: the map types being read around it (a map type holding itself
 * would have no bound).
 */
export function readShape(ctx: NestedContext, field: Field, at: string, inside: readonly string[] = []): ValueShape | null {
  const top = layer(field.type);
  if (top.list !== null) {
    const element = layer(top.list);
    if (element.list !== null) {
      ctx.problems.add(at, 'a list of lists is not stored: wrap the inner list in a map type', field.astNode);
      return null;
    }
    const max = listMax(ctx, field, at);
    const of = elementShape(ctx, field, `${at}[]`, { named: element.named, required: element.required, inside, inList: true });
    // Without a max the model is refused (above); the shape stays, so its inputs are still checked.
    return of ? { kind: 'list', of, max, required: top.required } : null;
  }
  return elementShape(ctx, field, at, { named: top.named, required: top.required, inside, inList: false });
}

/** One layer of a field's type: `named` (required or not), read inside the map types `inside`, as a list's element or not. */
function elementShape(
  ctx: NestedContext,
  field: Field,
  at: string,
  { named, required, inside, inList }: { named: GraphQLType; required: boolean; inside: readonly string[]; inList: boolean },
): ValueShape | null {
  if (isObject(named as never)) {
    const type = named as GraphQLObjectType;
    if (ctx.isEntity(type.name)) {
      ctx.problems.add(
        at,
        `${type.name} is an @item or keyless type: a map or list holds scalars, enums and map types (object types without @item and id), not references`,
        field.astNode,
      );
      return null;
    }
    if (inside.includes(type.name)) {
      ctx.problems.add(at, `the map type ${type.name} holds itself (${[...inside, type.name].join(' → ')}): its size would have no bound`, field.astNode);
      return null;
    }
    return mapShape(ctx, type, required, [...inside, type.name]);
  }
  if (!isScalarLike(named as never)) {
    ctx.problems.add(at, `holds ${String(named)}, which no map or list holds (scalars, enums and map types)`, field.astNode);
    return null;
  }
  const scalar = ctx.scalar(field, at, named, inList);
  return scalar
    ? { kind: 'scalar', scalar: scalar.kind, ...(scalar.values ? { values: scalar.values } : {}), constraints: scalar.constraints, required }
    : null;
}

function mapShape(ctx: NestedContext, type: GraphQLObjectType, required: boolean, inside: readonly string[]): ValueShape | null {
  const fields: MapField[] = [];
  const stored = new Map<string, string>();
  let ok = true;
  for (const f of Object.values(type.getFields())) {
    const at = `${type.name}.${f.name}`;
    // The gateway's vocabulary only: other directives (Federation's @inaccessible, @tag, …) are not the gateway's business.
    const others = ctx.notes.field(f).uses.filter((d) => d !== 'attribute');
    if (others.length > 0)
      ctx.problems.add(
        `${at} @${others[0]}`,
        `is on a field of the map type ${type.name}, whose fields are values inside an item (only @attribute applies)`,
        f.astNode,
      );
    if (f.args.length > 0) ctx.problems.add(at, `a field of the map type ${type.name} takes no arguments: it is a value inside an item`, f.astNode);
    const shape = readShape(ctx, f, at, inside);
    if (!shape) {
      ok = false;
      continue;
    }
    const name = ctx.notes.field(f).attribute?.name;
    const storedAs = typeof name === 'string' && name !== '' ? name : f.name;
    const known = stored.get(storedAs);
    if (known !== undefined)
      ctx.problems.add(`${at} @attribute(name)`, `is stored under ${storedAs}, which already holds ${type.name}.${known}: name it otherwise`, f.astNode);
    stored.set(storedAs, f.name);
    fields.push({ name: f.name, storedAs, shape });
  }
  return ok ? { kind: 'map', type: type.name, fields, required } : null;
}

/** The map types: object types an item's stored field holds (directly, in a list, or inside another map type). */
export function mapTypesOf(notes: Annotations, items: readonly GraphQLObjectType[], isEntity: (name: string) => boolean): Set<string> {
  const found = new Set<string>();
  const visit = (type: GraphQLType) => {
    let t = type;
    while (isNonNullType(t) || isListType(t)) t = t.ofType;
    if (!isObject(t as never)) return;
    const object = t as GraphQLObjectType;
    if (isEntity(object.name) || found.has(object.name) || object.name.startsWith('__')) return;
    // A connection's types are not values: the fields that return one are relations.
    if (object.getFields().edges && object.getFields().pageInfo) return;
    found.add(object.name);
    for (const f of Object.values(object.getFields())) visit(f.type);
  };
  for (const item of items) for (const f of Object.values(item.getFields())) if (!notes.field(f).parent) visit(f.type);
  return found;
}

/**
 * Does a mutation input's type fit the shape? A map takes an input object
 * whose fields are the map type's (each of a fitting type; every required
 * one non-null); a list takes a list of what fits its elements; a scalar
 * the kinds a stored field takes (String and ID alike, an enum with the
 * same values). Returns what does not fit, or null.
 */
export function inputMismatch(given: GraphQLInputType, shape: ValueShape, at: string): string | null {
  const top = layer(given);
  if (shape.kind === 'list') {
    if (top.list === null) return `${at} takes a single value; the field holds a list`;
    return inputMismatch(top.list as GraphQLInputType, shape.of, `${at}[]`);
  }
  if (top.list !== null) return `${at} takes a list; the field holds ${shape.kind === 'map' ? `a ${shape.type}` : shape.scalar}`;
  const named = top.named;
  if (shape.kind === 'map') {
    if (!isInputObjectType(named)) return `${at} takes ${String(named)}; the field holds a ${shape.type}: give it an input type with the same fields`;
    const fields = named.getFields();
    for (const name of Object.keys(fields)) {
      if (!shape.fields.some((f) => f.name === name)) return `${at}.${name} is no field of ${shape.type}`;
    }
    for (const f of shape.fields) {
      const input = fields[f.name];
      if (!input) {
        if (f.shape.required) return `${at} lacks ${f.name}, which ${shape.type} requires`;
        continue;
      }
      if (f.shape.required && !isNonNullType(input.type)) return `${at}.${f.name} must be non-null: ${shape.type}.${f.name} is required`;
      const inner = inputMismatch(input.type, f.shape, `${at}.${f.name}`);
      if (inner) return inner;
    }
    return null;
  }
  const text = (k: string) => k === 'String' || k === 'ID';
  const name = (named as { name: string }).name;
  if (isEnumType(named)) {
    const values = storedEnumValues(named).join();
    return shape.scalar === 'enum' && values === shape.values?.join() ? null : `${at} takes the enum ${name}; the field holds ${shape.scalar}`;
  }
  if (name === shape.scalar || (text(name) && text(shape.scalar))) return null;
  return `${at} takes ${name}; the field holds ${shape.scalar === 'enum' ? `an enum of ${shape.values?.join(', ')}` : shape.scalar}`;
}
