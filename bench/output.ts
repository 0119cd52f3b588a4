/**
 * Where the benches write: the only module of bench/ that writes files.
 *
 * - Results go under `dist/bench/` (untracked: `dist/` is gitignored), so
 *   running a bench never changes a file of the repository.
 * - A bench that also keeps a document in the repository (bench/results.md,
 *   bench/auth-results.md, bench/fanout.md, bench/results/hot.md) rewrites
 *   it only when asked with `--write-docs`; without it the same text goes
 *   to `dist/bench/` and the bench says where.
 * - A file a user names explicitly (`--out <file>`) is written where named.
 *
 * `root` is a parameter (default the repository) so the unit test can point
 * it at a temporary directory.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The option every bench that keeps a document accepts (merge into its parseArgs options). */
export const WRITE_DOCS_OPTION = { 'write-docs': { type: 'boolean', default: false } } as const;

/** `dist/bench/<parts…>` of `root`, its folder created. */
export function resultsPath(name: string, root = REPO_ROOT): string {
  const file = join(root, 'dist', 'bench', name);
  mkdirSync(dirname(file), { recursive: true });
  return file;
}

/** Writes `text` to `dist/bench/<name>`; returns the path. */
export function writeResult(name: string, text: string, root = REPO_ROOT): string {
  const file = resultsPath(name, root);
  writeFileSync(file, text);
  return file;
}

/**
 * A bench's document: always `dist/bench/<basename of doc>`, and the tracked
 * `doc` (relative to `root`) too when `writeDocs`. Returns the paths written.
 */
export function writeDocument(doc: string, text: string, writeDocs: boolean, root = REPO_ROOT): string[] {
  const written = [writeResult(doc.replace(/^bench\//, '').replace(/\//g, '-'), text, root)];
  if (writeDocs) {
    const tracked = join(root, doc);
    mkdirSync(dirname(tracked), { recursive: true });
    writeFileSync(tracked, text);
    written.push(tracked);
  }
  return written;
}

/** A file the user named (`--out`), written where named. */
export function writeNamed(file: string, text: string): string {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A line for stderr saying where a bench's results went. */
export function wrote(paths: string[]): string {
  return `results written to ${paths.map((p) => p.replace(`${REPO_ROOT}/`, '')).join(' and ')}`;
}

/**
 * A generated section of a tracked document: always `dist/bench/<name>.md`,
 * and with `writeDocs` the text between `<!-- bench:<name> -->` and
 * `<!-- /bench:<name> -->` in `doc` is replaced (the markers stay; a document
 * without them is refused rather than appended to). Returns the paths written.
 */
export function writeSection(doc: string, name: string, text: string, writeDocs: boolean, root = REPO_ROOT): string[] {
  const written = [writeResult(`${name}.md`, text, root)];
  if (writeDocs) {
    const tracked = join(root, doc);
    const open = `<!-- bench:${name} -->`;
    const close = `<!-- /bench:${name} -->`;
    const current = readFileSync(tracked, 'utf8');
    const start = current.indexOf(open);
    const end = current.indexOf(close);
    if (start < 0 || end < start) throw new Error(`${doc} has no ${open} … ${close} section to rewrite`);
    writeFileSync(tracked, `${current.slice(0, start + open.length)}\n${text.trimEnd()}\n${current.slice(end)}`);
    written.push(tracked);
  }
  return written;
}
