/**
 * HTTP statuses as the GraphQL-over-HTTP specification asks for them: a
 * well-formed request whose operation is refused before execution (parse,
 * validation, variables, the gateway's own pre-execution checks) gets 200
 * when the response is `application/json` (its status only says "understood",
 * and clients then show the errors and their codes) and keeps 400 for
 * `application/graphql-response+json`, whose status carries the outcome.
 *
 * Left as they are: malformed requests (BAD_REQUEST), Idempotency-Key
 * refusals, 401/403/405/406/409/413/415/422/503 and anything that executed.
 * The media type is negotiated exactly as Apollo Server does, so status and
 * Content-Type always agree.
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import type { GraphQLFormattedError } from 'graphql';
import Negotiator from 'negotiator';

const APPLICATION_JSON = 'application/json';
/** Apollo Server's candidates, in its order (its chooseContentTypeForSingleResultResponse). */
const CANDIDATES = [APPLICATION_JSON, 'application/graphql-response+json', 'application/json; callback'];

/** The media type Apollo Server will answer a request with this Accept header in. */
export function responseMediaType(accept: string | undefined): string | null {
  if (!accept) return APPLICATION_JSON;
  return new Negotiator({ headers: { accept } }).mediaType(CANDIDATES) ?? null;
}

/** Errors that refuse the operation, not the HTTP request. */
function operationRefusal(errors: readonly GraphQLFormattedError[]): boolean {
  return errors.every((error) => {
    const { code, reason } = (error.extensions ?? {}) as { code?: unknown; reason?: unknown };
    if (code === 'BAD_REQUEST') return false;
    return !(typeof reason === 'string' && reason.startsWith('IDEMPOTENCY_KEY'));
  });
}

/** Is this a 400 that the spec wants as 200 for this Accept header? */
export function shouldAnswer200(
  status: number | undefined,
  accept: string | undefined,
  result: { data?: unknown; errors?: readonly GraphQLFormattedError[] },
): boolean {
  if (status !== 400 || result.data !== undefined || !result.errors?.length) return false;
  return responseMediaType(accept) === APPLICATION_JSON && operationRefusal(result.errors);
}

// One set of hooks for every request: they keep nothing of their own between phases.
const hooks: RequestHooks = {
  willSendResponse({ request, response }) {
    // Only a 400 can become a 200: most responses end here, before any header is read.
    if (response.body.kind !== 'single' || response.http.status !== 400) return;
    if (shouldAnswer200(response.http.status, request.http?.headers.get('accept'), response.body.singleResult)) {
      response.http.status = 200;
    }
  },
};

export const httpStatusPlugin: GatewayPlugin = { requestDidStart: () => hooks };
