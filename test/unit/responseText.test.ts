/**
 * The response byte limit measures the response as serialized; Apollo then
 * sends that same text (stringifyResult) unless a later plugin replaced the
 * errors or extensions.
 */
import { describe, expect, it } from 'vitest';
import { responseSizePlugin, stringifyResult } from '../../src/graphql/plugins/responseSize.js';

type Result = { data?: unknown; errors?: unknown[]; extensions?: Record<string, unknown> };

async function measure(result: Result, maxBytes = 1_000_000) {
  const listener = (await responseSizePlugin(maxBytes).requestDidStart!({} as never))!;
  const response = { body: { kind: 'single', singleResult: result } };
  await listener.willSendResponse!({ response } as never);
  return response.body.singleResult as Result;
}

const ordered = (r: Result) => ({ errors: r.errors, data: r.data, extensions: r.extensions });

describe('the response text', () => {
  it('is the JSON of errors, data and extensions in that order, with a newline', async () => {
    const result = await measure({ extensions: { a: 1 }, data: { name: 'Ada' } });
    expect(stringifyResult(ordered(result))).toBe('{"data":{"name":"Ada"},"extensions":{"a":1}}\n');
  });

  it('is serialized anew when a later plugin replaced the extensions', async () => {
    const result = await measure({ data: { name: 'Ada' } });
    result.extensions = { shortPages: [] };
    expect(stringifyResult(ordered(result))).toBe('{"data":{"name":"Ada"},"extensions":{"shortPages":[]}}\n');
  });

  it('is serialized anew when a later plugin replaced the errors', async () => {
    const result = await measure({ data: { name: null }, errors: [{ message: 'x' }] });
    result.errors = [{ message: 'x', extensions: { requestId: 'r1' } }];
    expect(stringifyResult(ordered(result))).toBe('{"errors":[{"message":"x","extensions":{"requestId":"r1"}}],"data":{"name":null}}\n');
  });

  it('of a response over the limit is the one error that replaced it', async () => {
    const result = await measure({ data: { name: 'é'.repeat(60) } }, 100);
    expect(result.data).toBeNull();
    const sent = JSON.parse(stringifyResult(ordered(result)));
    expect(sent.errors[0].extensions).toMatchObject({ reason: 'RESPONSE_TOO_LARGE', bytes: 140, limit: 100 });
  });

  it('counts UTF-8 bytes, not characters, against the limit', async () => {
    // 40 two-byte characters: 57 characters of JSON, 97 bytes.
    const fits = await measure({ data: { n: 'é'.repeat(40) } }, 97);
    expect(fits.data).toEqual({ n: 'é'.repeat(40) });
    const over = await measure({ data: { n: 'é'.repeat(40) } }, 96);
    expect(over.data).toBeNull();
  });
});
