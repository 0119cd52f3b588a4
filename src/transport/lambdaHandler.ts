/**
 * The AWS Lambda entry point: API Gateway HTTP API (payload v2) events in,
 * results out. Only the transport differs from `npm start`: configuration,
 * the Apollo server and DynamoDB client (gatewayParts.ts) and the context
 * are shared, made once per instance (loaders per request).
 *
 * - No table creation, no demo data: infra/table.yaml deploys the table.
 * - Whether writes leave their fan-out to the table's stream is asked
 *   (DescribeTable) beside the first invocation's own requests, not before
 *   them, and again while that fails; until then the in-request fan-out,
 *   always right, is used.
 * - Log lines carry Lambda's `awsRequestId`, to join the platform's lines.
 */
import { handlers, startServerAndCreateLambdaHandler, type LambdaHandler } from '@as-integrations/aws-lambda';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context as LambdaContext } from 'aws-lambda';
import { loadConfig, withoutEmbedded, type Config, type LambdaFirstExport } from '../config.js';
import type { ApolloServer } from '@apollo/server';
import { createContext, type Context } from '../graphql/context.js';
import type { Dynamo } from '../dynamo/client.js';
import { cachedProbe, hasNewAndOldImageStream, tableHealthy } from '../dynamo/health.js';
import { JSON_MEDIA_TYPES, mediaType } from './httpHandler.js';
import { OperationMetrics } from '../dynamo/metrics.js';
import { createLogger, type Logger } from '../logger.js';
import { createGatewayParts } from './gatewayParts.js';
import { loadTelemetry, type Telemetry } from '../telemetry/telemetry.js';
import { deferTelemetry } from '../telemetry/deferred.js';
import { checkTrustedBody, checkTrustedSearch, refusalResponse, type TrustedDocuments } from './trustedDocuments.js';

export type ApiGatewayHandler = (event: APIGatewayProxyEventV2, context: LambdaContext) => Promise<APIGatewayProxyStructuredResultV2>;

export interface LambdaOptions {
  logger?: Logger;
  /** Defaults to a client for `config.endpoint` (real DynamoDB when `embedded` or `aws`). */
  dynamo?: Dynamo;
  /** Traces and metrics (src/telemetry/), flushed before each invocation returns (the first: see firstExport); none when absent. */
  telemetry?: Telemetry;
  /**
   * When the first invocation's telemetry is exported: `after-answer` (the
   * answer is handed back first; the next invocation's flush, or the
   * shutdown, waits for that export) or `before-answer`. Default: the
   * `TELEMETRY_LAMBDA_FIRST_EXPORT` setting.
   */
  firstExport?: LambdaFirstExport;
}

