/**
 * prepareBaseline(): another version of the gateway (any git ref) made
 * ready to run beside this one, for `npm run bench -- --baseline <ref>`.
 * The ref is checked out detached into a temporary worktree with this
 * repository's node_modules linked (checkDependencies() lists the packages
 * it pins at other versions), built with its OWN build script and run as
 * its `start:compiled` names (or its `start` entry through tsx), so the
 * baseline runs the artifact that ref shipped. Every external step goes
 * through `exec`, so the plumbing can be driven with a fake.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { REPO_ROOT } from './output.js';

/** Runs a command, resolving to its stdout; rejects (with its stderr) when it exits non-zero. */
export type Exec = (command: string, args: string[], options: { cwd: string }) => Promise<string>;

export const realExec: Exec = (command, args, { cwd }) =>
  new Promise((resolvePromise, reject) => {
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: process.env }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(
            `${command} ${args.join(' ')} (in ${cwd}) failed: ${String(stderr || error.message)
              .trim()
              .slice(-2000)}`,
          ),
        );
      else resolvePromise(stdout);
    });
  });

export interface Baseline {
  /** The ref as given, and the commit it named. */
  ref: string;
  commit: string;
  /** The worktree: the server's working directory. */
  dir: string;
  /** Node arguments: flags, then the entry (absolute). */
  command: string[];
  /** `bundle`: the ref's build output; `tsx`: its sources through tsx. */
  how: 'bundle' | 'tsx';
  /** Packages the ref pins at a version other than the one installed here (`name ref→installed`). */
  dependencyDrift: string[];
  cleanup: () => Promise<void>;
}

export interface BaselineOptions {
  repo?: string;
  tmp?: string;
  exec?: Exec;
  log?: (line: string) => void;
}

interface PackageJson {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The Node command of a `start:compiled`-like script: `… && node [--flags] <file>.mjs`. */
export function compiledCommand(script: string | undefined): string[] | null {
  if (!script) return null;
  const last = script.split('&&').pop()!.trim();
  const m = /^(?:exec\s+)?node((?:\s+--\S+)*)\s+(\S+\.m?js)\b/.exec(last);
  if (!m) return null;
  return [...m[1]!.trim().split(/\s+/).filter(Boolean), m[2]!];
}

/** The tsx entry of a `start`-like script: `tsx <file>.ts` (or `node --import tsx <file>.ts`). */
export function tsxEntry(script: string | undefined): string | null {
  if (!script) return null;
  const m = /\btsx\s+(\S+\.ts)\b/.exec(script);
  return m ? m[1]! : null;
}

/** The ref's pinned dependencies whose installed version (in `repo`'s node_modules) differs. */
export function checkDependencies(pkg: PackageJson, repo: string): string[] {
  const drift: string[] = [];
  for (const [name, wanted] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
    const file = join(repo, 'node_modules', name, 'package.json');
    const installed = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : 'missing';
    if (installed !== wanted) drift.push(`${name} ${wanted}→${installed}`);
  }
  return drift;
}

export async function prepareBaseline(ref: string, options: BaselineOptions = {}): Promise<Baseline> {
  const repo = options.repo ?? REPO_ROOT;
  const exec = options.exec ?? realExec;
  const log = options.log ?? (() => {});
  const commit = (await exec('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: repo })).trim();
  const tmp = mkdtempSync(join(options.tmp ?? tmpdir(), 'gateway-baseline-'));
  const dir = join(tmp, 'tree');
  let added = false;
  const cleanup = async () => {
    if (added) await exec('git', ['worktree', 'remove', '--force', dir], { cwd: repo }).catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
    if (added) await exec('git', ['worktree', 'prune'], { cwd: repo }).catch(() => {});
  };
  try {
    log(`baseline ${ref} (${commit.slice(0, 12)}): worktree in ${dir}`);
    await exec('git', ['worktree', 'add', '--detach', dir, commit], { cwd: repo });
    added = true;
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    const dependencyDrift = checkDependencies(pkg, repo);
    if (dependencyDrift.length) log(`baseline pins other versions than installed here: ${dependencyDrift.join(', ')}`);
    const server = await serverCommand(dir, pkg, exec, log, 'bundle', `the baseline ${ref}`);
    return { ref, commit, dir, ...server, dependencyDrift, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * The server command of a checkout `dir`: built with its own build script
 * and run as its `start:compiled` names (`bundle`), or its `start` entry
 * through tsx (`tsx`, also the fallback when it has no build).
 */
export async function serverCommand(
  dir: string,
  pkg: PackageJson,
  exec: Exec,
  log: (line: string) => void,
  prefer: 'bundle' | 'tsx',
  what: string,
): Promise<{ command: string[]; how: 'bundle' | 'tsx' }> {
  const compiled = compiledCommand(pkg.scripts?.['start:compiled']);
  if (prefer === 'bundle' && pkg.scripts?.build && compiled) {
    log(`${what}: npm run build (${pkg.scripts.build})`);
    await exec('npm', ['run', 'build'], { cwd: dir });
    const entry = resolve(dir, compiled.at(-1)!);
    if (!existsSync(entry)) throw new Error(`the build of ${what} did not write ${entry} (named by its start:compiled script)`);
    return { command: [...compiled.slice(0, -1), entry], how: 'bundle' };
  }
  const source = tsxEntry(pkg.scripts?.start);
  if (!source) throw new Error(`${what} has neither a build script with a start:compiled command nor a tsx start script`);
  if (prefer === 'bundle') log(`${what}: no build script, running ${source} through tsx`);
  return { command: ['--import', 'tsx', isAbsolute(source) ? source : resolve(dir, source)], how: 'tsx' };
}

/** This checkout's gateway, readied the same way as a baseline (its build script, or tsx with `prefer: 'tsx'`). */
export async function prepareCurrent(
  prefer: 'bundle' | 'tsx',
  options: BaselineOptions = {},
): Promise<{ dir: string; command: string[]; how: 'bundle' | 'tsx' }> {
  const dir = options.repo ?? REPO_ROOT;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  return { dir, ...(await serverCommand(dir, pkg, options.exec ?? realExec, options.log ?? (() => {}), prefer, 'this checkout')) };
}
