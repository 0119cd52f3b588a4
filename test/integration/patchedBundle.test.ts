/**
 * The patched hashing of Apollo (@apollo/utils.createhash, patches/) inside
 * an ES module bundle as the gateway's bundles are built: esbuild bundles it
 * here, so this runs with the integration tests.
 */
import { createHash as nodeCreateHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'patched-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `@apollo/utils.createhash` bundled as the gateway's bundles are (an ES module, `require` from the banner); the bundle's exports. */
async function bundledCreateHash(name: string, banner: string): Promise<Record<string, unknown>> {
  const entry = join(work, `${name}.entry.mjs`);
  writeFileSync(entry, "export { createHash } from '@apollo/utils.createhash';\n");
  const outfile = join(work, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    nodePaths: [join(root, 'node_modules')],
    logLevel: 'silent',
    banner: { js: banner },
  });
  return import(pathToFileURL(outfile).href);
}

describe('the patched hashing (@apollo/utils.createhash)', () => {
  it("hashes with Node's crypto inside an ES module bundle, where module.require does not exist", async () => {
    const { createHash } = (await bundledCreateHash(
      'hash',
      "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    )) as { createHash: typeof nodeCreateHash };
    const hash = createHash('sha256');
    // Node's Hash, not sha.js's JavaScript implementation.
    expect(hash.constructor.name).toBe(nodeCreateHash('sha256').constructor.name);
    expect(hash.update('{ a }').digest('hex')).toBe(nodeCreateHash('sha256').update('{ a }').digest('hex'));
  });

  it('looks crypto up once, not on every hash (in a bundle each lookup goes through the CommonJS resolver)', async () => {
    // The bundle's require, counting the lookups of crypto.
    const bundled = (await bundledCreateHash(
      'hash-once',
      "import { createRequire as __createRequire } from 'node:module'; const __real = __createRequire(import.meta.url); " +
        "export const lookups = { crypto: 0 }; const require = (id) => { if (id === 'crypto') lookups.crypto += 1; return __real(id); };",
    )) as { createHash: typeof nodeCreateHash; lookups: { crypto: number } };
    const digests = ['{ a }', '{ b }', '{ c }'].map((text) => bundled.createHash('sha256').update(text).digest('hex'));
    expect(digests).toEqual(['{ a }', '{ b }', '{ c }'].map((text) => nodeCreateHash('sha256').update(text).digest('hex')));
    expect(bundled.lookups.crypto).toBe(1);
  });
});
