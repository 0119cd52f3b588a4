/**
 * Mutation input checks. A caller's mistake becomes BAD_USER_INPUT here,
 * before any DynamoDB request. Text is stored trimmed.
 */
import { badUserInput } from '../errors.js';
import { validateId } from '../plan/arguments.js';
import { MAX_SHARDS } from '../dynamo/keys.js';
import { LONE_SURROGATE, MAX_TEXT_LENGTH } from '../plan/arguments.js';
import type { Attribute, Constraints, ValueShape } from '../declaration/model.js';
import { MAX_EMAIL_LENGTH } from '../declaration/itemSize.js';

export { MAX_TEXT_LENGTH };

export { MAX_EMAIL_LENGTH };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Text without a lone surrogate (ids and prefixes refuse it too: not storable as UTF-8). */
function wellFormed(value: string, argumentName: string): string {
  if (LONE_SURROGATE.test(value)) throw badUserInput(`${argumentName} must be well-formed Unicode (it holds a lone surrogate)`, argumentName);
  return value;
}

/** A required name/title: a string, non-blank once trimmed, at most 200 characters. */
export function text(value: unknown, argumentName: string): string {
  if (typeof value !== 'string') throw badUserInput(`${argumentName} must be a string`, argumentName);
  const trimmed = wellFormed(value.trim(), argumentName);
  if (trimmed.length === 0) throw badUserInput(`${argumentName} must not be blank`, argumentName);
  if (trimmed.length > MAX_TEXT_LENGTH) {
    throw badUserInput(`${argumentName} must be at most ${MAX_TEXT_LENGTH} characters; got ${trimmed.length}`, argumentName);
  }
  return trimmed;
}

/** An email address (@attribute(format: EMAIL)): trimmed, at most 254 characters. */
export function email(value: unknown, argumentName: string): string {
  if (typeof value !== 'string') throw badUserInput(`${argumentName} must be a string`, argumentName);
  const trimmed = wellFormed(value.trim(), argumentName);
  if (trimmed.length > MAX_EMAIL_LENGTH || !EMAIL.test(trimmed)) {
    throw badUserInput(`${argumentName} must be an email address such as ada@example.com`, argumentName);
  }
  return trimmed;
}

/**
 * Largest magnitude stored exactly: DynamoDB keeps 38 digits, but a
 * JavaScript number is exact only up to 2^53 − 1, and the SDK refuses to
 * write a larger one (it could not be read back as the same number).
 */
export const MAX_NUMBER = Number.MAX_SAFE_INTEGER;

/** The smallest magnitude DynamoDB stores besides 0 (its numbers go down to 1E-130; the SDK refuses less). */
export const MIN_NONZERO = 1e-130;

/** A Float as DynamoDB and the SDK store it: finite, 0 or a magnitude from 1e-130 to 2^53 − 1. */
export function storableNumber(value: unknown, argumentName: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw badUserInput(`${argumentName} must be a finite number; got ${value}`, argumentName);
  }
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && magnitude < MIN_NONZERO) {
    throw badUserInput(`${argumentName} must be 0 or of magnitude at least ${MIN_NONZERO} (smaller numbers are not stored); got ${value}`, argumentName);
  }
  if (magnitude > MAX_NUMBER) {
    throw badUserInput(`${argumentName} must be of magnitude at most ${MAX_NUMBER} (larger numbers are not stored exactly)`, argumentName);
  }
  return value;
}

/** A number within the declared bounds (@attribute(min, max)). */
function withinBounds(value: number, c: Constraints, argumentName: string): number {
  if (c.min !== null && value < c.min) throw badUserInput(`${argumentName} must be at least ${c.min}; got ${value}`, argumentName);
  if (c.max !== null && value > c.max) throw badUserInput(`${argumentName} must be at most ${c.max}; got ${value}`, argumentName);
  return value;
}

/**
 * A number given for an Int or Float attribute: its kind's rule (a whole
 * number; a number storable exactly), then the declared bounds.
 */
