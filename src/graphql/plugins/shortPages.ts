/**
 * Says which pages came back short because their read budget ran out
 * (connections/filledRange.ts): `extensions.shortPages`, one entry per
 * such page with its response path, the reason (`READ_BUDGET`), the read
 * units consumed and the items evaluated. Absent when every page is full.
 * A client resumes such a page from its `endCursor` (`startCursor` when
 * paging backward).
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import type { Context } from '../context.js';

const hooks: RequestHooks = {
  willSendResponse({ response, contextValue }) {
    if (response.body.kind !== 'single' || !contextValue.shortPages?.length) return;
    const result = response.body.singleResult;
    result.extensions = { ...result.extensions, shortPages: contextValue.shortPages };
  },
};

export const shortPagesPlugin: GatewayPlugin = { requestDidStart: () => hooks };
