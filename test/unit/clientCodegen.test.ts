/**
 * The typed operations of clients/ cannot rot: the client codegen
 * (clients/codegen.ts) runs over the example documents against
 * schema.graphql and must produce exactly the committed
 * clients/__generated__/ (typecheck then checks every use of them).
 * test/integration/relayCompiler.test.ts compiles the Relay example.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generate } from '@graphql-codegen/cli';
import config from '../../clients/codegen.js';

const root = resolve(import.meta.dirname, '../..');

describe('client codegen', () => {
  it('generates exactly the committed typed operations and manifest (run npm run codegen:clients after changing them)', async () => {
    const outputs = (await generate({ ...config, cwd: root, silent: true }, false)) as { filename: string; content: string }[];
    const files = outputs.map((o) => o.filename.replace(`${root}/`, '')).sort();
    expect(files).toEqual([
      'clients/__generated__/gql.ts',
      'clients/__generated__/graphql.ts',
      'clients/__generated__/index.ts',
      'clients/__generated__/persisted-documents.json',
    ]);
    for (const { filename, content } of outputs) {
      expect(readFileSync(resolve(root, filename), 'utf8'), filename).toBe(content);
    }
  });

  it('maps DateTime to string in the generated types', () => {
    const types = readFileSync(join(root, 'clients/__generated__/graphql.ts'), 'utf8');
    expect(types).toMatch(/enrolledAt: string/);
    expect(types).not.toMatch(/enrolledAt: any|enrolledAt: unknown/);
  });

  it('lists every example operation in the manifest under its sha256', async () => {
    const { createHash } = await import('node:crypto');
    const manifest = JSON.parse(readFileSync(join(root, 'clients/__generated__/persisted-documents.json'), 'utf8')) as Record<string, string>;
    expect(
      Object.values(manifest)
        .map((text) => /^(query|mutation) (\w+)/.exec(text)![2])
        .sort(),
    ).toEqual(['CourseStudents', 'Enroll', 'StudentCourses']);
    for (const [id, text] of Object.entries(manifest)) {
      expect(id).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
    }
  });
});
