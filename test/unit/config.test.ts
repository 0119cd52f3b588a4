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
