import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/settings.js';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions with continuation lines joined and comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
}

const dockerfile = instructions(read('Dockerfile'));
const args = Object.fromEntries(dockerfile.filter((i) => i.op === 'ARG' && i.args.includes('=')).map((i) => i.args.split('=', 2) as [string, string]));
const stages = dockerfile.reduce<Instruction[][]>((all, i) => {
  if (i.op === 'FROM') all.push([]);
  all.at(-1)?.push(i);
  return all;
}, []);
const runtime = stages.at(-1)!;
const image = (from: Instruction) => from.args.split(/\s+/)[0]!.replace(/^\$\{(\w+)\}$/, (_, name) => args[name] ?? '');

const compose = parse(read('docker-compose.yml'));
const operations = read('docs/operations.md');

describe('Dockerfile', () => {
  it('builds in stages from a current Node LTS slim image', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const names = stages.map((s) => /\sAS\s+(\w+)/i.exec(s[0]!.args)?.[1]);
    stages.forEach((stage, i) => {
      const from = image(stage[0]!);
      // A stage starts from the Node image or from an earlier stage.
      if (names.slice(0, i).includes(from)) return;
      expect(from).toMatch(/^node:(22|24)(\.\d+)*-(bookworm|trixie)-slim$/);
    });
    expect(stages.slice(0, -1).every((s) => /\sAS\s+\w+/i.test(s[0]!.args))).toBe(true);
  });

  it('installs production dependencies only, from the lockfile', () => {
    const installs = dockerfile.filter((i) => i.op === 'RUN' && /\bnpm (ci|install|i)\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const i of installs) {
      expect(i.args).toMatch(/\bnpm ci\b/);
      expect(i.args).toContain('--omit=dev');
    }
  });

  it('runs the final stage as a non-root user, exposes 4000 and starts the compiled bundle without npm', () => {
    const user = runtime.filter((i) => i.op === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(runtime.find((i) => i.op === 'EXPOSE')?.args).toBe('4000');
    const cmd = JSON.parse(runtime.find((i) => i.op === 'CMD')!.args) as string[];
    expect(cmd[0]).toBe('node');
    expect(cmd).toContain('--enable-source-maps');
    expect(cmd.at(-1)).toBe('dist/server/src/transport/main.mjs');
    // The bundle is made in an earlier stage by the build script, and the runtime stage copies it.
    const build = stages.find((s) => s.some((i) => i.op === 'RUN' && i.args.includes('scripts/build-server.ts')));
    expect(build).toBeDefined();
    expect(existsSync(join(root, 'scripts/build-server.ts'))).toBe(true);
    expect(runtime.some((i) => i.op === 'COPY' && i.args.includes('--from=build') && i.args.includes('dist/server'))).toBe(true);
    expect(runtime.some((i) => i.op === 'RUN' && /\btsx\b/.test(i.args))).toBe(false);
    expect(runtime.some((i) => i.op === 'ENV' && /NODE_ENV=production/.test(i.args))).toBe(true);
  });

  it('copies only files that exist and the .dockerignore lets in', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const copy of dockerfile.filter((i) => i.op === 'COPY' && !i.args.includes('--from'))) {
      const sources = copy.args
        .split(/\s+/)
        .filter((a) => !a.startsWith('--'))
        .slice(0, -1);
      for (const source of sources) {
        expect(existsSync(join(root, source)), source).toBe(true);
        expect(ignored, source).not.toContain(source);
      }
    }
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.git', '.env']));
  });

  it('has a health check against /health', () => {
    expect(runtime.find((i) => i.op === 'HEALTHCHECK')?.args).toContain('/health');
  });
});

/** Bare package names that src/ imports at run time (type-only imports excluded). */
function runtimeImports(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
  for (const file of walk(join(root, 'src')).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^import\s+(?!type\s)[^'"]*?from\s+'([^'.][^']*)'|^import\s+'([^'.][^']*)'/gm)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith('node:')) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return names;
}

describe('production dependencies', () => {
  it('include every package src/ imports at run time, and tsx that runs it', () => {
    const pkg = JSON.parse(read('package.json'));
    const deps = Object.keys(pkg.dependencies);
    const imports = runtimeImports();
    expect(imports.size).toBeGreaterThan(0);
    expect([...imports].filter((name) => !deps.includes(name))).toEqual([]);
    expect(deps).toContain('tsx');
  });
});

describe('docker-compose.yml', () => {
  const { dynamodb, gateway } = compose.services;

  it('runs DynamoDB Local in memory with a shared database on port 8000', () => {
    expect(dynamodb.image).toMatch(/^amazon\/dynamodb-local:\d+\.\d+\.\d+$/);
    expect(dynamodb.command).toEqual(expect.arrayContaining(['-inMemory', '-sharedDb']));
    // Published on the host's loopback only: DynamoDB Local checks no credentials.
    expect(dynamodb.ports).toEqual(['127.0.0.1:8000:8000']);
    expect(dynamodb.healthcheck.test.join(' ')).toContain('8000');
  });

  it('builds the gateway from this Dockerfile and publishes port 4000', () => {
    expect(gateway.build).toBe('.');
    expect(gateway.ports).toContain('4000:4000');
    expect(gateway.environment.PORT).toBe('4000');
  });

  it('points the gateway at the dynamodb service and names the table', () => {
    expect(gateway.environment.DYNAMODB_ENDPOINT).toBe('http://dynamodb:8000');
    expect(gateway.environment.TABLE_NAME).toBe('AppTable');
  });

  it('starts the gateway only once DynamoDB Local and Redis are healthy, and checks the gateway through /health', () => {
    expect(gateway.depends_on).toEqual({ dynamodb: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(gateway.healthcheck.test.join(' ')).toContain('http://127.0.0.1:4000/health');
  });

  it('passes only settings of the settings table', () => {
    for (const name of Object.keys(gateway.environment)) expect(Object.keys(SETTINGS), name).toContain(name);
  });

  it('runs a second gateway instance with the same settings, and Redis between the stream worker and both', () => {
    const second = compose.services['gateway-2'];
    expect(second.image).toBe(gateway.image);
    expect(second.environment).toEqual(gateway.environment);
    expect(second.ports).toEqual(['4001:4000']);
    expect(gateway.environment.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:-[^}]+\}@redis:6379$/);
    expect(compose.services['stream-worker'].environment.REDIS_URL).toBe(gateway.environment.REDIS_URL);
    expect(compose.services.redis.image).toMatch(/^redis:\d/);
  });

  it('runs Redis with a password and signs the events with one secret shared by the worker and both gateways', () => {
    const redis = compose.services.redis;
    const password = /^redis:\/\/:(.+)@redis:6379$/.exec(gateway.environment.REDIS_URL)![1];
    expect(redis.command).toContain('--requirepass');
    expect(redis.command[redis.command.indexOf('--requirepass') + 1]).toBe(password);
    expect(redis.ports).toBeUndefined();
    expect(gateway.environment.REDIS_EVENT_SECRET).toBeTruthy();
    expect(compose.services['stream-worker'].environment.REDIS_EVENT_SECRET).toBe(gateway.environment.REDIS_EVENT_SECRET);
  });
});

describe('the deployment documentation matches the Docker files', () => {
  it('names the same images and ports', () => {
    expect(operations).toContain(image(stages.at(-1)![0]!));
    expect(operations).toContain(compose.services.dynamodb.image);
    expect(operations).toContain('docker compose up');
    expect(operations).toContain('http://localhost:4000/graphql');
    expect(operations).toMatch(/\b8000\b/);
  });
});
