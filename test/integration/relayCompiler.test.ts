/** relay-compiler (a process of its own) compiles the Relay example (clients/relay/) against the served schema (clients/api/schema.graphql, npm run schema). */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

describe('Relay', () => {
  it('compiles the Relay example against the served schema (globalId as the Node id field), DateTime typed as string', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-'));
    try {
      cpSync(join(root, 'clients/api/schema.graphql'), join(dir, 'clients/api/schema.graphql'));
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