const json = (statusCode: number, body: unknown): APIGatewayProxyStructuredResultV2 => ({
  statusCode,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

/** A request header by name; API Gateway lower-cases them, other callers may not. */
function headerOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
}

/** Does the body claim to be JSON (content-type) without parsing as JSON? */
/** The body's size in bytes, as the client sent it (a base64 body decoded). */
function bodyBytes(event: APIGatewayProxyEventV2): number {
  if (!event.body) return 0;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').byteLength : Buffer.byteLength(event.body, 'utf8');
}

function invalidJsonBody(event: APIGatewayProxyEventV2): boolean {
  const contentType = headerOf(event, 'content-type') ?? '';
  const type = mediaType(contentType);
  if (!event.body || type === null || !JSON_MEDIA_TYPES.has(type)) return false;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/**
 * TRUSTED_DOCUMENTS over API Gateway, as over node:http: the event is
 * rewritten to the manifest's text, or answered with the refusal.
 */
function trustedEvent(trusted: TrustedDocuments, event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 | undefined {
  const accept = headerOf(event, 'accept');
  if (event.requestContext.http.method === 'GET') {
    const checked = checkTrustedSearch(trusted, event.rawQueryString ?? '');
    if ('refusal' in checked) return refused(checked.refusal, accept);
    event.rawQueryString = checked.search.replace(/^\?/, '');
    event.queryStringParameters = Object.fromEntries(new URLSearchParams(event.rawQueryString));
    return undefined;
  }
  if (!event.body) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // not JSON: the integration answers it
  }
  const checked = checkTrustedBody(trusted, body);
  if ('refusal' in checked) return refused(checked.refusal, accept);
  event.body = JSON.stringify(checked.body);
  event.isBase64Encoded = false;
  return undefined;
}

function refused(refusal: Parameters<typeof refusalResponse>[0], accept: string | undefined): APIGatewayProxyStructuredResultV2 {
  const { status, contentType, body } = refusalResponse(refusal, accept);
  return { statusCode: status, headers: { 'content-type': contentType }, body };
}

/**
 * The integration is CommonJS and types its parameter with @apollo/server's
 * CJS declarations; ours is the ESM build of the same class. Only the type
 * differs (the integration calls public methods), hence this one cast.
 */
type CjsApolloServer = Parameters<typeof startServerAndCreateLambdaHandler<never, Context>>[0];
const asCjsServer = (server: ApolloServer<Context>) => server as unknown as CjsApolloServer;

export function createLambdaHandler(config: Config = loadConfig(), options: LambdaOptions = {}): ApiGatewayHandler {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Unset and `aws` both mean real DynamoDB here: a Lambda never runs the embedded DynamoDB Local.
  const { dynamo, server, deps, auth, trusted } = createGatewayParts(
    { ...config, endpoint: withoutEmbedded(config.endpoint) },
    { logger, dynamo: options.dynamo, telemetry: options.telemetry },
  );

  const health = cachedProbe(() => tableHealthy(dynamo, config.tableName), config.healthCacheMs);
  const graphql: LambdaHandler<ReturnType<typeof handlers.createAPIGatewayProxyEventV2RequestHandler>> = startServerAndCreateLambdaHandler(
    asCjsServer(server),
    handlers.createAPIGatewayProxyEventV2RequestHandler(),
    {
      middleware: [
        async (event) => {
          if (event.rawPath === '/health' && ['GET', 'HEAD'].includes(event.requestContext.http.method)) {
            const ok = await health();
            return json(ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable' });
          }
          // MAX_BODY_BYTES as over HTTP: API Gateway passes bodies of up to 10 MB.
          const bytes = bodyBytes(event);
          if (bytes > config.security.maxBodyBytes) {
            return json(413, { errors: [{ message: `Request body exceeds ${config.security.maxBodyBytes} bytes`, extensions: { code: 'BAD_REQUEST' } }] });
          }
          // Without this the integration answers a bare text 400 with a JSON.parse message.
          if (invalidJsonBody(event)) {
            return json(400, { errors: [{ message: 'Request body is not valid JSON', extensions: { code: 'BAD_REQUEST' } }] });
          }
          if (trusted) return trustedEvent(trusted, event);
        },
      ],
      // The same verification as over HTTP: a token that does not verify answers 401 before any DynamoDB request.
      context: async ({ event, context }) => ({
        ...createContext(deps, new OperationMetrics(config.operationLimits), await auth.identify(headerOf(event, 'authorization'))),
        ...(context?.awsRequestId ? { requestId: context.awsRequestId } : {}),
        clientAddress: event.requestContext?.http?.sourceIp,
      }),
    },
  );

  let streamKnown = false;
  let deciding: Promise<void> | undefined;
  const decideFanOut = async () => {
    try {
      deps.fanOut = (await hasNewAndOldImageStream(dynamo, config.tableName)) ? 'stream' : 'inRequest';
      streamKnown = true;
      if (deps.fanOut === 'inRequest') logger.warn({ table: config.tableName }, 'the table has no stream: renames and deletes fan out inside the request');
    } catch (err) {
      deps.fanOut = 'inRequest';
      logger.warn({ err }, 'could not describe the table; renames and deletes fan out inside the request for now');
    } finally {
      deciding = undefined;
    }
  };

  const invoke: ApiGatewayHandler = async (event, context) => {
    // Beside the request, not before it: until the answer is in, the in-request fan-out (always right) is used.
    if (!streamKnown) deciding ??= decideFanOut();
    // Every DynamoDB request an invocation makes is counted into its context's metrics (createContext).
    return (await graphql(event, context, () => {})) as APIGatewayProxyStructuredResultV2;
  };
  const { telemetry } = options;
  if (!telemetry) return invoke;
  const flush = () => telemetry.flush().catch((err: unknown) => logger.warn({ err }, 'could not export telemetry'));
  const firstExport = options.firstExport ?? config.telemetry?.lambdaFirstExport ?? 'after-answer';
  let invocations = 0;
  // Lambda freezes the process once the invocation returns: export its spans and metrics first,
  // except the first invocation's by default (docs/operations.md, "Telemetry on Lambda").
  return async (event, context) => {
    const first = invocations++ === 0;
    try {
      return await invoke(event, context);
    } finally {
      if (first && firstExport === 'after-answer') {
        // After the runtime has taken the answer (a timer runs after the runtime's own setImmediate);
        // the next invocation's flush waits for this one.
        setTimeout(() => void flush(), 0);
      } else {
        await flush();
      }
    }
  };
}

let instance: Promise<ApiGatewayHandler> | undefined;

/**
 * The function's handler (`src/transport/lambda.handler`): one server per
 * Lambda instance, made on first use; with telemetry when an `OTEL_*`
 * variable is set. The SDK loads after the first invocation has answered
 * (what it did is replayed with its times, telemetry/deferred.ts), so a
 * cold start pays neither the SDK's start nor its first export; later
 * invocations flush before returning (`before-answer` loads it beside the
 * first request instead). On SIGTERM (sent when an extension such as the
 * collector layer is registered) what is left is exported. An SDK that
 * fails to start is logged, and the instance serves without telemetry.
 */
export const handler: ApiGatewayHandler = async (event, context) => {
  instance ??= (async () => {
    const config = loadConfig();
    const logger = createLogger(config.logLevel);
    const settings = config.telemetry;
    const telemetry = settings
      ? deferTelemetry(
          () =>
            loadTelemetry(settings, logger).catch((err: unknown) => {
              logger.error({ err }, 'telemetry could not start: this instance runs without it');
              return undefined;
            }),
          // Exported before the first answer: load beside the first request, while it waits for DynamoDB.
          { eager: settings.lambdaFirstExport === 'before-answer' },
        )
      : undefined;
    // Whatever is not exported yet, when Lambda shuts the instance down.
    if (telemetry) stopOnLambdaShutdown(() => telemetry.shutdown().catch((err: unknown) => logger.warn({ err }, 'could not export telemetry')));
    return createLambdaHandler(config, { logger, telemetry });
  })().catch((err: unknown) => {
    instance = undefined; // a failed start is tried again by the next invocation
    throw err;
  });
  return (await instance)(event, context);
};

/**
 * Lambda sends the runtime SIGTERM before it shuts an instance down (only
 * when an extension is registered) and SIGKILL 300 ms later (500 ms with an
 * internal extension): runs `stop` for at most `budgetMs`, then exits.
 */
function stopOnLambdaShutdown(stop: () => Promise<void>, budgetMs = 250): void {
  process.once('SIGTERM', () => {
    const budget = new Promise((resolve) => setTimeout(resolve, budgetMs).unref());
    void Promise.race([stop(), budget]).finally(() => process.exit(0));
  });
}
