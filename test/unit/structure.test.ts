/**
 * The shape of src/: its import graph read from the sources (static
 * imports, `import type`, re-exports and dynamic `import()` alike).
 *
 * A room is a top-level file of src/ (`config.ts`) or a folder of src/
 * (`graphql/`, its plugins/ included). The rooms stand in one order, the
 * layers of docs/architecture.md ("Layers"), bottom first; a file may
 * import its own room and the rooms below it. What is checked:
 * - no import cycle between files;
 * - no import cycle between rooms;
 * - no import of a room above;
 * - every room of src/ has its place in the order, and the order in the
 *   documentation is this one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

/** Bottom first. A folder ends in `/`. */
export const LAYERS = [
  'errors.ts',
  'config/',
  'config.ts',
  'logger.ts',
  'declaration/',
  'dynamo/',
  'telemetry/',
  'plan/',
  'auth/',
  'loaders.ts',
  'connections/',
  'writes/',
  'context.ts',
  'subscriptions/',
  'stream/',
  'migration/',
  'resolvers/',
  'federation/',
  'idempotency/',
  'graphql/',
  'transport/',
  'processLifecycle.ts',
  'streamWorker.ts',
  'main.ts',
] as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm;

/** Every file of src/ (relative to src/) and the files of src/ it imports. */
export function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path);
    const targets = new Set<string>();
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(SPECIFIER)) {
      const target = normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts');
      if (target.startsWith('..')) continue; // outside src/ (package.json and the like)
      targets.add(target.endsWith('.ts') ? target : `${target}.ts`);
    }
    graph.set(file, targets);
  }
  return graph;
}

export const roomOf = (file: string): string => (file.includes('/') ? `${file.slice(0, file.indexOf('/'))}/` : file);

/** The strongly connected components with more than one member (Tarjan), each sorted. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

function roomGraph(files: Map<string, Set<string>>): Map<string, Set<string>> {
  const rooms = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = roomOf(file);
    const edges = rooms.get(from) ?? new Set<string>();
    rooms.set(from, edges);
    for (const target of targets) if (roomOf(target) !== from) edges.add(roomOf(target));
  }
  return rooms;
}

/** Imports of a room above the importing file's, as `from → to` (files). */
export function upwardImports(files: Map<string, Set<string>>, layers: readonly string[] = LAYERS): string[] {
  const rank = (room: string) => layers.indexOf(room);
  const found: string[] = [];
  for (const [file, targets] of files) {
    for (const target of targets) {
      const from = roomOf(file);
      const to = roomOf(target);
      if (from !== to && rank(to) > rank(from)) found.push(`${file} → ${target}`);
    }
  }
  return found.sort();
}

/**
 * The processes' entry points: the only files of src/ that load the model
 * served (loadModel, or the SCHEMA_FILE default). Every other part is
 * handed the model or plan it serves, so no part can serve the default
 * model by omission while the process serves another.
 */
export const ENTRY_POINTS = [
  'main.ts',
  'streamWorker.ts',
  'transport/startGateway.ts',
  'transport/gatewayParts.ts',
  'transport/lambdaHandler.ts',
  'stream/lambda.ts',
];
/** Where the model is loaded and the default named: the loader itself and the setting. */
const MODEL_LOADING = ['declaration/loadModel.ts', 'config.ts', 'config/settings.ts'];

/** Files, besides the entry points, that import loadModel's module or name DEFAULT_SCHEMA_FILE. */
export function modelLoaders(files: Map<string, Set<string>>, source: (file: string) => string): string[] {
  return [...files]
    .filter(([file]) => !ENTRY_POINTS.includes(file) && !MODEL_LOADING.includes(file))
    .filter(([file, targets]) => targets.has('declaration/loadModel.ts') || /\bDEFAULT_SCHEMA_FILE\b/.test(source(file)))
    .map(([file]) => file)
    .sort();
}

