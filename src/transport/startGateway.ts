/**
 * startGateway(): everything `npm start` does short of reading signals:
 * the DynamoDB endpoint (embedded DynamoDB Local when none is configured),
 * the table, demo data, the Apollo server and the HTTP listener.
 * Tests use it to run the gateway on 127.0.0.1 and stop it again.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, type Config } from '../config.js';
import { createHttpListener } from './httpServer.js';
import { createContext } from '../graphql/context.js';
import { clientOptions, endpointLabel, type Dynamo } from '../dynamo/client.js';
import { healthProbe } from '../dynamo/layoutHealth.js';
import { LOCAL_DYNAMO_HOST, portInUse, startLocalDynamo, type LocalDynamo } from '../dynamo/local.js';
import { describeLayout, ensureTable } from '../dynamo/table.js';
import { loadDemoData } from '../model/demoData.js';
import { createHttpHandler } from './httpHandler.js';
import { createLogger, type Logger } from '../logger.js';
import { createGatewayParts } from './gatewayParts.js';
import { startStreamProcessing, type StreamProcessing } from '../stream/worker.js';
import { devSigningKey, startIssuer, type Issuer } from '../auth/devIssuer.js';

export interface Gateway {
  url: string;
  dynamo: Dynamo;
  local: LocalDynamo | null;
  /** Who keeps copies and finishes cascades, and its figures (`/health` details). */
  stream: StreamProcessing;
  stop: () => Promise<void>;
}

export async function startGateway(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
): Promise<Gateway> {
  let local: LocalDynamo | null = null;
  if (config.endpoint.kind === 'embedded' && config.production) {
    // The embedded DynamoDB Local keeps data in memory and checks no credentials: never a production table.
    throw new ConfigError(
      'NODE_ENV=production needs a real table: set DYNAMODB_ENDPOINT (aws for DynamoDB through the SDK chain, or a URL); the embedded DynamoDB Local is for development only',
    );
  }
  // Ports first, before any start-up work: one line naming the setting.
  if (config.port !== 0 && (await portInUse(config.host, config.port))) {
    throw new ConfigError(`PORT ${config.port} on ${config.host} is in use: stop what listens there, or set PORT to another port (0 picks a free one)`);
  }
  if (config.endpoint.kind === 'embedded' && config.localDynamoPort !== 0 && (await portInUse(LOCAL_DYNAMO_HOST, config.localDynamoPort))) {
    throw new ConfigError(
      `DYNAMODB_LOCAL_PORT ${config.localDynamoPort} on ${LOCAL_DYNAMO_HOST} is in use (another DynamoDB Local or npm start?): stop it, set DYNAMODB_LOCAL_PORT=0 for a free port, or DYNAMODB_ENDPOINT to use that one`,
    );
  }
  if (config.endpoint.kind === 'embedded') {
    logger.info({ port: config.localDynamoPort || null }, 'starting embedded DynamoDB Local');
    local = await startLocalDynamo({ port: config.localDynamoPort });
  }
  const embeddedUrl = local?.endpoint;
  const endpoint = endpointLabel(clientOptions(config, embeddedUrl));
  const { dynamo, server: apollo, deps, auth } = createGatewayParts(config, { logger, embeddedUrl });
  let http: Server | undefined;
  let stream: StreamProcessing | undefined;
  let lacks: string[] = [];
  let devIssuer: Issuer | null = null;
  try {
    if (config.auth.mode === 'oidc' && config.auth.devIssuer) {
      // Development only (config.ts refuses it in production): tokens from `npm run dev-token`.
      devIssuer = await startIssuer({ port: config.auth.devIssuer.port, keys: async () => [(await devSigningKey()).publicJwk] });
      logger.info({ issuer: devIssuer.url }, 'development token issuer ready: mint tokens with npm run dev-token -- --role admin');
    }
    if (auth.verifier) {
      // Fetch the issuer's keys now, so the first request does not wait; failures are retried per request.
      await auth.verifier.warm().catch((err: unknown) => logger.warn({ err }, 'could not fetch the token issuer\'s keys yet'));
    }
    const created = await ensureTable(dynamo.raw, config.tableName);
    logger.info({ table: config.tableName, created, endpoint }, `table ${created ? 'created' : 'exists'}`);
    const layout = await describeLayout(dynamo.raw, config.tableName);
    for (const lack of layout.lacks) logger.warn({ table: config.tableName }, `table layout: ${lack}`);
    lacks = layout.lacks;
    // Demo data only into the table this process just created in its own DynamoDB Local.
    if (local && created) logger.info({ items: await loadDemoData(dynamo.doc, config.tableName) }, 'loaded demo data');
    else if (local) logger.warn({ table: config.tableName }, 'the embedded DynamoDB Local already had the table: no demo data loaded');
    // After the demo data: its records are read afterwards, not competing with its writes at start-up.
    const streamsEndpoint = clientOptions(config, embeddedUrl).endpoint;
    stream = startStreamProcessing({ config, endpoint: streamsEndpoint, streamArn: layout.streamArn, logger });
    deps.fanOut = stream.fanOut;

    await apollo.start();
    http = createHttpListener(
      createHttpHandler(apollo, {
        corsOrigins: config.corsOrigins,
        maxBodyBytes: config.security.maxBodyBytes,
        logger,
        health: healthProbe(dynamo, config.tableName, config.healthCacheMs),
        // HEALTH_DETAILS=admins (production's default): the layout and stream figures only for an administrator's token.
        healthDetailsFor:
          config.healthDetails === 'public'
            ? undefined
            : async (req) => {
                if (config.auth.mode !== 'oidc') return false;
                const identity = await auth.identify(req.headers.authorization);
                return identity.kind === 'caller' && identity.admin;
              },
        healthDetails: () => ({ table: { lacks }, stream: stream!.details() }),
        context: async (metrics, req) => createContext(deps, metrics, await auth.identify(req.headers.authorization)),
        requestLimits: config.operationLimits,
      }),
      config.http,
    );
    await new Promise<void>((resolve, reject) => {
      http!.once('error', reject);
      http!.listen(config.port, config.host, resolve);
    });
  } catch (err) {
    await stream?.stop().catch(() => {});
    await apollo.stop().catch(() => {});
    http?.close();
    await devIssuer?.stop();
    dynamo.raw.destroy();
    await local?.stop();
    throw err;
  }
  const { port } = http.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const server = http;
  const processing = stream!;
  return {
    url: `http://${host}:${port}/graphql`,
    dynamo,
    local,
    stream: processing,
    stop: async () => {
      // Stop accepting, let in-flight requests finish, then release DynamoDB.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await apollo.stop();
      await processing.stop();
      dynamo.raw.destroy();
      await devIssuer?.stop();
      await local?.stop();
    },
  };
}
