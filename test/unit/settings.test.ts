/**
 * Each setting is stated once, in the table of src/config.ts: the docs and
 * the start-up line are rendered from it, and nothing in src/ reads the
 * environment around it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { changedSettings, loadConfig, MOST_USED_SETTINGS, SETTINGS, settingsSummary, settingsTable } from '../../src/config.js';
import { replaceBetween, SETTINGS_DOCUMENTS } from '../../scripts/settings-doc.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('the settings table', () => {
  it('gives every entry a meaning, a group, the values it accepts and a default', () => {
    const incomplete = Object.entries(SETTINGS)
      .filter(([, s]) => !/\S.*[.)]$/.test(s.meaning) || !s.range || !s.group || 'default' in s === false)
      .map(([name]) => name);
    expect(incomplete).toEqual([]);
  });

  it("has no entry the loader never reads: each is named in config/loadConfig.ts, but NODE_ENV, which decides the others' defaults", () => {
    const loader = read('src/config/loadConfig.ts');
    expect(Object.keys(SETTINGS).filter((name) => !loader.includes(`'${name}'`))).toEqual(['NODE_ENV']);
    expect(read('src/config/settings.ts')).toContain("reader(env, { prod: false })('NODE_ENV')");
  });

  it('is what docs/configuration.md and the README show (npm run docs:settings rewrites them)', () => {
    for (const { file, marker, render } of SETTINGS_DOCUMENTS) {
      const document = read(file);
      expect(replaceBetween(document, marker, render()), `${file} differs from src/config.ts: run npm run docs:settings`).toBe(document);
    }
    expect(read('docs/configuration.md')).toContain(settingsTable());
    expect(read('README.md')).toContain(settingsSummary(MOST_USED_SETTINGS));
  });

  it('names every entry in a row of docs/configuration.md', () => {
    const rows = read('docs/configuration.md')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const missing = Object.keys(SETTINGS).filter((name) => !rows.some((row) => row.startsWith(`| \`${name}\` |`)));
    expect(missing).toEqual([]);
  });
});

describe('reading the environment', () => {
  it('happens nowhere in src/ but config.ts and config/ (entry points hand process.env to loadConfig whole)', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles('src').filter((f) => f !== join('src', 'config.ts') && !f.startsWith(join('src', 'config', '')))) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$|^\s*\*.*$|^\s*\/\*.*$/, '');
          const withoutHandOver = code.replace(/loadConfig\(\{?\s*\.{0,3}process\.env\b/g, '');
          if (/process\.env\b|\benv\.[A-Z][A-Z0-9_]+|\benv\[['"`][A-Z]/.test(withoutHandOver))
            offenders.push(`${relative(root, join(root, file))}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('happens in config/ only through the table: no variable is read by name around it', () => {
    const source = sourceFiles('src/config').map(read).join('\n');
    const byName = [...source.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"`]([A-Z][A-Z0-9_]*))/g)].map((m) => m[1] ?? m[2]);
    // Node's own switches, read where Node's proxy support is handed to the DynamoDB clients' agents (config/proxy.ts):
    // they are Node's settings, not the gateway's, and the table does not own them.
    const NODE_OWN = ['NODE_USE_ENV_PROXY', 'NODE_OPTIONS'];
    expect(byName.filter((name) => !NODE_OWN.includes(name!))).toEqual([]);
    // Every name the loader asks for is an entry (the type checker holds get() to the table's names).
    const asked = [...source.matchAll(/\bget\('([A-Z][A-Z0-9_<>*]*)'\)/g)].map((m) => m[1]!);
    expect(asked.length).toBeGreaterThan(60);
    expect(asked.filter((name) => !(name in SETTINGS))).toEqual([]);
  });

  it('reads every variable of the table: each one set to a bad value is refused by name', () => {
    // Settings that accept any text are skipped; the rest must be checked by the loader.
    const bad: Record<string, string> = { int: 'x1', bool: 'maybe', choice: 'nonsense-value', url: 'not a url' };
    const refused: string[] = [];
    const accepted: string[] = [];
    const base = { AUTH_MODE: 'oidc', AUTH_ISSUER: 'https://issuer.example.com', AUTH_AUDIENCE: 'a', OTEL_SERVICE_NAME: 'x' };
    for (const [name, setting] of Object.entries(SETTINGS)) {
      const value = bad[setting.kind];
      if (value === undefined || name === 'OTEL_SDK_DISABLED' || name === 'AUTH_MODE') continue;
      try {
        loadConfig({ ...base, [name]: value });
        accepted.push(name);
      } catch (err) {
        if ((err as Error).message.startsWith(`${name} `) || (err as Error).message.startsWith(`${name}:`)) refused.push(name);
        else accepted.push(`${name}: ${(err as Error).message}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(refused.length).toBeGreaterThan(50);
  });
});

describe('the start-up line', () => {
  it('lists only settings that differ from their defaults, as given, secrets redacted', () => {
    const secret = 'q3Jx9yB0dK4LmN2pR7sT1uV5wX8zA6cE0fG3hI9jK2lM4nO7pQ1rS';
    expect(
      changedSettings({
        PORT: '4000', // the default, set explicitly: not a change
        LOG_LEVEL: 'debug',
        TABLE_NAME: '',
        CURSOR_SECRET: secret,
        CURSOR_SECRETS_PREVIOUS: `${secret}x`,
        AUTH_TEAM_CLAIM: 'team_id',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer abc',
        UNRELATED: 'x',
      }),
    ).toEqual({
      LOG_LEVEL: 'debug',
      CURSOR_SECRET: '(set)',
      CURSOR_SECRETS_PREVIOUS: '(set)',
      AUTH_TEAM_CLAIM: 'team_id',
      OTEL_EXPORTER_OTLP_HEADERS: '(set)',
    });
  });

  it("compares with the environment's default: production's differ from development's", () => {
    const production = { NODE_ENV: 'production', CURSOR_SECRET: '9f86d081884c7d659a2feaa0c55ad015', AUTH_MODE: 'off' };
    expect(changedSettings({ ...production, HEALTH_DETAILS: 'admins', DYNAMODB_METRICS_EXTENSION: 'false' })).toEqual({
      NODE_ENV: 'production',
      CURSOR_SECRET: '(set)',
      AUTH_MODE: 'off',
    });
    expect(changedSettings({ HEALTH_DETAILS: 'admins' })).toEqual({ HEALTH_DETAILS: 'admins' });
  });
});
