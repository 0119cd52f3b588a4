/**
 * checkEndpoint(): the DynamoDB a process is configured for, checked before
 * any other start-up work, so that a wrong setting stops it with one line
 * naming the setting instead of a stack trace seconds later:
 *
 * - `DYNAMODB_ENDPOINT=aws` needs a region (AWS_REGION, AWS_DEFAULT_REGION
 *   or the AWS profile's): the SDK's own region chain is asked;
 * - a URL must accept a TCP connection (a few attempts within the connect
 *   timeout, so a DynamoDB Local starting beside the gateway is waited for
 *   briefly); nothing is sent, so no credentials are involved.
 *
 * The embedded DynamoDB Local needs neither: the gateway starts it.
 */
import { connect } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConfigError, type Config } from '../config.js';
import { sleep } from './backoff.js';

/** Whether a TCP connection to host:port opens within `timeoutMs`; the error's code when not. */
function tcpProbe(host: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (result: string | null) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done('no answer'));
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

export async function checkEndpoint(config: Config): Promise<void> {
  const { endpoint } = config;
  if (endpoint.kind === 'aws' && config.region === undefined) {
    const client = new DynamoDBClient({});
    try {
      await client.config.region();
    } catch {
      throw new ConfigError('DYNAMODB_ENDPOINT=aws needs a region: set AWS_REGION (e.g. AWS_REGION=eu-west-1), or a region in the AWS profile (AWS_PROFILE)');
    } finally {
      client.destroy();
    }
    return;
  }
  if (endpoint.kind !== 'url') return;
  const url = new URL(endpoint.url);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const attempts = config.dynamoClient.maxAttempts;
  let failure: string | null = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    failure = await tcpProbe(host, port, config.dynamoClient.connectionTimeoutMs);
    if (failure === null) return;
    if (attempt < attempts) await sleep(300 * attempt);
  }
  throw new ConfigError(
    `DYNAMODB_ENDPOINT ${endpoint.url} cannot be reached (${failure}): start DynamoDB there (e.g. docker compose up dynamodb), fix the URL, or unset DYNAMODB_ENDPOINT for the embedded DynamoDB Local`,
  );
}
