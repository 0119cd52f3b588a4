import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { badUserInput } from '../errors.js';
import { isDateTimeText } from '../plan/dateTime.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

function parse(value: unknown): string {
  const time = typeof value === 'string' && ISO_UTC.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw badUserInput(`DateTime must be an ISO-8601 UTC string such as 2026-01-31T12:00:00.000Z`);
  // The form keys and attributes hold (three fraction digits), so an argument compared with stored text matches in any precision.
  return new Date(time).toISOString();
}

/**
 * A stored value that is no time (`notadate`, written by another program,
 * in a key or an attribute) is not served as one: a field error, as
 * GraphQL answers a value its scalar cannot represent.
 */
function serialize(value: unknown): string {
  if (isDateTimeText(value)) return value;
  throw new GraphQLError(
    `DateTime cannot represent ${JSON.stringify(typeof value === 'string' ? value : String(value))}: the stored value is no ISO-8601 time`,
  );
}

/** ISO-8601 UTC strings: arguments read in the stored form, values sent as they are. */
export const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An ISO-8601 UTC timestamp, e.g. 2026-11-29T15:42:06.000Z.',
  serialize,
  parseValue: parse,
  parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : undefined),
});
