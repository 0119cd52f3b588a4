/**
 * Functions stay short enough to read: none in src/ or scripts/ runs over
 * LIMIT lines, counted from its first token (its doc comment excluded) to
 * its closing brace. A longer one is split where it reads better split
 * (docs/architecture.md, "Code for the reader").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const LIMIT = 100;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A function's own name, the variable or property it is assigned to, or `outer (anonymous)`. */
function nameOf(node: ts.SignatureDeclaration, outer: string | undefined): string {
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  return outer ? `${outer} (anonymous)` : '(anonymous)';
}

/** The functions of one file's text over `limit` lines, as `name` with their length. */
export function longFunctionsOf(fileName: string, text: string, limit = LIMIT): { name: string; lines: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node, outer: string | undefined): void => {
    let inner = outer;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      inner = nameOf(node, outer);
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
      if (lines > limit) found.push({ name: inner, lines });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, undefined);
  return found;
}

/** Every function of src/ and scripts/ over LIMIT lines, as `file function`. */
export function longFunctions(): string[] {
  return ['src', 'scripts'].flatMap((dir) =>
    sourceFiles(join(ROOT, dir)).flatMap((path) => {
      const file = relative(ROOT, path);
      return longFunctionsOf(file, readFileSync(path, 'utf8')).map(({ name }) => `${file} ${name}`);
    }),
  );
}

describe('function length', () => {
  it(`finds no function over ${LIMIT} lines in src/ or scripts/`, () => {
    expect(longFunctions()).toEqual([]);
  });

  it('measures declarations, arrow functions, methods and anonymous callbacks from first token to closing brace', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      '/** A doc comment does not count. */',
      `function declared() {\n${body(99)}\n}`, // 101 lines
      `const arrow = () => {\n${body(98)}\n};`, // 100 lines: at the limit
      `class C {\n  method() {\n${body(99)}\n  }\n}`,
      `function outer() {\n  return [1].map(() => {\n${body(99)}\n  });\n}`,
    ].join('\n');
    expect(longFunctionsOf('sample.ts', text)).toEqual([
      { name: 'declared', lines: 101 },
      { name: 'method', lines: 101 },
      { name: 'outer', lines: 103 },
      { name: 'outer (anonymous)', lines: 101 },
    ]);
  });
});

describe('formatting', () => {
  it("is checked by npm test's type check step, so functions are measured as formatted", () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.test).toMatch(/^npm run typecheck && /);
    expect(scripts.typecheck).toMatch(/&& biome format \.$/);
    const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
    expect(config.formatter).toMatchObject({ enabled: true, lineWidth: 160 });
    expect(config.files.includes).toEqual(expect.arrayContaining(['src/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts']));
  });
});
