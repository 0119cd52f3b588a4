/**
 * Errors the caller cannot act on (INTERNAL_SERVER_ERROR, UNAVAILABLE) get
 * the operation's `requestId` in `extensions`. The operation log
 * (plugins/operationLog.ts) writes the same requestId with the real error,
 * so in prod mode, where the message is masked (errors.ts formatError),
 * the requestId is how an operator finds what happened.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../context.js';
import { ErrorCode } from '../../errors.js';

const TRACEABLE = new Set<unknown>([ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.UNAVAILABLE]);

export const requestIdPlugin: ApolloServerPlugin<Context> = {
  async requestDidStart({ contextValue }) {
    const requestId = contextValue?.requestId;
    return {
      async willSendResponse({ response }) {
        if (!requestId || response.body.kind !== 'single' || !response.body.singleResult.errors) return;
        response.body.singleResult.errors = response.body.singleResult.errors.map((e) =>
          TRACEABLE.has(e.extensions?.code) ? { ...e, extensions: { ...e.extensions, requestId } } : e,
        );
      },
    };
  },
};
