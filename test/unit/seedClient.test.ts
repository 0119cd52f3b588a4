/** The seed script's DynamoDB client comes from the resolved configuration (no network: only the client is built). */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createDynamo } from '../../src/dynamo/client.js';
import { seedClientOptions } from '../../scripts/seedTable.js';

const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
afterEach(() => {
  for (const [name, value] of [
    ['AWS_ACCESS_KEY_ID', saved.id],
    ['AWS_SECRET_ACCESS_KEY', saved.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('seed client', () => {
  it('builds a real-DynamoDB client for DYNAMODB_ENDPOINT=aws instead of failing on "Invalid URL"', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAFROMENVIRONMENT';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    const options = seedClientOptions(loadConfig({ DYNAMODB_ENDPOINT: 'aws', AWS_REGION: 'eu-west-1' }));
    expect(options.endpoint).toBeUndefined();
    expect(options.region).toBe('eu-west-1');
    const dynamo = createDynamo(options);
    try {
      expect((await dynamo.raw.config.credentials()).accessKeyId).toBe('AKIAFROMENVIRONMENT');
      expect(await dynamo.raw.config.region()).toBe('eu-west-1');
    } finally {
      dynamo.raw.destroy();
    }
  });

  it('refuses an unset DYNAMODB_ENDPOINT (it never guesses AWS), and takes a URL as that endpoint, with the configured retries', () => {
    expect(() => seedClientOptions(loadConfig({}))).toThrow(/^DYNAMODB_ENDPOINT is unset: set it to the DynamoDB to write/);
    const options = seedClientOptions(loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', DYNAMODB_MAX_ATTEMPTS: '5' }));
    expect(options).toMatchObject({ endpoint: 'http://127.0.0.1:8000', maxAttempts: 5 });
  });
});

describe('credentials for an endpoint other than AWS', () => {
  it('are the SDK chain when credentials are configured, dummy ones only when none are', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIACONFIGURED';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    const configured = createDynamo(seedClientOptions(loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', AWS_ACCESS_KEY_ID: 'AKIACONFIGURED' })));
    const none = createDynamo(seedClientOptions(loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' })));
    try {
      expect((await configured.raw.config.credentials()).accessKeyId).toBe('AKIACONFIGURED');
      expect((await none.raw.config.credentials()).accessKeyId).toBe('local');
    } finally {
      configured.raw.destroy();
      none.raw.destroy();
    }
  });
});
