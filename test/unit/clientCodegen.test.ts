/**
 * The typed operations of clients/ cannot rot: the client codegen
 * (clients/codegen.ts) runs over the example documents against
 * schema.graphql and must produce exactly the committed
 * clients/__generated__/ (typecheck then checks every use of them), and
 * relay-compiler compiles the Relay example (clients/relay/) against the
 * same schema.
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { generate } from '@graphql-codegen/cli';
import config from '../../clients/codegen.js';

const root = resolve(import.meta.dirname, '../..');

describe('client codegen', () => {
  it('generates exactly the committed typed operations and manifest (run npm run codegen:clients after changing them)', async () => {
    const outputs = (await generate({ ...config, cwd: root, silent: true }, false)) as { filename: string; content: string }[];
    const files = outputs.map((o) => o.filename.replace(`${root}/`, '')).sort();
    expect(files).toEqual(['clients/__generated__/gql.ts', 'clients/__generated__/graphql.ts', 'clients/__generated__/index.ts', 'clients/__generated__/persisted-documents.json']);
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
    expect(Object.values(manifest).map((text) => /^(query|mutation) (\w+)/.exec(text)![2]).sort()).toEqual(['CourseStudents', 'Enroll', 'StudentCourses']);
    for (const [id, text] of Object.entries(manifest)) {
      expect(id).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
    }
  });
});

describe('Relay', () => {
  it('compiles the Relay example against schema.graphql (globalId as the Node id field), DateTime typed as string', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-'));
    try {
      cpSync(join(root, 'schema.graphql'), join(dir, 'schema.graphql'));
      cpSync(join(root, 'clients/relay/relay.config.json'), join(dir, 'clients/relay/relay.config.json'));
      cpSync(join(root, 'clients/relay/src/StudentCourses.ts'), join(dir, 'clients/relay/src/StudentCourses.ts'));
      mkdirSync(join(dir, 'clients/relay/src/__generated__'), { recursive: true });
      const { stdout, stderr } = await promisify(execFile)(join(root, 'node_modules/.bin/relay-compiler'), [], { cwd: join(dir, 'clients/relay') });
      expect(`${stdout}${stderr}`).toMatch(/Compilation completed/);
      const fragment = readFileSync(join(dir, 'clients/relay/src/__generated__/StudentCoursesPage_query.graphql.ts'), 'utf8');
      expect(fragment).toMatch(/readonly enrolledAt: string;/);
      expect(fragment).toMatch(/"refetch": \{/);
      readFileSync(join(dir, 'clients/relay/src/__generated__/StudentCoursesPagePaginationQuery.graphql.ts'), 'utf8');
      // @refetchable on Student: refetched through the Node interface by its globalId.
      const refetch = readFileSync(join(dir, 'clients/relay/src/__generated__/StudentCoursesListPaginationQuery.graphql.ts'), 'utf8');
      expect(refetch).toMatch(/node\(id: \$globalId\)/);
      expect(readFileSync(join(dir, 'clients/relay/src/__generated__/StudentCoursesList_student.graphql.ts'), 'utf8')).toMatch(/readonly globalId: string;/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
