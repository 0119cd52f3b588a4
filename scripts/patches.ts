/**
 * The dependency patches of patches/ (applied by patch-package, the root
 * `postinstall` of package.json, so `npm install` and `npm ci` apply them)
 * and `patchProblems()`, which says whether the installed node_modules
 * carries them. docs/runtime.md explains each patch and how to re-make it.
 *
 * A patch file is named `<package>+<version>.patch` (a scope's `/` written
 * `+`) and is a unified diff of files under `node_modules/<package>/`.
 * "Applied" means: the installed package has that version, and every line
 * the patch adds is in the installed file. The bundler (scripts/bundle.ts)
 * refuses to bundle an unpatched tree, so a bundle never ships the code the
 * tests did not run; the unit test (test/unit/patches.test.ts) checks the
 * tree the tests run on.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DependencyPatch {
  /** The patch file, relative to the repository root. */
  file: string;
  /** The package, e.g. `@apollo/server`. */
  name: string;
  /** The version the patch was made for. */
  version: string;
  /** The installed files it changes (relative to the repository root), with the lines it adds to each. */
  changes: { path: string; added: string[] }[];
}

/** The patches in `<root>/patches`, parsed. */
export function dependencyPatches(root: string): DependencyPatch[] {
  const dir = join(root, 'patches');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.patch'))
    .sort()
    .map((f) => {
      const match = /^(.+)\+(\d[^+]*)\.patch$/.exec(f);
      if (!match) throw new Error(`patches/${f}: expected a name like <package>+<version>.patch`);
      const changes: DependencyPatch['changes'] = [];
      for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
        const target = /^\+\+\+ b\/(.+)$/.exec(line);
        if (target) changes.push({ path: target[1]!, added: [] });
        else if (line.startsWith('+') && line.slice(1).trim() !== '') changes.at(-1)?.added.push(line.slice(1));
      }
      return { file: `patches/${f}`, name: match[1]!.replace('+', '/'), version: match[2]!, changes };
    });
}

/** What is not as the patches say (an empty list when every patch is applied), one line per problem. */
export function patchProblems(root: string): string[] {
  const problems: string[] = [];
  for (const patch of dependencyPatches(root)) {
    const manifest = join(root, 'node_modules', patch.name, 'package.json');
    const installed = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
    if (installed !== patch.version) {
      problems.push(
        `${patch.file} was made for ${patch.name} ${patch.version}, but ${installed ?? 'nothing'} is installed: ` +
          're-make the patch for the installed release (docs/runtime.md, "Patched dependencies")',
      );
      continue;
    }
    for (const change of patch.changes) {
      const file = join(root, change.path);
      const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
      const missing = change.added.filter((line) => !text.includes(line));
      if (missing.length > 0) {
        problems.push(`${patch.file} is not applied to ${change.path} (run npx patch-package, or npm ci): ${missing.length} line(s) missing`);
      }
    }
  }
  return problems;
}
