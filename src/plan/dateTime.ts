/**
 * What a DateTime value is: an ISO-8601 time with a date, hours and
 * minutes, and a zone (`Z` or an offset), that `Date.parse` reads. The
 * gateway writes UTC with three fraction digits; other programs may write
 * other precisions or an offset, which are still times. The scalar serves
 * nothing else (resolvers/DateTime.ts), and the table check reports any
 * other stored text (migration/foreignValues.ts).
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export const isDateTimeText = (value: unknown): value is string => typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
