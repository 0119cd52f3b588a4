/**
 * Mutation input checks. A caller's mistake becomes BAD_USER_INPUT here,
 * before any DynamoDB request. Text is stored trimmed.
 */
import { badUserInput } from '../errors.js';
import { MAX_SHARDS } from '../dynamo/keys.js';
import { LONE_SURROGATE, MAX_TEXT_LENGTH } from '../plan/arguments.js';

export { MAX_TEXT_LENGTH };

export const MAX_EMAIL_LENGTH = 254;
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

/** An optional text: null/undefined pass through (absent), anything given must be valid text. */
export const optionalText = (value: unknown, argumentName: string): string | null =>
  value == null ? null : text(value, argumentName);

export function email(value: unknown, argumentName: string): string | null {
  if (value == null) return null;
  if (typeof value !== 'string') throw badUserInput(`${argumentName} must be a string`, argumentName);
  const trimmed = wellFormed(value.trim(), argumentName);
  if (trimmed.length > MAX_EMAIL_LENGTH || !EMAIL.test(trimmed)) {
    throw badUserInput(`${argumentName} must be an email address such as ada@example.com`, argumentName);
  }
  return trimmed;
}

/**
 * Largest total stored exactly: DynamoDB keeps 38 digits, but a JavaScript
 * number is exact only up to 2^53 − 1, and the SDK refuses to write a
 * larger one (it could not be read back as the same number).
 */
export const MAX_TOTAL = Number.MAX_SAFE_INTEGER;

/** The smallest magnitude DynamoDB stores besides 0 (its numbers go down to 1E-130; the SDK refuses less). */
export const MIN_NONZERO_TOTAL = 1e-130;

export function total(value: number, argumentName: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw badUserInput(`${argumentName} must be a finite number ≥ 0; got ${value}`, argumentName);
  }
  if (value !== 0 && value < MIN_NONZERO_TOTAL) {
    throw badUserInput(`${argumentName} must be 0 or at least ${MIN_NONZERO_TOTAL} (smaller numbers are not stored); got ${value}`, argumentName);
  }
  if (value > MAX_TOTAL) {
    throw badUserInput(`${argumentName} must be at most ${MAX_TOTAL} (larger numbers are not stored exactly)`, argumentName);
  }
  return value;
}

export function quantity(value: number, argumentName: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw badUserInput(`${argumentName} must be an integer ≥ 0; got ${value}`, argumentName);
  }
  return value;
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
 * the attribute's kind (the same rules for every model, docs/mutations.md):
 * - text (String, ID, enum): trimmed, non-blank, at most 200 characters; a
 *   field named `email` (or ending in `Email`) must be an email address;
 * - Int: a whole number ≥ 0; Float: a finite number ≥ 0, at most 2^53 − 1;
 * - DateTime: an instant, stored as ISO-8601 UTC with milliseconds;
 * - Boolean: as given.
 * null for an optional attribute left empty (it is then not stored).
 */
export function attributeValue(a: { name: string; kind: string; required: boolean }, value: unknown, argumentName: string): unknown {
  if (value == null) {
    if (a.required) throw badUserInput(`${argumentName} is required`, argumentName);
    return null;
  }
  switch (a.kind) {
    case 'Int':
      return quantity(value as number, argumentName);
    case 'Float':
      return total(value as number, argumentName);
    case 'Boolean':
      if (typeof value !== 'boolean') throw badUserInput(`${argumentName} must be a Boolean`, argumentName);
      return value;
    case 'DateTime': {
      const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(ms)) throw badUserInput(`${argumentName} must be an ISO-8601 instant`, argumentName);
      return new Date(ms).toISOString();
    }
    default:
      if (a.name === 'email' || a.name.endsWith('Email')) return email(value, argumentName);
      return text(value, argumentName);
  }
}
