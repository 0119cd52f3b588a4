/**
 * The read path: GetItem, Query and BatchGetItem sent without the SDK's
 * middleware stack (docs/performance.md, "The read path", has why and what
 * it keeps from the SDK). The caller sees exactly what the document client
 * would return, and DynamoDB receives the request the SDK would send,
 * signed the same way (signer.ts writes the SDK signer's very headers) and
 * sent by the client's own request handler (sdkExchange.ts: its agents,
 * pool, proxy settings and deadline): the credentials, region, retry strategy (fed the SDK's
 * error classification), clock offset and exception classes are the SDK
 * client's own, shared rather than copied, so error classification cannot
 * tell the paths apart. Writes stay on the SDK.
 *
 * Counting is the SDK path's (metrics.ts): one call per `send`, one request
 * per attempt, the operation's CallObserver told of each. Attempt hooks
 * (`onAttempt`, tests' faults) run before each attempt is sent; one that
 * throws fails the attempt as DynamoDB would. The endpoint is resolved
 * once, in the SDK's order (configured URL, AWS_ENDPOINT_URL*, the rules).
 */
import * as dynamodb from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall, type NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { HttpRequest } from '@smithy/core/protocols';
import { getEndpointFromInstructions } from '@smithy/core/endpoints';
import { isClockSkewError, isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { SignatureV4 } from '@smithy/signature-v4';
import { ReadSigner, type Credentials } from './signer.js';
import { sdkExchange, type SdkHandler, type Target } from './sdkExchange.js';
import { isCredentialError } from '../../errors.js';
import type { CredentialRefresher } from '../credentialRefresh.js';
import { accountedCall, type CallTrace, type OperationMetrics } from '../metrics.js';

export type ReadOperation = 'GetItem' | 'Query' | 'BatchGetItem';

export interface AttemptInfo {
  operation: ReadOperation;
  /** 1 for a call's first attempt, 2 for its first retry, … */
  attempt: number;
  /** The request's input as the caller gave it (native values). */
  input: Readonly<Record<string, unknown>>;
}

/** Runs before an attempt is sent; throwing fails the attempt (classified and retried like a DynamoDB answer). */
export type AttemptHook = (attempt: AttemptInfo) => void | Promise<void>;

/** The retry strategy's interface (the SDK's RetryStrategyV2, as retryStrategy.ts implements it). */
interface RetryToken {
  getRetryCount(): number;
  getRetryDelay(): number;
}
interface RetryStrategy {
  acquireInitialRetryToken(scope: string): Promise<RetryToken>;
  refreshRetryTokenForRetry(token: RetryToken, info: { errorType: string; error?: unknown }): Promise<RetryToken>;
  recordSuccess(token: RetryToken): void;
}

/** What the SDK's HTTP handler answers (@smithy/node-http-handler). */
interface HttpResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
}

type Native = Record<string, NativeAttributeValue>;
type Input = Record<string, unknown>;
type Output = Record<string, unknown> & { $metadata: Metadata };

interface Metadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
  totalRetryDelay?: number;
  clockSkewCorrected?: boolean;
}

/** The marshalling lib-dynamodb's document client is configured with (client.ts). */
const MARSHALL_OPTIONS = { removeUndefinedValues: true } as const;

/** ReturnConsumedCapacity asked of every read, as metrics.ts asks it of the SDK path (counted per operation). */
const CAPACITY = 'TOTAL';

/** DynamoDB's exception classes by error name, for errors shaped exactly like the SDK's. */
const EXCEPTIONS = new Map<string, typeof dynamodb.DynamoDBServiceException>(
  Object.entries(dynamodb).flatMap(([name, value]) =>
    typeof value === 'function' && value.prototype instanceof dynamodb.DynamoDBServiceException
      ? [[name, value as typeof dynamodb.DynamoDBServiceException]]
      : [],
  ),
);

/** A skew larger than this moves the clock offset (the SDK's threshold). */
const CLOCK_SKEW_MS = 300_000;

/**
 * Native values to DynamoDB's JSON wire form: util-dynamodb's `marshall`
 * (what the document client uses), then binary values as base64 (what the
 * SDK's JSON serializer does with them).
 */
function toWireMap(value: unknown): Input | undefined {
  if (value === undefined) return undefined;
  const map = marshall(value as Native, MARSHALL_OPTIONS) as Input;
  for (const key of Object.keys(map)) map[key] = binaryToBase64(map[key] as AttributeValue);
  return map;
}

type AttributeValue = { [type: string]: any };

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

