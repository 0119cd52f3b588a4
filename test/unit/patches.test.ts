/**
 * The dependency patches (patches/, applied by patch-package on `npm ci`)
 * are made for the pinned versions, are applied to the tree the tests run
 * on, and change what they say they change: Apollo's gateway request
 * context gets its `status` accessor from a class, and Apollo's hashing
 * uses Node's crypto inside an ES module bundle too.
 */
import { createHash as nodeCreateHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HeaderMap } from '@apollo/server';
import { dependencyPatches, patchProblems } from '../../scripts/patches.js';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const apolloDir = join(dirname(require.resolve('@apollo/server')), '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

/** A request context as Apollo hands it to makeGatewayGraphQLRequestContext. */
function requestContext() {
  return {
    request: { query: '{ a }', operationName: 'Q', variables: { v: 1 }, http: { method: 'POST', headers: new HeaderMap([['x-a', '1']]), search: 'b=2' } },
    response: { http: { headers: new HeaderMap([['x-r', 'r']]), status: undefined as number | undefined } },
    schema: { s: 1 },
    contextValue: { ctx: true },
    queryHash: 'h',
    document: { d: 1 },
    source: '{ a }',
    operationName: 'Q',
    operation: { o: 1 },
    errors: undefined,
    metrics: { m: 1 },
    overallCachePolicy: { p: 1 },
    requestIsBatched: false,
  };
}

const work = mkdtempSync(join(tmpdir(), 'patches-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('dependency patches', () => {
  const patches = dependencyPatches(root);

  it('are made for the exact versions package.json and the lockfile pin', () => {
    expect(patches.map((p) => p.name)).toEqual(['@apollo/server', '@apollo/utils.createhash']);
    for (const patch of patches) {
      expect(lock.packages[`node_modules/${patch.name}`]?.version, patch.file).toBe(patch.version);
      if (pkg.dependencies[patch.name]) expect(pkg.dependencies[patch.name], patch.file).toBe(patch.version);
      expect(patch.changes.length, patch.file).toBeGreaterThan(0);
    }
  });

  it('are applied by npm ci: patch-package is a pinned devDependency run by the postinstall script', () => {
    expect(pkg.devDependencies['patch-package']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages['node_modules/patch-package']?.version).toBe(pkg.devDependencies['patch-package']);
    expect(pkg.scripts.postinstall).toBe('patch-package --error-on-fail --error-on-warn');
  });

  it('are applied to the installed tree', () => {
    expect(patchProblems(root)).toEqual([]);
  });

  it('are reported as not applied when an installed file lacks their lines, and as stale for another version', () => {
    const fake = join(work, 'tree');
    const patch = 'patches/@apollo+utils.createhash+3.0.1.patch';
    mkdirSync(join(fake, 'patches'), { recursive: true });
    cpSync(join(root, patch), join(fake, patch));
    const dist = join(fake, 'node_modules/@apollo/utils.createhash/dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.js'), 'exports.createHash = () => {};\n');
    writeFileSync(join(fake, 'node_modules/@apollo/utils.createhash/package.json'), '{"version":"3.0.1"}');
    expect(patchProblems(fake)).toEqual([expect.stringMatching(/is not applied to node_modules\/@apollo\/utils\.createhash\/dist\/index\.js/)]);
    writeFileSync(join(fake, 'node_modules/@apollo/utils.createhash/package.json'), '{"version":"3.1.0"}');
    expect(patchProblems(fake)).toEqual([expect.stringMatching(/made for @apollo\/utils\.createhash 3\.0\.1, but 3\.1\.0 is installed/)]);
  });
});

describe('the patched hashing (@apollo/utils.createhash)', () => {
  it("hashes with Node's crypto: the same digest, from the native implementation", () => {
    const { createHash } = require(join(root, 'node_modules/@apollo/utils.createhash/dist/index.js'));
    const hash = createHash('sha256');
    expect(hash).toBeInstanceOf(nodeCreateHash('sha256').constructor);
    expect(hash.update('{ a }').digest('hex')).toBe(nodeCreateHash('sha256').update('{ a }').digest('hex'));
  });
});

describe('the patched gateway request context (@apollo/server)', () => {
  for (const build of ['esm', 'cjs'] as const) {
    it(`${build}: status is a class's accessor, written through to Apollo's response`, async () => {
      const file = join(apolloDir, `dist/${build}/utils/makeGatewayGraphQLRequestContext.js`);
      const { makeGatewayGraphQLRequestContext } = build === 'esm' ? await import(pathToFileURL(file).href) : require(file);
      const rc = requestContext();
      const server = { logger: { name: 'logger' }, cache: { name: 'cache' } };
      const out = makeGatewayGraphQLRequestContext(rc, server, { includeStacktraceInErrorResponses: true });

      // No own accessor on the object: the getter lives on a prototype shared by every call.
      const http = out.response.http;
      expect(Object.getOwnPropertyDescriptor(http, 'status')).toBeUndefined();
      expect(typeof Object.getOwnPropertyDescriptor(Object.getPrototypeOf(http), 'status')?.get).toBe('function');
      const other = makeGatewayGraphQLRequestContext(requestContext(), server, {}).response.http;
      expect(Object.getPrototypeOf(other)).toBe(Object.getPrototypeOf(http));

      expect(http.status).toBeUndefined();
      http.status = 418;
      expect(rc.response.http.status).toBe(418);
      rc.response.http.status = 202;
      expect(http.status).toBe(202);
      expect([...http.headers]).toEqual([['x-r', 'r']]);
      http.headers.append('x-r', 's');
      expect(rc.response.http.headers.get('x-r')).toBe('r, s');

      // The rest as Apollo makes it.
      expect(out.request.query).toBe('{ a }');
      expect(out.request.operationName).toBe('Q');
      expect(out.request.variables).toEqual({ v: 1 });
      expect(out.request.http.url).toBe('https://unknown-url.invalid/?b=2');
      expect(out.request.http.headers.get('x-a')).toBe('1');
      expect(out.logger).toBe(server.logger);
      expect(out.cache).toBe(server.cache);
      expect(out.context).toBe(rc.contextValue);
      expect(out.debug).toBe(true);
      for (const key of ['schema', 'queryHash', 'document', 'source', 'operationName', 'operation', 'metrics', 'overallCachePolicy', 'requestIsBatched'] as const) {
        expect(out[key], key).toBe(rc[key]);
      }
    });
  }
});
