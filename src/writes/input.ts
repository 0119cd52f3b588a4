/**
 * Mutation input checks. A caller's mistake becomes BAD_USER_INPUT here,
 * before any DynamoDB request. Text is stored trimmed.
 */
import { badUserInput } from '../graphql/errors.js';
import { MAX_SHARDS } from '../dynamo/keys.js';

export const MAX_TEXT_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A required name/title: a string, non-blank once trimmed, at most 200 characters. */
export function text(value: unknown, argumentName: string): string {
  if (typeof value !== 'string') throw badUserInput(`${argumentName} must be a string`, argumentName);
  const trimmed = value.trim();
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
  const trimmed = value.trim();
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

export function total(value: number, argumentName: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw badUserInput(`${argumentName} must be a finite number ≥ 0; got ${value}`, argumentName);
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

/** A course's write shard count: absent means 1; otherwise a whole number from 1 to 64. */
export function shardsInput(value: number | null | undefined, argumentName: string): number {
  if (value == null) return 1;
  if (!Number.isInteger(value) || value < 1 || value > MAX_SHARDS) {
    throw badUserInput(`${argumentName} must be between 1 and ${MAX_SHARDS}; got ${value}`, argumentName);
  }
  return value;
}
