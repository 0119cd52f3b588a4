import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('defaults to port 4000, table AppTable and the embedded DynamoDB Local', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 4000, tableName: 'AppTable', dynamodbEndpoint: undefined, production: false });
  });

  it('accepts an endpoint URL or `aws` for real DynamoDB', () => {
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'http://localhost:8000' }).dynamodbEndpoint).toBe('http://localhost:8000');
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'aws' }).dynamodbEndpoint).toBe('aws');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DYNAMODB_ENDPOINT', 'localhost:8000'],
    ['TABLE_NAME', 'a b'],
  ])('names %s when its value %j is bad', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('loadConfig defaults', () => {
  it('serves on 0.0.0.0:4000 against the embedded DynamoDB Local with table AppTable at log level info', () => {
    expect(loadConfig({})).toEqual({
      port: 4000,
      host: '0.0.0.0',
      tableName: 'AppTable',
      dynamodbEndpoint: undefined,
      region: undefined,
      production: false,
      corsOrigins: undefined,
      localDynamoPort: 8000,
      logLevel: 'info',
      dynamodbMetricsExtension: true,
      naive: false,
    });
  });

  it('turns the DynamoDB metrics extension off in production unless configured', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).dynamodbMetricsExtension).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DYNAMODB_METRICS_EXTENSION: '1' }).dynamodbMetricsExtension).toBe(true);
    expect(() => loadConfig({ GATEWAY_NAIVE: 'yes' })).toThrow(/GATEWAY_NAIVE must be 1, 0, true or false/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', TABLE_NAME: '', DYNAMODB_ENDPOINT: '', LOG_LEVEL: '', HOST: '', CORS_ORIGINS: '' })).toEqual(
      loadConfig({}),
    );
  });

  it('reads every setting it documents', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      TABLE_NAME: 'Prod.Table-1',
      DYNAMODB_ENDPOINT: 'http://dynamodb:8000',
      AWS_REGION: 'eu-west-1',
      NODE_ENV: 'production',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:3000',
      DYNAMODB_LOCAL_PORT: '0',
      LOG_LEVEL: 'WARN',
      DYNAMODB_METRICS_EXTENSION: '1',
      GATEWAY_NAIVE: 'true',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      tableName: 'Prod.Table-1',
      dynamodbEndpoint: 'http://dynamodb:8000',
      region: 'eu-west-1',
      production: true,
      corsOrigins: ['https://app.example.com', 'http://localhost:3000'],
      localDynamoPort: 0,
      logLevel: 'warn',
      dynamodbMetricsExtension: true,
      naive: true,
    });
  });

  it('falls back to AWS_DEFAULT_REGION when AWS_REGION is unset', () => {
    expect(loadConfig({ AWS_DEFAULT_REGION: 'us-west-2' }).region).toBe('us-west-2');
  });
});

describe('loadConfig rejects a bad value with a ConfigError naming the variable', () => {
  const bad: Array<[string, string]> = [
    ['PORT', 'http'],
    ['PORT', '4000.5'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['HOST', 'http://0.0.0.0'],
    ['HOST', 'local host'],
    ['TABLE_NAME', 'ab'],
    ['TABLE_NAME', 'my table'],
    ['TABLE_NAME', 'x'.repeat(256)],
    ['DYNAMODB_ENDPOINT', 'localhost:8000'],
    ['DYNAMODB_ENDPOINT', 'ftp://localhost:8000'],
    ['AWS_REGION', 'EU West 1'],
    ['AWS_DEFAULT_REGION', 'eu_west_1'],
    ['CORS_ORIGINS', 'https://app.example.com/'],
    ['CORS_ORIGINS', 'https://ok.example.com,app.example.com'],
    ['DYNAMODB_LOCAL_PORT', 'eight thousand'],
    ['LOG_LEVEL', 'verbose'],
  ];
  it.each(bad)('%s=%j', (name, value) => {
    let caught: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toMatch(new RegExp(`^${name} `));
  });
});

describe('README Configuration table', () => {
  it('documents every environment variable config.ts reads in a table row', async () => {
    const { readFileSync } = await import('node:fs');
    const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const names = new Set<string>();
    for (const m of source.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]*)|'([A-Z][A-Z0-9_]{2,})'/g)) names.add((m[1] ?? m[2])!);
    expect(names).toContain('TABLE_NAME');
    expect(names).toContain('LOG_LEVEL');
    // A row of a README table (Configuration, or a section's own settings table) names it in backticks.
    const rows = readme.split('\n').filter((line) => line.startsWith('|'));
    const undocumented = [...names].filter((name) => !rows.some((row) => row.includes(`\`${name}\``)));
    expect(undocumented).toEqual([]);
  });
});
