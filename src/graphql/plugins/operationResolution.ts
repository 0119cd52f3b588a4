/**
 * An operation name that names no operation of the document (or none given
 * for a document of several operations) is refused before anything runs:
 * `OPERATION_RESOLUTION_FAILURE`, HTTP 400 (200 under `application/json`,
 * plugins/httpStatus.ts). Apollo leaves the operation unresolved and hands
 * execution a null name, and an execution given a null name runs a
 * document's only operation: the name must be settled here, before any
 * other check, write or idempotency record.
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import { GraphQLError, Kind, type DocumentNode } from 'graphql';

export const OPERATION_RESOLUTION_FAILURE = 'OPERATION_RESOLUTION_FAILURE';

/** graphql-js's own words for the operation it cannot choose. */
export function unresolvedOperationMessage(document: DocumentNode | undefined, operationName: string | null | undefined): string {
  if (operationName) return `Unknown operation named "${operationName}".`;
  const operations = document?.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length ?? 0;
  return operations > 1 ? 'Must provide operation name if query contains multiple operations.' : 'Must provide an operation.';
}

export const operationResolutionError = (message: string) =>
  new GraphQLError(message, { extensions: { code: OPERATION_RESOLUTION_FAILURE, http: { status: 400 } } });

const hooks: RequestHooks = {
  didResolveOperation({ operation, document, request }) {
    if (operation) return;
    throw operationResolutionError(unresolvedOperationMessage(document, request.operationName));
  },
};

export const operationResolutionPlugin: GatewayPlugin = { requestDidStart: () => hooks };