function binaryToBase64(av: AttributeValue): AttributeValue {
  if (av.B !== undefined) return { B: base64(av.B) };
  if (av.BS !== undefined) return { BS: (av.BS as Uint8Array[]).map(base64) };
  if (av.M !== undefined) {
    const map: AttributeValue = {};
    for (const key of Object.keys(av.M)) map[key] = binaryToBase64(av.M[key]);
    return { M: map };
  }
  if (av.L !== undefined) return { L: (av.L as AttributeValue[]).map(binaryToBase64) };
  return av;
}

/** A number as util-dynamodb reads it by default: a JavaScript number, or a BigInt beyond the safe integers. */
function nativeNumber(text: string): number | bigint {
  const num = Number(text);
  if ((num > Number.MAX_SAFE_INTEGER || num < Number.MIN_SAFE_INTEGER) && Number.isFinite(num)) {
    try {
      return BigInt(text);
    } catch {
      throw new Error(`${text} can't be converted to BigInt. Set options.wrapNumbers to get string value.`);
    }
  }
  return num;
}

const bytes = (text: string) => {
  const buffer = Buffer.from(text, 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
};

/**
 * One attribute value of DynamoDB's JSON answer as the document client
 * returns it (util-dynamodb's `unmarshall` after the SDK's deserializer):
 * the same types (Set for SS/NS/BS, Uint8Array for binary, BigInt past the
 * safe integers), in one pass over the parsed JSON.
 */
function fromWire(av: AttributeValue): unknown {
  if (av.S !== undefined) return av.S;
  if (av.N !== undefined) return nativeNumber(av.N);
  if (av.M !== undefined) return fromWireMap(av.M);
  if (av.BOOL !== undefined) return Boolean(av.BOOL);
  if (av.NULL !== undefined) return null;
  if (av.L !== undefined) return (av.L as AttributeValue[]).map(fromWire);
  if (av.SS !== undefined) return new Set(av.SS as string[]);
  if (av.NS !== undefined) return new Set((av.NS as string[]).map(nativeNumber));
  if (av.B !== undefined) return bytes(av.B);
  if (av.BS !== undefined) return new Set((av.BS as string[]).map(bytes));
  throw new Error(`Unsupported type passed: ${Object.keys(av)[0]}`);
}

function fromWireMap(map: Record<string, AttributeValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in map) {
    const value = fromWire(map[key]!);
    // An attribute named __proto__ is data, never the object's prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

function marshallInput(operation: ReadOperation, input: Input): Input {
  const wire: Input = { ...input };
  if (wire.ReturnConsumedCapacity === undefined) wire.ReturnConsumedCapacity = CAPACITY;
  switch (operation) {
    case 'GetItem':
      wire.Key = toWireMap(input.Key);
      break;
    case 'Query':
      wire.ExpressionAttributeValues = toWireMap(input.ExpressionAttributeValues);
      wire.ExclusiveStartKey = toWireMap(input.ExclusiveStartKey);
      break;
    case 'BatchGetItem': {
      const requestItems: Input = {};
      for (const [table, request] of Object.entries(input.RequestItems as Record<string, { Keys: Native[] }>)) {
        requestItems[table] = { ...request, Keys: request.Keys.map((key) => toWireMap(key)) };
      }
      wire.RequestItems = requestItems;
      break;
    }
  }
  return wire;
}

function unmarshallOutput(operation: ReadOperation, body: Record<string, any>): Record<string, unknown> {
  switch (operation) {
    case 'GetItem':
      if (body.Item) body.Item = fromWireMap(body.Item);
      break;
    case 'Query':
      if (body.Items) body.Items = (body.Items as Record<string, AttributeValue>[]).map(fromWireMap);
      if (body.LastEvaluatedKey) body.LastEvaluatedKey = fromWireMap(body.LastEvaluatedKey);
      break;
    case 'BatchGetItem':
      for (const table of Object.keys(body.Responses ?? {})) body.Responses[table] = (body.Responses[table] as Record<string, AttributeValue>[]).map(fromWireMap);
      for (const table of Object.keys(body.UnprocessedKeys ?? {})) {
        const request = body.UnprocessedKeys[table];
        body.UnprocessedKeys[table] = { ...request, Keys: (request.Keys as Record<string, AttributeValue>[]).map(fromWireMap) };
      }
      break;
  }
  return body;
}

const header = (response: HttpResponse, name: string): string | undefined => {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** DynamoDB's error answer (`{"__type": "com.amazonaws.dynamodb.v20120810#Name", "message": …}`) as the SDK's exception. */
function errorFrom(response: HttpResponse, text: string): Error {
  let parsed: { __type?: string; message?: string; Message?: string } = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): named by the status below.
  }
  const type = header(response, 'x-amzn-errortype') ?? parsed.__type ?? '';
  const name = type.split(':')[0]!.split('#').pop() || (response.statusCode >= 500 ? 'InternalServerError' : 'UnknownError');
  const $metadata: Metadata = { httpStatusCode: response.statusCode, requestId: header(response, 'x-amzn-requestid') };
  const message = parsed.message ?? parsed.Message ?? name;
  const Exception = EXCEPTIONS.get(name);
  const error = Exception
    ? new (Exception as unknown as new (options: object) => Error)({ message, $metadata, ...parsed })
    : new dynamodb.DynamoDBServiceException({ name, $fault: response.statusCode >= 500 ? 'server' : 'client', message, $metadata });
  delete (error as { __type?: string }).__type;
  return error;
}

/** A 2xx answer's JSON; one that is not JSON fails as the SDK's deserializer fails (a SyntaxError with the status: retried as a 5xx). */
function parseAnswer(response: HttpResponse, text: string): Record<string, any> {
  try {
    return text ? JSON.parse(text) : {};
  } catch (error) {
    throw Object.assign(error as Error, { $metadata: { httpStatusCode: response.statusCode, requestId: header(response, 'x-amzn-requestid') } });
  }
}

/** The table a read names (BatchGetItem: its first), for the endpoint's resolution. */
const tableOf = (operation: ReadOperation, input: Input): string =>
  operation === 'BatchGetItem' ? (Object.keys(input.RequestItems as object)[0] ?? '') : String(input.TableName);

/** The SDK retry middleware's classification of an error. */
function errorType(error: unknown): string {
  const e = error as Parameters<typeof isThrottlingError>[0];
  if (isThrottlingError(e)) return 'THROTTLING';
  if (isTransientError(e)) return 'TRANSIENT';
  if (isServerError(e)) return 'SERVER_ERROR';
  return 'CLIENT_ERROR';
}

interface ClientConfig {
  region: () => Promise<string>;
  credentials: () => Promise<Credentials>;
  sha256: never;
  /** Set by the SDK once an endpoint is configured (the client's URL, AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL). */
  isCustomEndpoint?: boolean;
  systemClockOffset?: number;
}

/** Where a read goes: the URL's parts, and its Host header. */
interface Resolved {
  target: Target;
  host: string;
}

const USER_AGENT = 'dynamo-graph-gateway-read-path';

export class ReadPath {
  private readonly config: ClientConfig;
  private readonly hooks: AttemptHook[] = [];
  private signing: Promise<{ region: string; signers: Map<string, SignatureV4 | ReadSigner> }> | undefined;
  /**
   * Endpoints by the credentials they were resolved with (the account-id
   * endpoint mode puts the account in the host name), then by table: the
   * SDK's resolution, run once per credentials and table.
   */
  private readonly endpoints = new WeakMap<object, Map<string, Resolved>>();
  /** The credentials-independent scope of a configured endpoint. */
  private readonly configured = {};
  /** The client's request handler (client.ts: the SDK's, with one deadline over each exchange). */
  private readonly handler: SdkHandler;

  constructor(
    client: DynamoDBClient,
    private readonly retryStrategy: RetryStrategy,
    /** The client's (client.ts): refused credentials refreshed once for both paths. */
    private readonly refresher?: CredentialRefresher,
  ) {
    this.config = client.config as unknown as ClientConfig;
    this.handler = (client.config as unknown as { requestHandler: SdkHandler }).requestHandler;
  }

  /** Adds a hook run before every attempt; returns a function removing it again. */
  onAttempt(hook: AttemptHook): () => void {
    this.hooks.push(hook);
    return () => {
      const i = this.hooks.indexOf(hook);
      if (i >= 0) this.hooks.splice(i, 1);
    };
  }

  /** The region and a signer per endpoint path (the read path's own for the root path; the SDK's for any other). */
  private regional() {
    return (this.signing ??= (async () => ({ region: await this.config.region(), signers: new Map() }))().catch((err) => {
      this.signing = undefined; // a failed resolution (no region) is tried again by the next read
      throw err;
    }));
  }

  private async signerFor(path: string): Promise<SignatureV4 | ReadSigner> {
    const { region, signers } = await this.regional();
    let signer = signers.get(path);
    if (!signer) {
      signer =
        path === '/'
          ? new ReadSigner(region, 'dynamodb', this.config.credentials)
          : new SignatureV4({ service: 'dynamodb', region, credentials: this.config.credentials, sha256: this.config.sha256, uriEscapePath: true });
      signers.set(path, signer);
    }
    return signer;
  }

  /**
   * Where a read of `table` goes, resolved as the SDK resolves its own
   * requests' (getEndpointFromInstructions: a configured endpoint,
   * AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL, else the region's rules
   * with FIPS, dual-stack, the account-id endpoint mode and the account of
   * the credentials), once per credentials and table.
   */
  private async endpointFor(table: string): Promise<Resolved> {
    const scope = this.config.isCustomEndpoint ? this.configured : ((await this.config.credentials()) as object);
    let byTable = this.endpoints.get(scope);
    if (!byTable) this.endpoints.set(scope, (byTable = new Map()));
    const known = byTable.get(table);
    if (known) return known;
    const { url } = await getEndpointFromInstructions({ TableName: table }, dynamodb.GetItemCommand, this.config as never);
    const port = url.port ? Number(url.port) : undefined;
    const target = { protocol: url.protocol, hostname: url.hostname, port, path: url.pathname || '/' };
    const resolved = { target, host: url.port ? `${url.hostname}:${url.port}` : url.hostname };
    byTable.set(table, resolved);
    return resolved;
  }

  /** Where reads of `table` are sent (`https://dynamodb.<region>.amazonaws.com/` on AWS): for start-up logs and tests. */
  async target(table = 'table'): Promise<string> {
    const { target, host } = await this.endpointFor(table);
    return `${target.protocol}//${host}${target.path}`;
  }

  /** One call: counted, retried, answered in native values. */
  async send(operation: ReadOperation, input: Input, metrics?: OperationMetrics): Promise<Output> {
    const trace = metrics?.calls?.callStarted(operation, input);
    return accountedCall(metrics, trace, () => this.attempts(operation, input, metrics, trace), (output) => output);
  }

  private async attempts(operation: ReadOperation, input: Input, metrics?: OperationMetrics, trace?: CallTrace): Promise<Output> {
    let token = await this.retryStrategy.acquireInitialRetryToken('');
    let attempt = 0;
    let totalRetryDelay = 0;
    // Marshalled once, before anything is counted (as the document client marshals before its request is counted).
    const body = JSON.stringify(marshallInput(operation, input));
    const table = tableOf(operation, input);
    for (;;) {
      attempt += 1;
      const startedAt = performance.now();
      try {
        metrics?.record(operation, attempt > 1); // past the operation's request cap this throws: nothing is sent
        for (const hook of this.hooks) await hook({ operation, attempt, input });
        const output = await this.attempt(operation, body, table);
        this.retryStrategy.recordSuccess(token);
        output.$metadata.attempts = attempt;
        output.$metadata.totalRetryDelay = totalRetryDelay;
        return output;
      } catch (error) {
        const failed = error as Error & { $metadata?: Metadata };
        trace?.attemptFailed(failed);
        if (this.refresher && isCredentialError(failed)) await this.refresher.afterRefusal(startedAt, failed);
        try {
          token = await this.retryStrategy.refreshRetryTokenForRetry(token, { errorType: errorType(failed), error: failed });
        } catch {
          if (failed && typeof failed === 'object') failed.$metadata = { ...failed.$metadata, attempts: attempt, totalRetryDelay };
          throw failed;
        }
        const delay = token.getRetryDelay();
        totalRetryDelay += delay;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async attempt(operation: ReadOperation, body: string, table: string): Promise<Output> {
    const { target, host } = await this.endpointFor(table);
    const signer = await this.signerFor(target.path);
    const headers: Record<string, string> = {
      host,
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(Buffer.byteLength(body)),
      'x-amz-target': `DynamoDB_20120810.${operation}`,
      'user-agent': USER_AGENT,
    };
    const signingDate = new Date(Date.now() + (this.config.systemClockOffset ?? 0));
    let sent = headers;
    if (signer instanceof ReadSigner) await signer.sign(headers, body, signingDate);
    else sent = (await signer.sign(new HttpRequest({ ...target, method: 'POST', headers, body }), { signingDate })).headers;
    const { statusCode, headers: answered, text } = await sdkExchange(this.handler, target, sent, body);
    const response: HttpResponse = { statusCode, headers: answered };
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const output = unmarshallOutput(operation, parseAnswer(response, text)) as Output;
      output.$metadata = { httpStatusCode: response.statusCode, requestId: header(response, 'x-amzn-requestid') };
      return output;
    }
    const error = errorFrom(response, text) as Error & { $metadata: Metadata };
    this.correctClock(response, error);
    throw error;
  }

  /** As the SDK: a request refused for clock skew moves the offset to the server's clock, and is then retried. */
  private correctClock(response: HttpResponse, error: Error & { $metadata: Metadata }) {
    const date = header(response, 'date');
    if (!date || !isClockSkewError(error as never)) return;
    const server = Date.parse(date);
    if (Number.isNaN(server)) return;
    const offset = this.config.systemClockOffset ?? 0;
    if (Math.abs(server - (Date.now() + offset)) >= CLOCK_SKEW_MS) {
      this.config.systemClockOffset = server - Date.now();
      error.$metadata.clockSkewCorrected = true;
    }
  }
}
