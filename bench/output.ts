/**
 * Where the benches write: results under `dist/bench/` (untracked), so a
 * run changes no tracked file; a tracked document (bench/results.md) only
 * with `--write-docs`; a file the user names (`--out`) where named.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The option every bench that keeps a document accepts (merge into its parseArgs options). */
export const WRITE_DOCS_OPTION = { 'write-docs': { type: 'boolean', default: false } } as const;

/** Writes `text` to `dist/bench/<name>` of `root`; returns the path. */
export const writeResult = (name: string, text: string, root = REPO_ROOT): string => writeNamed(join(root, 'dist', 'bench', name), text);

/**
 * A bench's document: always `dist/bench/<basename of doc>`, and the tracked
 * `doc` (relative to `root`) too when `writeDocs`. Returns the paths written.
 */
export function writeDocument(doc: string, text: string, writeDocs: boolean, root = REPO_ROOT): string[] {
  const written = [writeResult(doc.replace(/^bench\//, '').replace(/\//g, '-'), text, root)];
  if (writeDocs) written.push(writeNamed(join(root, doc), text));
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
