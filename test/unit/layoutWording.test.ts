/** The start-up warning about a table behind the layout names what reads GSI2 in words, and nothing when nothing does. */
import { describe, expect, it } from 'vitest';
import { gsi2ReadersInWords } from '../../src/dynamo/table.js';

describe('what reads GSI2, as the layout warning words it', () => {
  it('names nothing for a model without catalogs or date ranges, so the warning has no empty clause', () => {
    expect(gsi2ReadersInWords({ catalogs: [], byInstant: [] })).toBe('');
  });
  it('names the lists, then the date ranges, joined as a sentence', () => {
    expect(gsi2ReadersInWords({ catalogs: ['courses', 'students'], byInstant: [] })).toBe('the courses/students lists');
    expect(gsi2ReadersInWords({ catalogs: [], byInstant: ['Order'] })).toBe('order date ranges');
    expect(gsi2ReadersInWords({ catalogs: ['courses'], byInstant: ['Order', 'Loan'] })).toBe('the courses lists, order date ranges and loan date ranges');
  });
});
