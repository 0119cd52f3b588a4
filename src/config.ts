/**
 * The only reader of process.env. Every setting, its default and its
 * validation live here; a bad value stops start-up with a message naming
 * the variable.
 */

export interface Config {
  /** HTTP port (`PORT`, default 4000). */
  port: number;
  /** Interface to bind (`HOST`, default 0.0.0.0 so containers are reachable). */
  host: string;
  /** `TABLE_NAME`, default `AppTable`. */
  tableName: string;
  /**
   * `DYNAMODB_ENDPOINT`: unset → embedded DynamoDB Local with demo data; a URL → that endpoint;
   * `aws` → real DynamoDB through the SDK's region and credential chain.
   */
  dynamodbEndpoint: string | undefined;
  /** `AWS_REGION` (default us-east-1 for local endpoints; the SDK chain otherwise). */
  region: string | undefined;
  /** `NODE_ENV === 'production'`. */
  production: boolean;
  /** `CORS_ORIGINS`: comma-separated origins, or `*` (default: any http://localhost:* / 127.0.0.1:* origin). */
  corsOrigins: string[] | undefined;
  /** `DYNAMODB_LOCAL_PORT`: port for the embedded DynamoDB Local (default 8000; 0 picks a free one). */
  localDynamoPort: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function intSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}"`);
  }
  return value;
}

function urlSetting(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'aws') return raw;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError(`${name} must be "aws" or an http(s) URL such as http://localhost:8000; got "${raw}"`);
  }
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const tableName = env.TABLE_NAME || 'AppTable';
  if (!/^[a-zA-Z0-9_.-]{3,255}$/.test(tableName)) {
    throw new ConfigError(`TABLE_NAME must be 3-255 characters of a-z, A-Z, 0-9, _ . -; got "${tableName}"`);
  }
  const cors = env.CORS_ORIGINS?.trim();
  return {
    port: intSetting(env, 'PORT', 4000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    tableName,
    dynamodbEndpoint: urlSetting(env, 'DYNAMODB_ENDPOINT'),
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined,
    production: env.NODE_ENV === 'production',
    corsOrigins: cors ? cors.split(',').map((o) => o.trim()).filter(Boolean) : undefined,
    localDynamoPort: intSetting(env, 'DYNAMODB_LOCAL_PORT', 8000, 0, 65535),
  };
}
