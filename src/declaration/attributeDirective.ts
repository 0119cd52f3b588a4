/**
 * @attribute on a stored field (items, edges, maps and lists): the name it
 * is stored under, the constraints a mutation's value must meet, and what a
 * create or delete does besides writing the item (counter:, sequence:,
 * pad:). Each argument belongs to the kinds it can judge; elsewhere it is
 * refused, one problem naming the field and the argument.
 */
import { isEnumType, type GraphQLNamedType } from 'graphql';
import type { Annotations } from './annotations.js';
import type { AttributeNote } from './annotationTypes.js';
import type { Attribute, Constraints, ScalarKind } from './model.js';
import type { Problems } from './problems.js';
import type { Field } from './schemaShape.js';
import { enumValues } from './storedText.js';

/**
 * A stored field's @attribute: its stored name and the constraints a
 * mutation's value must meet. Each constraint belongs to kinds it can
 * judge (min/max to numbers, format to text); elsewhere it is refused.
 */
type AttributeArgs = Omit<AttributeNote, 'node' | 'given'>;
const NO_ATTRIBUTE: AttributeArgs = { name: null, min: null, max: null, format: null, counter: null, sequence: null, pad: null };

/** A field's @attribute record, or one with every argument absent. */
export const attributeOf = (notes: Annotations, field: Field): AttributeArgs => notes.field(field).attribute ?? NO_ATTRIBUTE;

export function readAttributeDirective(
  notes: Annotations,
  field: Field,
  at: string,
  kind: ScalarKind,
  problems: Problems,
  on: 'reference' | 'item field' | 'other' = 'other',
): { storedAs: string; constraints: Constraints } & Pick<Attribute, 'counter' | 'sequence'> {
  const args = attributeOf(notes, field);
  const effects = writeEffectsOf(args, field, at, kind, on, problems);
  const number = (key: 'min' | 'max'): number | null => {
    const value = args[key];
    if (value == null) return null;
    if (kind !== 'Int' && kind !== 'Float') {
      problems.add(`${at} @attribute(${key})`, `applies to Int and Float fields; ${at} is ${kind}`, field.astNode);
      return null;
    }
    return value;
  };
  const min = number('min');
  const max = number('max');
  if (min !== null && max !== null && min > max) problems.add(`${at} @attribute`, `min ${min} is above max ${max}: no value could be set`, field.astNode);
  let format: Constraints['format'] = null;
  if (args.format != null) {
    if (kind !== 'String' && kind !== 'ID') problems.add(`${at} @attribute(format)`, `applies to String and ID fields; ${at} is ${kind}`, field.astNode);
    else format = args.format;
  }
  const storedAs = typeof args.name === 'string' ? args.name : field.name;
  // DynamoDB refuses an empty attribute name; any other text is a name (`follower#`, `RoomID`).
  if (storedAs === '') problems.add(`${at} @attribute(name)`, 'is empty: name the attribute the field is stored under', field.astNode);
  return { storedAs, constraints: { min, max, format }, ...effects };
}

/** Digits a sequence's number is written with when @attribute(pad:) is not given. */
export const DEFAULT_SEQUENCE_PAD = 10;

/**
 * @attribute(counter:) and @attribute(sequence:, pad:): what a create or
 * delete of the item does besides writing it (counted.ts checks what they
 * name). counter belongs on a reference of an item type, sequence on an
 * Int field of one; pad (1–15 digits: a number DynamoDB and JavaScript
 * hold exactly) only beside sequence.
 */
function writeEffectsOf(
  args: AttributeArgs,
  field: Field,
  at: string,
  kind: ScalarKind,
  on: 'reference' | 'item field' | 'other',
  problems: Problems,
): Pick<Attribute, 'counter' | 'sequence'> {
  const found: Pick<Attribute, 'counter' | 'sequence'> = {};
  if (typeof args.counter === 'string') {
    if (on !== 'reference')
      problems.add(
        `${at} @attribute(counter)`,
        'belongs on a reference field of an item type (a field whose type is an @item type): it counts, on the referred item, the items referring to it',
        field.astNode,
      );
    else if (args.counter === '') problems.add(`${at} @attribute(counter)`, 'is empty: name the attribute of the referred item that counts', field.astNode);
    else found.counter = args.counter;
  }
  const pad = args.pad;
  if (typeof args.sequence === 'string') {
    if (on !== 'item field' || kind !== 'Int')
      problems.add(
        `${at} @attribute(sequence)`,
        `belongs on an Int field of an item type: it takes the next number from the parent's attribute${on === 'item field' ? `; ${at} is ${kind}` : ''}`,
        field.astNode,
      );
    else if (args.sequence === '')
      problems.add(`${at} @attribute(sequence)`, "is empty: name the parent's attribute holding the last number given", field.astNode);
    else if (pad !== null && (!Number.isInteger(pad) || pad < 1 || pad > 15))
      problems.add(`${at} @attribute(pad)`, `must be a whole number of digits 1–15 (got ${pad}): a number with more digits is not held exactly`, field.astNode);
    else found.sequence = { attribute: args.sequence, pad: pad ?? DEFAULT_SEQUENCE_PAD };
  } else if (pad !== null) {
    problems.add(`${at} @attribute(pad)`, 'pads the numbers of a sequence: add sequence, or remove pad', field.astNode);
  }
  return found;
}

/**
 * A scalar inside a map or list: its kind and the constraints its field's
 * @attribute declares. In a list field @attribute(max:) is the list's
 * length, so its elements take min and format only.
 */
export function nestedScalar(notes: Annotations, field: Field, at: string, named: GraphQLNamedType, inList: boolean, problems: Problems) {
  const kind = scalarKind(named.name, isEnumType(named));
  if (kind === null) {
    problems.add(at, `holds ${named.name}, which no map or list holds (built-in scalars, DateTime, enums and map types)`, field.astNode);
    return null;
  }
  if (!inList) return { kind, ...enumValues(named), constraints: readAttributeDirective(notes, field, at, kind, problems).constraints };
  const args = attributeOf(notes, field);
  const numeric = kind === 'Int' || kind === 'Float';
  if (args.min != null && !numeric) problems.add(`${at} @attribute(min)`, `applies to Int and Float elements; they are ${kind}`, field.astNode);
  if (args.format != null && kind !== 'String' && kind !== 'ID')
    problems.add(`${at} @attribute(format)`, `applies to String and ID elements; they are ${kind}`, field.astNode);
  const constraints = {
    min: numeric && typeof args.min === 'number' ? args.min : null,
    max: null,
    format: kind === 'String' || kind === 'ID' ? args.format : null,
  };
  return { kind, ...enumValues(named), constraints };
}

export function scalarKind(typeName: string, isEnumType: boolean): ScalarKind | null {
  if (isEnumType) return 'enum';
  return (['ID', 'String', 'Int', 'Float', 'Boolean', 'DateTime'] as const).find((k) => k === typeName) ?? null;
}
