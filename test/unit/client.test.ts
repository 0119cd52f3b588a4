/** Which credentials the DynamoDB client signs with: dummy ones for local endpoints, the SDK chain for AWS. */
import { afterEach, describe, expect, it } from 'vitest';
import { createDynamo } from '../../src/dynamo/client.js';

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

async function accessKeyOf(endpoint: string | undefined): Promise<string> {
  const dynamo = createDynamo({ endpoint, region: 'eu-west-1' });
  try {
    const credentials = await dynamo.raw.config.credentials();
    return credentials.accessKeyId;
  } finally {
    dynamo.raw.destroy();
  }
}

describe('createDynamo credentials', () => {
  it('signs with dummy credentials for a local endpoint, whatever the environment holds', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAFROMENVIRONMENT';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    expect(await accessKeyOf('http://127.0.0.1:8000')).toBe('local');
  });

  it('uses the SDK credential chain for real DynamoDB (no endpoint, or an amazonaws.com URL)', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAFROMENVIRONMENT';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    expect(await accessKeyOf(undefined)).toBe('AKIAFROMENVIRONMENT');
    expect(await accessKeyOf('https://dynamodb.eu-west-1.amazonaws.com')).toBe('AKIAFROMENVIRONMENT');
  });
});
