/**
 * Enum values stored as text that is no GraphQL name: `@attribute(name:
 * "in-progress")` on an enum value (as ElectroDB's task status is stored).
 *
 * The stored text is the value's internal value in the executable schema
 * (resolvers/index.ts gives graphql the map), so graphql turns an argument
 * or input `IN_PROGRESS` into "in-progress" before a resolver sees it and a
 * stored "in-progress" back into `IN_PROGRESS` on the way out: reads,
 * writes, key templates, filters and checks all work on the stored text,
 * and the model's enum attributes list the stored texts (a text that is
 * none of them reads as absent, as before).
 *
 * Refused at start-up, one line each naming the value: min, max or format
 * on a value, an empty text, two values stored as one text, and a text
 * holding `#` in an enum a key template holds (a value ends at `#` there).
 */
import { isEnumType, type GraphQLEnumValue, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { enumValueText, type Annotations } from './annotations.js';
import { unwrap } from './schemaShape.js';
import type { ItemType } from './model.js';
import type { Problems } from './problems.js';

/** The text stored for an enum value: its @attribute(name:), else its name. */
export const storedTextOf = (value: Pick<GraphQLEnumValue, 'name' | 'astNode'>): string => enumValueText(value);

/** The stored texts of an enum's values, in declaration order. */
export const storedEnumValues = (named: GraphQLNamedType): string[] => (isEnumType(named) ? named.getValues().map(storedTextOf) : []);

/** `{ values }` of an enum type (what a stored text must be to be read), else nothing. */
export const enumValues = (named: GraphQLNamedType): { values?: readonly string[] } => (isEnumType(named) ? { values: storedEnumValues(named) } : {});

/**
 * The enums of a schema with a value stored as other text: enum name →
 * value name → stored text (every value of such an enum), the map graphql
 * takes as the enum's internal values.
 */
export function storedEnumTexts(schema: GraphQLSchema): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith('__')) continue;
    const values = type.getValues();
    if (values.every((v) => storedTextOf(v) === v.name)) continue;
    out[type.name] = Object.fromEntries(values.map((v) => [v.name, storedTextOf(v)]));
  }
  return out;
}

export function checkEnumTexts(schema: GraphQLSchema, notes: Annotations, items: ReadonlyMap<string, ItemType>, problems: Problems): void {
  const keyed = keyHeldEnums(schema, items);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith('__')) continue;
    const seen = new Map<string, string>();
    for (const value of type.getValues()) {
      const at = `${type.name}.${value.name}`;
      for (const arg of notes.enumValue(value)?.given ?? []) {
        if (arg !== 'name')
          problems.add(`${at} @attribute(${arg})`, 'applies to fields; on an enum value @attribute takes name alone (the text stored for it)', value.astNode);
      }
      const text = storedTextOf(value);
      const other = seen.get(text);
      if (text === '') problems.add(`${at} @attribute(name)`, 'is empty: an enum value is stored as non-empty text', value.astNode);
      else if (other !== undefined)
        problems.add(`${at} @attribute(name)`, `is stored as "${text}", as ${type.name}.${other} is: a stored text could not be read back`, value.astNode);
      else seen.set(text, value.name);
      const holder = keyed.get(type.name);
      if (holder && text.includes('#'))
        problems.add(
          `${at} @attribute(name)`,
          `"${text}" holds '#', which ends a value in a key, and ${holder} holds ${type.name} in a key: store it without '#'`,
          value.astNode,
        );
    }
  }
}

/** Enums some key template holds (table keys, templates written in indexes): enum name → `Type.field` naming the first. */
function keyHeldEnums(schema: GraphQLSchema, items: ReadonlyMap<string, ItemType>): Map<string, string> {
  const keyed = new Map<string, string>();
  for (const item of items.values()) {
    const templates = [item.pk, item.sk, ...item.indexed.flatMap((p) => [...p.pk, ...p.sk].filter((k) => k.written).map((k) => k.template))];
    for (const placeholder of new Set(templates.flatMap((t) => t.placeholders))) {
      const a = item.attributes.find((x) => x.name === placeholder && x.kind === 'enum');
      if (!a) continue;
      const field = (schema.getType(item.name) as GraphQLObjectType).getFields()[a.name];
      const named = field ? unwrap(field.type).named.name : null;
      if (named !== null && !keyed.has(named)) keyed.set(named, `${item.name}.${a.name}`);
    }
  }
  return keyed;
}
