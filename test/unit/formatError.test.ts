/** Development errors show where they were thrown in one line; the whole stack only when asked for (LOG_LEVEL=debug). */
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { formatError, ownLocation } from '../../src/graphql/formatError.js';

const stack = [
  'Error: stored item lacks name',
  '    at invariant (file:///srv/app/node_modules/some-lib/src/check.js:3:9)',
  '    at recordOf (/srv/app/src/resolvers/itemType.ts:88:11)',
  '    at resolve (/srv/app/src/resolvers/index.ts:40:5)',
  '    at node:internal/process/task_queues:95:5',
];

const unexpected = (stacktrace: string[]) => ({
  message: 'stored item lacks name',
  path: ['student', 'name'],
  extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace },
});

describe('development errors', () => {
  it("show the top frame of the project's own code instead of the stack trace", () => {
    const formatted = formatError(unexpected(stack), new Error('stored item lacks name'), { prod: false });
    expect(formatted.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', location: 'src/resolvers/itemType.ts:88' });
    expect(formatted.message).toBe('stored item lacks name');
  });

  it('keep the whole stack trace when asked for', () => {
    const formatted = formatError(unexpected(stack), new Error('stored item lacks name'), { prod: false, stacktrace: 'full' });
    expect(formatted.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', stacktrace: stack });
  });

  it('leave errors without a stack trace as they are', () => {
    const error = new GraphQLError('bad id', { extensions: { code: 'BAD_USER_INPUT' } });
    expect(formatError({ message: 'bad id', extensions: { code: 'BAD_USER_INPUT' } }, error, { prod: false })).toEqual({
      message: 'bad id',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe("the project's own location", () => {
  it("reads bundles' source-mapped paths and file URLs, and takes the last src/ of a path", () => {
    expect(ownLocation(['Error: x', '    at f (file:///home/src/gateway/src/dynamo/batchGet.ts:12:3)'])).toBe('src/dynamo/batchGet.ts:12');
    expect(ownLocation(['Error: x', '    at /app/dist/server/src/graphql/server.ts:7:1'])).toBe('src/graphql/server.ts:7');
  });

  it("is absent when no frame is the project's", () => {
    expect(ownLocation(['Error: x', '    at node:internal/timers:1:1', '    at g (/srv/app/node_modules/graphql/src/execute.js:1:1)'])).toBeUndefined();
  });
});
