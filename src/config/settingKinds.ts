/**
 * What a setting is (an entry of the settings table: its group, kind,
 * meaning, default and parser) and the kinds of entry the table is written
 * with. Terminology: an entry's `default` applies when the variable is
 * unset or empty; `prodDefault` replaces it in prod mode (NODE_ENV set to
 * PROD_NODE_ENV); a `defaultText` says in words what a default worked out
 * at start-up is. A pattern entry (`AUTH_<NAME>_CLAIM`, `OTEL_*`) stands
 * for a family of variables read by prefix.
 */
import { ConfigError, type OtlpProtocol } from './configTypes.js';

/** The groups of docs/configuration.md, in its order. */
export const SETTING_GROUPS = {
  serving: 'Serving',
  dynamodb: 'DynamoDB',
  security: 'Cursors and query limits',
  limits: 'What one operation may cost',
  http: 'HTTP clients',
  auth: 'Identity and authorization',
  health: 'Health and idempotency',
  stream: 'The stream processor',
  subscriptions: 'Subscriptions',
  commands: 'Lists, migrate and reshard',
  telemetry: 'Telemetry (OpenTelemetry)',
} as const;
export type SettingGroup = keyof typeof SETTING_GROUPS;

export interface Context {
  prod: boolean;
}

export interface Setting<T = unknown> {
  readonly group: SettingGroup;
  readonly kind: 'int' | 'bool' | 'choice' | 'list' | 'url' | 'path' | 'text' | 'secret' | 'pattern';
  /** What it does, in the docs' words (Markdown). */
  readonly meaning: string;
  /** The value when unset or empty. */
  readonly default: T;
  /** The value when unset or empty in prod mode. */
  readonly prodDefault?: T;
  /** The default in words, when it is worked out at start-up. */
  readonly defaultText?: string;
  /** The values accepted, in words (Markdown). */
  readonly range: string;
  /** Never shown: the start-up line says `(set)`. A secret's blanks are its own (32 spaces are a weak secret, not an unset one). */
  readonly secret?: boolean;
  /** A family of variables (`pattern` entries): which names belong to it. */
  readonly matches?: RegExp;
  /** Turns a non-empty value into the setting's value, or throws a ConfigError naming `name`. */
  readonly parse: (raw: string, name: string, context: Context) => T;
}

interface Common {
  group: SettingGroup;
  meaning: string;
  defaultText?: string;
  secret?: boolean;
}

const thousands = (n: number) => n.toLocaleString('en-US');

export function int(o: Common & { default: number; min: number; max: number; prodDefault?: number; note?: string }): Setting<number> {
  return {
    ...o,
    kind: 'int',
    range: `${thousands(o.min)}–${thousands(o.max)}${o.note ? ` (${o.note})` : ''}`,
    parse: (raw, name) => {
      const value = Number(raw);
      if (!Number.isInteger(value) || value < o.min || value > o.max) {
        throw new ConfigError(`${name} must be an integer from ${o.min} to ${o.max}; got "${raw}"`);
      }
      return value;
    },
  };
}

export function bool<T extends boolean | undefined>(o: Common & { default: T; prodDefault?: NoInfer<T> }): Setting<boolean | T> {
  return {
    ...o,
    kind: 'bool',
    range: '`1`, `0`, `true`, `false`',
    parse: (raw, name) => {
      const value = raw.trim().toLowerCase();
      if (value === '1' || value === 'true') return true;
      if (value === '0' || value === 'false') return false;
      throw new ConfigError(`${name} must be 1, 0, true or false; got "${raw}"`);
    },
  };
}

export function choice<const V extends string>(o: Common & { values: readonly V[]; default: V; prodDefault?: V }): Setting<V> {
  return {
    ...o,
    kind: 'choice',
    range: o.values.map((v) => `\`${v}\``).join(', '),
    parse: (raw, name) => {
      const value = raw.trim().toLowerCase();
      if (!(o.values as readonly string[]).includes(value)) throw new ConfigError(`${name} must be one of ${o.values.join(', ')}; got "${raw.trim()}"`);
      return value as V;
    },
  };
}

/** A choice whose default is worked out at start-up (unset here). */
export function optionalChoice<const V extends string>(o: Common & { values: readonly V[]; defaultText: string }): Setting<V | undefined> {
  const { default: _, ...rest } = choice({ ...o, default: o.values[0]! });
  return { ...rest, default: undefined };
}

/** A value checked (and shaped) by its own function. */
export function text<T>(
  o: Common & { kind?: Setting['kind']; default: T; prodDefault?: T; range: string; parse: (raw: string, name: string, context: Context) => T },
): Setting<T> {
  return { kind: 'text', ...o };
}

/** A family of variables read by prefix (the loader reads them; the docs and the start-up line list them). */
export function pattern(o: Common & { matches: RegExp; range: string }): Setting<undefined> & { matches: RegExp } {
  return { ...o, kind: 'pattern', default: undefined, parse: () => undefined };
}

/** The standard OpenTelemetry list variables: comma-separated names, `none` for none. */
export function otelList<const T extends string>(o: Common & { allowed: readonly T[]; default: T[] }): Setting<T[]> {
  return {
    ...o,
    kind: 'list',
    range: `comma-separated ${o.allowed.map((a) => `\`${a}\``).join(', ')}, or \`none\``,
    parse: (raw, name) => {
      const values = [
        ...new Set(
          raw
            .split(',')
            .map((v) => v.trim().toLowerCase())
            .filter(Boolean),
        ),
      ];
      if (values.includes('none')) return [];
      for (const value of values) {
        if (!(o.allowed as readonly string[]).includes(value)) throw new ConfigError(`${name} may list ${o.allowed.join(', ')} or none; got "${value}"`);
      }
      return values as T[];
    },
  };
}

export function otlpProtocol<D extends OtlpProtocol | undefined>(o: Common & { default: D }): Setting<OtlpProtocol | D> {
  return {
    ...o,
    kind: 'choice',
    range: '`http/protobuf`, `http/json`',
    parse: (raw, name) => {
      const value = raw.trim();
      if (value === 'http/protobuf' || value === 'http/json') return value;
      // gRPC would bring @grpc/grpc-js into every cold start; the OpenTelemetry Collector accepts OTLP over HTTP on 4318.
      throw new ConfigError(
        `${name} must be http/protobuf or http/json (gRPC is not built in: point it at a collector's OTLP/HTTP port, 4318); got "${value}"`,
      );
    },
  };
}

export function millis(o: Common & { default: number }): Setting<number> {
  return {
    ...o,
    kind: 'int',
    range: 'a positive integer (ms)',
    parse: (raw, name) => {
      const value = Number(raw.trim());
      if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive integer of milliseconds; got "${raw.trim()}"`);
      return value;
    },
  };
}
