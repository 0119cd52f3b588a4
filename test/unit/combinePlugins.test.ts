/**
 * The gateway's plugins run as one Apollo plugin (plugins/combine.ts), in
 * their order, with Apollo's outcomes: every listener runs, the first
 * failure in the list's order is the phase's, the first response given
 * answers the operation, and only real promises are waited for.
 */
import { describe, expect, it } from 'vitest';
import type { GraphQLResponse } from '@apollo/server';
import { combinePlugins, type GatewayPlugin, type RequestHooks } from '../../src/graphql/plugins/combine.js';

type Listener = {
  didEncounterErrors(r: unknown): unknown;
  didResolveOperation(r: unknown): unknown;
  responseForOperation(r: unknown): unknown;
  willSendResponse(r: unknown): unknown;
};

const plugin = (hooks: RequestHooks | undefined): GatewayPlugin => ({ requestDidStart: () => hooks });
const start = (plugins: GatewayPlugin[]) => combinePlugins(plugins).requestDidStart!({} as never) as unknown as Listener | undefined;
const answer = (text: string) => ({ body: { kind: 'single', singleResult: { data: { text } } }, http: { headers: new Map() } }) as unknown as GraphQLResponse;

describe('the combined plugin', () => {
  it('has no listener for a request none of its plugins listens to', () => {
    expect(start([plugin(undefined), plugin(undefined)])).toBeUndefined();
  });

  it("runs the listeners' hooks in the plugins' order, without a promise when none is async", () => {
    const seen: string[] = [];
    const listener = start([
      plugin({ willSendResponse: () => void seen.push('a') }),
      plugin(undefined),
      plugin({ didResolveOperation: () => void seen.push('b'), willSendResponse: () => void seen.push('c') }),
    ])!;
    expect(listener.didResolveOperation({})).toBeUndefined();
    expect(listener.willSendResponse({})).toBeUndefined();
    expect(seen).toEqual(['b', 'a', 'c']);
  });

  it("tells every listener of the operation's errors", () => {
    const told: string[] = [];
    const listener = start([
      plugin({ didEncounterErrors: ({ errors }) => void told.push(`a:${errors.length}`) }),
      plugin({ willSendResponse: () => undefined }),
      plugin({ didEncounterErrors: ({ errors }) => void told.push(`b:${errors.length}`) }),
    ])!;
    expect(listener.didEncounterErrors({ errors: [new Error('x')] })).toBeUndefined();
    expect(told).toEqual(['a:1', 'b:1']);
  });

  it('runs every listener when one fails, and fails with the first failure in order', async () => {
    const seen: string[] = [];
    const listener = start([
      plugin({ didResolveOperation: () => void seen.push('first') }),
      plugin({
        didResolveOperation: () => {
          seen.push('second');
          throw new Error('second refuses');
        },
      }),
      plugin({
        didResolveOperation: () => {
          seen.push('third');
          throw new Error('third refuses');
        },
      }),
      plugin({ didResolveOperation: () => void seen.push('fourth') }),
    ])!;
    await expect(listener.didResolveOperation({})).rejects.toThrow('second refuses');
    expect(seen).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('waits for a listener that returns a promise before the phase ends', async () => {
    let stored = false;
    const listener = start([
      plugin({
        willSendResponse: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          stored = true;
        },
      }),
      plugin({ willSendResponse: () => undefined }),
    ])!;
    const ended = listener.willSendResponse({});
    expect(ended).toBeInstanceOf(Promise);
    expect(stored).toBe(false);
    await ended;
    expect(stored).toBe(true);
  });

  it('answers the operation with the first response a listener gives, asking no later listener', async () => {
    const asked: string[] = [];
    const listener = start([
      plugin({ responseForOperation: () => (asked.push('none'), null) }),
      plugin({ responseForOperation: async () => (asked.push('async'), answer('stored')) }),
      plugin({ responseForOperation: () => (asked.push('later'), answer('later')) }),
    ])!;
    const response = (await listener.responseForOperation({})) as GraphQLResponse;
    expect((response.body as { singleResult: { data: unknown } }).singleResult.data).toEqual({ text: 'stored' });
    expect(asked).toEqual(['none', 'async']);
  });

  it('goes on past an async listener that gives no response', async () => {
    const listener = start([plugin({ responseForOperation: async () => null }), plugin({ responseForOperation: () => answer('sync') })])!;
    const response = (await listener.responseForOperation({})) as GraphQLResponse;
    expect((response.body as { singleResult: { data: unknown } }).singleResult.data).toEqual({ text: 'sync' });
    expect(start([plugin({ responseForOperation: () => null })])!.responseForOperation({})).toBeNull();
  });
});
