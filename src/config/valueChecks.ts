/**
 * The checks of single values the settings table's entries parse with:
 * each turns a non-empty raw value into the setting's value, or throws a
 * ConfigError naming the variable and what it accepts.
 */
import { ConfigError, type DynamoEndpoint } from './configTypes.js';
import type { Context } from './settingKinds.js';

export const MIN_CURSOR_SECRET_LENGTH = 32;
/** Distinct characters a secret needs (`openssl rand -hex 16` has about 15 of 16). */
export const MIN_CURSOR_SECRET_DISTINCT = 10;

export function hostName(raw: string, name: string): string {
  const value = raw.trim();
  // A host name or an IPv4/IPv6 address, never a URL: `http://…` or a path here is a common slip.
  if (!/^[A-Za-z0-9.:-]+$/.test(value)) {
    throw new ConfigError(`${name} must be a host name or IP address such as 0.0.0.0 or 127.0.0.1; got "${value}"`);
  }
  return value;
}

export function tableName(raw: string, name: string): string {
  if (!/^[a-zA-Z0-9_.-]{3,255}$/.test(raw)) throw new ConfigError(`${name} must be 3-255 characters of a-z, A-Z, 0-9, _ . -; got "${raw}"`);
  return raw;
}

export function endpoint(raw: string, name: string): DynamoEndpoint {
  if (raw === 'aws') return { kind: 'aws' };
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError(`${name} must be "aws" or an http(s) URL such as http://localhost:8000; got "${raw}"`);
  }
  return { kind: 'url', url: raw };
}

export function region(raw: string, name: string): string {
  const value = raw.trim();
  if (!/^[a-z0-9-]+$/.test(value)) throw new ConfigError(`${name} must be an AWS region name such as eu-west-1; got "${value}"`);
  return value;
}

export function corsOrigins(raw: string, name: string): string[] {
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (origin === '*') continue;
    let valid = false;
    try {
      // An origin is scheme://host[:port] with nothing after it; browsers send exactly that.
      valid = new URL(origin).origin === origin;
    } catch {
      valid = false;
    }
    if (!valid) {
      throw new ConfigError(`${name} must be * or comma-separated origins such as https://app.example.com (no path or trailing slash); got "${origin}"`);
    }
  }
  return origins;
}

export function cursorSecret(secret: string, name: string): string {
  if (secret.length < MIN_CURSOR_SECRET_LENGTH) {
    throw new ConfigError(`${name} must be at least ${MIN_CURSOR_SECRET_LENGTH} characters (e.g. openssl rand -base64 48)`);
  }
  // 32 spaces, or "aaaa…", pass a length check and are guessed at once.
  if (secret.trim().length < MIN_CURSOR_SECRET_LENGTH || new Set(secret).size < MIN_CURSOR_SECRET_DISTINCT) {
    throw new ConfigError(
      `${name} is too weak: use at least ${MIN_CURSOR_SECRET_LENGTH} random characters, ${MIN_CURSOR_SECRET_DISTINCT} or more of them different (e.g. openssl rand -base64 48)`,
    );
  }
  return secret;
}

export const commaList = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function claimName(raw: string, name: string): string {
  const value = raw.trim();
  if (value.length > 200 || /\s/.test(value)) throw new ConfigError(`${name} must be a claim name without spaces; got "${value}"`);
  return value;
}

export function issuerUrl(raw: string, name: string, { prod }: Context): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an https URL such as https://issuer.example.com/; got "${value}"`);
  }
  const loopback = /^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (loopback || !prod))) {
    throw new ConfigError(`${name} must be an https URL (plain http only for 127.0.0.1/localhost); got "${value}"`);
  }
  return value;
}

export function redisUrl(raw: string, name: string): string {
  if (!/^rediss?:\/\/[^\s]+$/.test(raw)) throw new ConfigError(`${name} must be a redis:// or rediss:// URL such as redis://localhost:6379; got "${raw}"`);
  return raw;
}

/** `key=value,key2=value2`, values percent-encoded (the specification's format). */
export function resourceAttributes(raw: string, name: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigError(`${name} must be key=value pairs separated by commas; got "${pair}"`);
    try {
      attributes[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${name}: the value of ${pair.slice(0, at).trim()} is not valid percent-encoding`);
    }
  }
  return attributes;
}

export const trimmed = (raw: string) => raw.trim();
