/**
 * Every argument of the vocabulary (src/declaration/directives.ts) is used
 * by a model the repository ships or tests: the example models
 * (examples/), the default model (schema.graphql), the fixtures
 * (test/fixtures/) and the shared test models (test/support/*Model.ts). An
 * argument no such model uses is either added to one, with a test that
 * exercises it, or removed (docs/model.md, "Changes").
 *
 * PENDING lists the arguments still used only by the models of single
 * integration tests; the list may only shrink (an argument listed and used
 * fails as well as one unused and not listed).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, visit, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DIRECTIVE_DEFINITIONS } from '../../src/declaration/directives.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** `@directive(argument)` → the integration test whose own model uses it. */
const PENDING: Readonly<Record<string, string>> = {
  '@indexed(when)': 'test/integration/indexShapes.test.ts',
  '@children(index)': 'test/integration/numberSortKeys.test.ts',
  '@edges(maxShards)': 'test/unit/modelDeclaration.test.ts (its refusals; the default model takes the default, 64)',
  '@edges(order)': 'test/integration/edgeKeyFields.test.ts, edgeLayouts.test.ts',
  '@edges(from)': 'test/integration/edgeKeyFields.test.ts',
  '@edges(until)': 'test/integration/edgeKeyFields.test.ts',
};

const files = (dir: string, ending: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ending) : path.endsWith(ending) ? [path] : [];
  });

/** The models: .graphql files, and the SDL template literals of the shared test models. */
function models(): DocumentNode[] {
  const texts = [...files(join(ROOT, 'examples'), '.graphql'), ...files(join(ROOT, 'test', 'fixtures'), '.graphql'), join(ROOT, 'schema.graphql')].map((f) =>
    readFileSync(f, 'utf8'),
  );
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

/** `@directive(argument)` of every argument the vocabulary defines. */
const vocabulary = parse(DIRECTIVE_DEFINITIONS).definitions.flatMap((d) =>
  d.kind === 'DirectiveDefinition' ? (d.arguments ?? []).map((a) => `@${d.name.value}(${a.name.value})`) : [],
);

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

  it('has every argument of the vocabulary used by a model the repository ships or tests, but the pending ones', () => {
    expect(vocabulary.filter((a) => !used.has(a) && !(a in PENDING))).toEqual([]);
  });

  it('lists as pending only arguments of the vocabulary that no such model uses yet', () => {
    expect(Object.keys(PENDING).filter((a) => used.has(a) || !vocabulary.includes(a))).toEqual([]);
  });
});
