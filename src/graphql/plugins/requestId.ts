/**
 * Errors the caller cannot act on (INTERNAL_SERVER_ERROR, UNAVAILABLE) get
 * the operation's `requestId` in `extensions`. The operation log
 * (plugins/operationLog.ts) writes the same requestId with the real error,
 * so in prod mode, where the message is masked (errors.ts formatError),
 * the requestId is how an operator finds what happened.
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import type { Context } from '../context.js';
import { ErrorCode } from '../../errors.js';

const TRACEABLE = new Set<unknown>([ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.UNAVAILABLE]);

const hooks: RequestHooks = {
  willSendResponse({ response, contextValue }) {
    const requestId = contextValue?.requestId;
    if (!requestId || response.body.kind !== 'single' || !response.body.singleResult.errors) return;
    response.body.singleResult.errors = response.body.singleResult.errors.map((e) =>
      TRACEABLE.has(e.extensions?.code) ? { ...e, extensions: { ...e.extensions, requestId } } : e,
    );
  },
};

export const requestIdPlugin: GatewayPlugin = { requestDidStart: () => hooks };
