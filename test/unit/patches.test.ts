/**
 * The dependency patches (patches/, applied by patch-package on `npm ci`)
 * are made for the pinned versions, are applied to the tree the tests run
 * on, and change what they say they change: Apollo's hashing uses Node's
 * crypto inside an ES module bundle too.
 */
import { createHash as nodeCreateHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dependencyPatches, patchProblems } from '../../scripts/patches.js';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

const work = mkdtempSync(join(tmpdir(), 'patches-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('dependency patches', () => {
  const patches = dependencyPatches(root);

  it('are made for the exact versions package.json and the lockfile pin', () => {
    expect(patches.map((p) => p.name)).toEqual(['@apollo/utils.createhash']);
    for (const patch of patches) {
      expect(lock.packages[`node_modules/${patch.name}`]?.version, patch.file).toBe(patch.version);
      // package.json names it at the patched version, or leaves it to the lockfile.
      expect([undefined, patch.version], patch.file).toContain(pkg.dependencies[patch.name]);
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
