/** A misspelled setting is reported at start-up with the closest known name, instead of being silently ignored. */
import { describe, expect, it } from 'vitest';
import { loadConfig, unknownSettings } from '../../src/config.js';
import { warnUnknownSettings } from '../../src/processLifecycle.js';
import type { Logger } from '../../src/logger.js';

describe('unknown settings', () => {
  it('names a misspelled setting and the closest known one', () => {
    expect(unknownSettings({ DYNAMODB_ENPOINT: 'http://localhost:8000' })).toEqual([{ name: 'DYNAMODB_ENPOINT', closest: 'DYNAMODB_ENDPOINT' }]);
    expect(unknownSettings({ AUTH_ISUER: 'https://issuer', WS_MAX_CONECTIONS: '10', CURSOR_SECERT: 'x' })).toEqual([
      { name: 'AUTH_ISUER', closest: 'AUTH_ISSUER' },
      { name: 'CURSOR_SECERT', closest: 'CURSOR_SECRET' },
      { name: 'WS_MAX_CONECTIONS', closest: 'WS_MAX_CONNECTIONS' },
    ]);
  });

  it('names a near miss of any setting, with or without a project prefix', () => {
    expect(unknownSettings({ TABEL_NAME: 'Mine', SCHEMA_FLE: 'mine.graphql', LOG_LEVL: 'debug', PROT: '4001' })).toEqual([
      { name: 'LOG_LEVL', closest: 'LOG_LEVEL' },
      { name: 'PROT', closest: 'PORT' },
      { name: 'SCHEMA_FLE', closest: 'SCHEMA_FILE' },
      { name: 'TABEL_NAME', closest: 'TABLE_NAME' },
    ]);
  });

  it('leaves the variables of a usual shell, CI runner and npm alone', () => {
    const env = Object.fromEntries(
      [
        'PATH',
        'HOME',
        'HOSTNAME',
        'USER',
        'SHELL',
        'PWD',
        'OLDPWD',
        'LANG',
        'TERM',
        'TZ',
        'CI',
        'SHLVL',
        'INIT_CWD',
        'NODE',
        'EDITOR',
        'LOGNAME',
        'MAIL',
        'DISPLAY',
        'JAVA_HOME',
        'TMPDIR',
        'COLORTERM',
        'NODE_PATH',
        'GITHUB_ACTIONS',
        'RUNNER_OS',
        'AWS_PROFILE',
        'AWS_DEFAULT_REGION',
        'AWS_ACCESS_KEY_ID',
        'AWS_SESSION_TOKEN',
        'NO_COLOR',
        'FORCE_COLOR',
        'DEBUG',
        'HTTPS_PROXY',
        'NO_PROXY',
        'NODE_EXTRA_CA_CERTS',
        'SSL_CERT_FILE',
        'XDG_RUNTIME_DIR',
      ].map((n) => [n, 'x']),
    );
    expect(unknownSettings(env)).toEqual([]);
  });

  it("reports an OTEL_ variable that is neither a setting nor one of OpenTelemetry's own", () => {
    expect(unknownSettings({ OTEL_SERVICE_NAM: 'gw' })).toEqual([{ name: 'OTEL_SERVICE_NAM', closest: 'OTEL_SERVICE_NAME' }]);
    expect(
      unknownSettings({
        OTEL_SERVICE_NAME: 'gw',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=b',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
        OTEL_EXPORTER_PROMETHEUS_PORT: '9464',
      }),
    ).toEqual([]);
  });

  it("leaves known settings, families of settings, other tools' variables and empty values alone", () => {
    const env = {
      DYNAMODB_ENDPOINT: 'aws',
      DYNAMODB_LOCAL_PORT: '8001',
      AUTH_STUDENT_CLAIM: 'sid',
      AWS_SECRET_ACCESS_KEY: 'x',
      NODE_OPTIONS: '--max-old-space-size=512',
      HTTP_PROXY: 'http://proxy',
      PATH: '/usr/bin',
      DYNAMODB_TYPO: '',
    };
    expect(unknownSettings(env)).toEqual([]);
  });

  it('warns about a setting earlier versions read like about any other unknown variable with a project prefix, and still starts', () => {
    const config = loadConfig({ GRAPHQL_EXECUTOR: 'graphql-js' });
    expect(config.unknownSettings).toEqual([{ name: 'GRAPHQL_EXECUTOR', closest: 'AWS_REGION' }]);
    const warnings: [object, string][] = [];
    warnUnknownSettings({ warn: (fields: object, message: string) => warnings.push([fields, message]) } as unknown as Logger, config);
    expect(warnings).toEqual([
      [{ setting: 'GRAPHQL_EXECUTOR', closest: 'AWS_REGION' }, 'GRAPHQL_EXECUTOR is not a setting and is ignored; did you mean AWS_REGION?'],
    ]);
  });

  it('is part of the loaded configuration and warned about once per variable', () => {
    const config = loadConfig({ DYNAMODB_ENPOINT: 'http://localhost:8000' });
    expect(config.endpoint).toEqual({ kind: 'embedded' });
    const warnings: [object, string][] = [];
    warnUnknownSettings({ warn: (fields: object, message: string) => warnings.push([fields, message]) } as unknown as Logger, config);
    expect(warnings).toEqual([
      [{ setting: 'DYNAMODB_ENPOINT', closest: 'DYNAMODB_ENDPOINT' }, 'DYNAMODB_ENPOINT is not a setting and is ignored; did you mean DYNAMODB_ENDPOINT?'],
    ]);
  });
});