describe('the import graph of src/', () => {
  const files = importGraph();

  it('is read from the sources: static, type-only, re-exported and dynamic imports alike', () => {
    const graph = importGraph();
    expect(graph.get('graphql/context.ts')).toContain('context.ts');
    expect(graph.get('telemetry/telemetry.ts')).toContain('telemetry/port.ts'); // `export type * from`
    expect(graph.get('telemetry/telemetry.ts')).toContain('telemetry/otel.ts'); // `await import('./otel.js')`
    expect(graph.get('graphql/server.ts')).toContain('graphql/plugins/argumentCheck.ts');
    expect(roomOf('graphql/plugins/argumentCheck.ts')).toBe('graphql/');
  });

  it('has no cycle between files', () => {
    expect(cycles(files)).toEqual([]);
  });

  it('has no cycle between rooms (top-level files and folders of src/)', () => {
    expect(cycles(roomGraph(files))).toEqual([]);
  });

  it('gives every room of src/ its place in the layers', () => {
    const rooms = [...new Set([...files.keys()].map(roomOf))];
    expect(rooms.filter((room) => !(LAYERS as readonly string[]).includes(room))).toEqual([]);
  });

  it('lists only rooms that exist', () => {
    const rooms = new Set([...files.keys()].map(roomOf));
    expect(LAYERS.filter((room) => !rooms.has(room))).toEqual([]);
  });

  it('imports only downward: no file imports a room above its own', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('loads the model only in the entry points: every other file is handed its model or plan', () => {
    for (const entry of ENTRY_POINTS) expect(files.has(entry), entry).toBe(true);
    expect(modelLoaders(files, (file) => readFileSync(join(SRC, file), 'utf8'))).toEqual([]);
  });

  it('is documented: docs/architecture.md lists these layers, top first, and says no import goes upward', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Layers\n'), doc.indexOf('\n## ', doc.indexOf('\n## Layers\n') + 1));
    expect(section.length).toBeGreaterThan(0);
    const block = section.slice(section.indexOf('```\n') + 4, section.indexOf('\n```', section.indexOf('```\n') + 4));
    const listed = block.split('\n').flatMap((line) =>
      line
        .trim()
        .split(/\s{2,}/)[0]!
        .split(/\s+/)
        .filter((t) => t.endsWith('/') || t.endsWith('.ts')),
    );
    expect(listed).toEqual([...LAYERS].reverse());
    expect(section).toContain('Exceptions: none.');
  });
});

describe('the checks themselves', () => {
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));

  it('find a cycle of three files and leave a chain alone', () => {
    expect(cycles(graph({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'], 'd.ts': ['a.ts'] }))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(cycles(graph({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': [] }))).toEqual([]);
  });

  it('find a cycle between folders that no two files form', () => {
    const files = graph({ 'x/one.ts': ['y/one.ts'], 'y/one.ts': [], 'y/two.ts': ['x/two.ts'], 'x/two.ts': [] });
    expect(cycles(files)).toEqual([]);
    expect(cycles(roomGraph(files))).toEqual([['x/', 'y/']]);
  });

  it('find a file outside the entry points that loads the model or names its default file, and leave the entry points alone', () => {
    const files = graph({
      'writes/store.ts': ['declaration/loadModel.ts'],
      'migration/migrate.ts': ['config.ts'],
      'main.ts': ['declaration/loadModel.ts'],
      'plan/plan.ts': [],
    });
    const text: Record<string, string> = { 'migration/migrate.ts': 'import { DEFAULT_SCHEMA_FILE } from "../config.js";' };
    expect(modelLoaders(files, (file) => text[file] ?? '')).toEqual(['migration/migrate.ts', 'writes/store.ts']);
  });

  it('call an import of a higher room upward, and one of a lower room or of the own room not', () => {
    const files = graph({ 'low/a.ts': ['high/b.ts', 'low/c.ts'], 'high/b.ts': ['low/c.ts'], 'low/c.ts': [] });
    expect(upwardImports(files, ['low/', 'high/'])).toEqual(['low/a.ts → high/b.ts']);
  });
});