export function numberValue(a: Pick<Attribute, 'kind' | 'constraints'>, value: unknown, argumentName: string): number {
  if (a.kind === 'Int' && !Number.isInteger(value)) throw badUserInput(`${argumentName} must be a whole number; got ${value}`, argumentName);
  return withinBounds(storableNumber(value, argumentName), a.constraints, argumentName);
}

/** A sharded parent's write shard count: absent means 1; otherwise a whole number from 1 to 64. */
export function shardsInput(value: number | null | undefined, argumentName: string, max = MAX_SHARDS): number {
  if (value == null) return 1;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw badUserInput(`${argumentName} must be between 1 and ${max}; got ${value}`, argumentName);
  }
  return value;
}

/**
 * The stored value of an attribute given in a mutation's input, checked by
 * the attribute's kind (the same for every model) and then by what the
 * model declares of it (@attribute(min, max, format); docs/mutations.md):
 * - text (String, ID, enum): trimmed, non-blank, at most 200 characters;
 *   with format EMAIL an email address instead (at most 254 characters);
 * - Int: a whole number; Float: a finite number DynamoDB stores exactly;
 *   either within min and max when declared;
 * - DateTime: an instant, stored as ISO-8601 UTC with milliseconds;
 * - Boolean: as given.
 * null for an optional attribute left empty (it is then not stored).
 */
export function attributeValue(
  a: Pick<Attribute, 'kind' | 'required' | 'constraints' | 'reference' | 'shape'>,
  value: unknown,
  argumentName: string,
  referredId: (type: string, value: unknown, argumentName: string) => string = (_, v, name) => validateId(v as string, name),
): unknown {
  if (value == null) {
    if (a.required) throw badUserInput(`${argumentName} is required`, argumentName);
    return null;
  }
  // A reference stores the referred id: the rules of an id of the referred type (a derived id's its own), not free text's.
  if (a.reference) return referredId(a.reference.type, value, argumentName);
  if (a.shape) return nestedValue(a.shape, value, argumentName);
  switch (a.kind) {
    case 'Int':
    case 'Float':
      return numberValue(a, value, argumentName);
    case 'Boolean':
      if (typeof value !== 'boolean') throw badUserInput(`${argumentName} must be a Boolean`, argumentName);
      return value;
    case 'DateTime': {
      const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(ms)) throw badUserInput(`${argumentName} must be an ISO-8601 instant`, argumentName);
      return new Date(ms).toISOString();
    }
    default:
      if (a.constraints.format === 'EMAIL') return email(value, argumentName);
      return text(value, argumentName);
  }
}

/**
 * The stored value of a map or list field (docs/model.md): a map's fields
 * under their stored names (an absent or null optional field is left
 * out), a list's elements in order, at most its @attribute(max:) of them;
 * every scalar inside by the rules above (text trimmed, non-blank, at most
 * 200 characters). The whole value is written at once: an update replaces it.
 */
export function nestedValue(shape: ValueShape, value: unknown, argumentName: string): unknown {
  if (value == null) {
    if (shape.required) throw badUserInput(`${argumentName} is required`, argumentName);
    return null;
  }
  switch (shape.kind) {
    case 'scalar':
      return attributeValue({ kind: shape.scalar, required: shape.required, constraints: shape.constraints }, value, argumentName);
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value))
        throw badUserInput(`${argumentName} must be an object with the fields of ${shape.type}`, argumentName);
      const given = value as Record<string, unknown>;
      const stored: Record<string, unknown> = {};
      for (const f of shape.fields) {
        const v = nestedValue(f.shape, given[f.name], `${argumentName}.${f.name}`);
        if (v !== null) stored[f.storedAs] = v;
      }
      return stored;
    }
    case 'list': {
      const list = Array.isArray(value) ? value : [value];
      if (list.length > shape.max) throw badUserInput(`${argumentName} holds at most ${shape.max} elements; got ${list.length}`, argumentName);
      return list.map((e, i) => nestedValue(shape.of, e, `${argumentName}[${i}]`));
    }
    default: {
      const never: never = shape;
      return never;
    }
  }
}
