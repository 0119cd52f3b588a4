/**
 * Create defaults: a default value on a field of a create mutation's input
 * (`input CreateTaskInput { status: TaskStatus = OPEN }`, GraphQL's own
 * input defaults) is what the create writes when the input leaves the
 * field out, as ElectroDB's attribute `default` is: graphql fills it in
 * before the resolver runs, so the item, its keys and the answer hold it.
 *
 * Refused at start-up, one line each naming the input field: a default in
 * an update input (every update leaving the field out would overwrite the
 * stored value with it), a default id (every create would take the same
 * id), and a default the field could never be written with: a number
 * outside its @attribute(min, max), blank or over-long text, or text
 * holding `#` in a field a key holds.
 */
import { isInputObjectType, type GraphQLInputField, type GraphQLSchema } from 'graphql';
import type { Attribute, ItemType, MutationField } from './model.js';
import type { Problems } from './problems.js';

/** Longest text a mutation stores (writes/input.ts). */
const MAX_TEXT = 200;

export function checkInputDefaults(schema: GraphQLSchema, items: ReadonlyMap<string, ItemType>, mutations: readonly MutationField[], problems: Problems): void {
  for (const m of mutations) {
    if (m.kind !== 'create' && m.kind !== 'update') continue;
    const input = schema.getType(m.input);
    const item = items.get(m.type);
    if (!isInputObjectType(input) || !item) continue;
    for (const f of Object.values(input.getFields())) {
      if (f.defaultValue === undefined) continue;
      const at = `${m.input}.${f.name}`;
      if (m.kind === 'update') {
        problems.add(
          at,
          `has a default: every update leaving ${f.name} out would overwrite the stored value with it (defaults belong on create inputs)`,
          f.astNode,
        );
        continue;
      }
      if (f.name === 'id') {
        problems.add(at, 'has a default: every create would take the same id', f.astNode);
        continue;
      }
      const a = item.attributes.find((x) => x.name === f.name);
      const why = a ? unwritable(a, f, keyHeld(item).has(a.name)) : null;
      if (why) problems.add(at, `default ${JSON.stringify(f.defaultValue)} ${why}`, f.astNode);
    }
  }
}

/** Fields a key of the type holds: its table keys' and the templates it writes in indexes. */
function keyHeld(item: ItemType): Set<string> {
  const templates = [item.pk, item.sk, ...item.indexed.flatMap((p) => [...p.pk, ...p.sk].filter((k) => k.written).map((k) => k.template))];
  return new Set(templates.flatMap((t) => t.placeholders));
}

/** Why a create could never write the default `f` declares into `a`, or null. */
function unwritable(a: Attribute, f: GraphQLInputField, inKey: boolean): string | null {
  const value = f.defaultValue;
  const { min, max } = a.constraints;
  if (typeof value === 'number') {
    if (min !== null && value < min) return `is below ${a.name}'s min ${min}`;
    if (max !== null && value > max) return `is above ${a.name}'s max ${max}`;
  }
  if (typeof value === 'string' && (a.kind === 'String' || a.kind === 'ID')) {
    if (value.trim() === '') return 'is blank: a mutation stores non-blank text';
    if (value.length > MAX_TEXT) return `is longer than the ${MAX_TEXT} characters a mutation stores`;
    if (inKey && value.includes('#')) return `holds '#', which ends a value in a key, and a key holds ${a.name}`;
  }
  return null;
}
