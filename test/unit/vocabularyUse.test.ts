/**
 * Every argument of the vocabulary (src/declaration/directives.ts) is used
 * by a model the repository ships or tests: the example models
 * (examples/), the default model (schema.graphql), the fixtures
 * (test/fixtures/) and the shared test models (test/support/*Model.ts). An
 * argument no such model uses is either added to one, with a test that
 * exercises it, or removed (docs/model.md, "Changes"). And every directive
 * is used at least twice by the example models alone (examples/), so each
 * is shown where a reader looks first, in more than one setting.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, visit, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DIRECTIVE_DEFINITIONS } from '../../src/declaration/directives.js';

const ROOT = join(import.meta.dirname, '..', '..');

const files = (dir: string, ending: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ending) : path.endsWith(ending) ? [path] : [];
  });

const EXAMPLES = files(join(ROOT, 'examples'), '.graphql');

/** The models: .graphql files, and the SDL template literals of the shared test models. */
function models(): DocumentNode[] {
  const texts = [...EXAMPLES, ...files(join(ROOT, 'test', 'fixtures'), '.graphql'), join(ROOT, 'schema.graphql')].map((f) => readFileSync(f, 'utf8'));
  for (const f of files(join(ROOT, 'test', 'support'), 'Model.ts'))
    for (const m of readFileSync(f, 'utf8').matchAll(/`([^`]*)`/g)) texts.push(m[1]!.replace(/\$\{[^}]*\}/g, ''));
  return texts.flatMap((text) => {
    try {
      return [parse(text)];
    } catch {
      return []; // a template literal that is no SDL
    }
  });
}

const definitions = parse(DIRECTIVE_DEFINITIONS).definitions.flatMap((d) => (d.kind === 'DirectiveDefinition' ? [d] : []));
/** `@directive(argument)` of every argument the vocabulary defines. */
const vocabulary = definitions.flatMap((d) => (d.arguments ?? []).map((a) => `@${d.name.value}(${a.name.value})`));

describe('the vocabulary in use', () => {
  const used = new Set<string>();
  for (const doc of models()) {
    visit(doc, {
      Directive(node) {
        for (const a of node.arguments ?? []) used.add(`@${node.name.value}(${a.name.value})`);
      },
    });
  }

  it('reads the models it scans (the example models and the default model among them)', () => {
    expect(used).toContain('@item(pk)');
    expect(used).toContain('@catalog(prefixArgument)');
    expect(used).toContain('@access(rule)');
  });

  it('has every argument of the vocabulary used by a model the repository ships or tests', () => {
    expect(vocabulary.filter((a) => !used.has(a))).toEqual([]);
  });
});

describe('the vocabulary in the example models', () => {
  /** How many times each directive is applied in examples/ (comments and descriptions aside). */
  const uses = new Map<string, number>();
  for (const file of EXAMPLES)
    visit(parse(readFileSync(file, 'utf8')), {
      Directive(node) {
        uses.set(node.name.value, (uses.get(node.name.value) ?? 0) + 1);
      },
    });

  it('counts the uses of the examples it reads (the subscriptions of the celebrities example among them)', () => {
    expect(EXAMPLES.map((f) => f.slice(ROOT.length + 1))).toContain(join('examples', 'celebrities.graphql'));
    expect(uses.get('changes')).toBeGreaterThan(0);
  });

  it('has every directive of the vocabulary applied at least twice in examples/', () => {
    expect(definitions.map((d) => [d.name.value, uses.get(d.name.value) ?? 0]).filter(([, n]) => (n as number) < 2)).toEqual([]);
  });
});
