/**
 * The offline explorer and the landing page's fallback to it, over HTTP on
 * 127.0.0.1 (no DynamoDB: no operation runs). The real-browser run is
 * `npm run e2e:explorer`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApolloServer } from '@apollo/server';
import { createServer } from '../../src/graphql/server.js';
import type { Context } from '../../src/graphql/context.js';
import { createHttpHandler } from '../../src/transport/httpHandler.js';
import { createExplorer, EXPLORER_ASSETS, explorerExample, resolveAsset } from '../../src/transport/explorer.js';
import { defaultPlan } from '../support/model.js';
import { fileURLToPath } from 'node:url';
import { buildASTSchema, parse, validate } from 'graphql';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { demoItemsOf } from '../../src/transport/demoData.js';
import { demoItems } from '../support/demoData.js';
import { withExplorerFallback } from '../../src/graphql/plugins/landingPage.js';

async function serve(production: boolean) {
  const apollo = createServer({ prod: production, model: defaultPlan.model });
  await apollo.start();
  const handler = createHttpHandler(apollo, {
    corsOrigins: undefined,
    health: async () => true,
    context: async () => {
      throw new Error('no operation runs in these tests');
    },
    ...(production ? {} : { explorer: createExplorer(explorerExample(defaultPlan, demoItems())) }),
  });
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { apollo, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let dev: { apollo: ApolloServer<Context>; server: Server; base: string };
let prod: { apollo: ApolloServer<Context>; server: Server; base: string };
beforeAll(async () => {
  dev = await serve(false);
  prod = await serve(true);
});
afterAll(async () => {
  for (const s of [dev, prod]) {
    await new Promise((resolve) => s.server.close(resolve));
    await s.apollo.stop();
  }
});

describe('GET /graphiql in development', () => {
  it('serves a GraphiQL page that loads nothing from another host', async () => {
    const res = await fetch(`${dev.base}/graphiql`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.sort()).toEqual(
      Object.keys(EXPLORER_ASSETS)
        .map((name) => `/graphiql/${name}`)
        .sort(),
    );
    expect(html).not.toMatch(/https?:\/\//);
    // The endpoint is this gateway's /graphql, headers are editable, the example query runs on the demo data.
    expect(html).toContain("new URL('/graphql', window.location.href)");
    expect(html).toContain('isHeadersEditorEnabled: true');
    expect(html).toContain('query StudentCourses');
  });

  it("opens with an example derived from the served model: its first @get, that type's first connection, a demo id", () => {
    const example = explorerExample(defaultPlan, demoItems());
    // The defaults are in the operation: a pasted query meets no stale variable.
    expect(example.variables).toEqual({});
    expect(example.query.split('\n').filter((l) => !l.startsWith('#'))).toEqual([
      'query StudentCourses($id: ID! = "1", $first: Int = 2, $after: String) {',
      '  student(id: $id) {',
      '    name',
      '    courses(first: $first, after: $after) {',
      '      totalCount',
      '      pageInfo { hasNextPage endCursor }',
      '      edges { enrolledAt node { id title } }',
      '    }',
      '  }',
      '}',
      '',
    ]);
    // Another model gets its own, valid against its schema.
    const crm = loadModel(fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url)));
    const other = explorerExample(compilePlan(crm), demoItemsOf(crm.source));
    expect(validate(buildASTSchema(crm.typeDefs), parse(other.query))).toEqual([]);
    expect(other.query).not.toMatch(/student|course/i);
    expect(other.variables).toEqual({});
    expect(other.query).toMatch(/\$id: ID! = "[^"]+"/);
  });

  it('serves each asset byte for byte from its npm package, with its media type', async () => {
    for (const [name, { file, type }] of Object.entries(EXPLORER_ASSETS)) {
      const res = await fetch(`${dev.base}/graphiql/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(resolveAsset(file)!))).toBe(true);
    }
  });

  it('answers an unknown asset with 404 and a code, and a POST with 405', async () => {
    const missing = await fetch(`${dev.base}/graphiql/../../package.json`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${dev.base}/graphiql/__proto__`)).status).toBe(404);
    const other = await fetch(`${dev.base}/graphiql/secrets.js`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as any).errors[0].extensions.code).toBe('NOT_FOUND');
    const post = await fetch(`${dev.base}/graphiql`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
  });
});

describe('the landing page of /graphql', () => {
  it('keeps Apollo Sandbox and falls back to /graphiql under the same CSP nonce when Sandbox cannot load', async () => {
    const res = await fetch(`${dev.base}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/embeddable-sandbox\.cdn\.apollographql\.com/);
    const nonce = /<script nonce="([^"]+)" src=/.exec(html)![1];
    const fallback = html.indexOf(`<script nonce="${nonce}">\n  (function () {\n    var done = false;`);
    expect(fallback).toBeGreaterThan(html.indexOf('<body>'));
    expect(fallback).toBeLessThan(html.indexOf(`<script nonce="${nonce}" src=`));
    expect(html).toContain('new URL("/graphiql", window.location.href)');
    expect(html).toContain('<a href="/graphiql">/graphiql</a>');
  });

  it('leaves a page without a nonce as it was', () => {
    expect(withExplorerFallback('<html><body></body></html>', '/graphiql')).toBe('<html><body></body></html>');
  });
});

describe('production', () => {
  it('serves no explorer and no landing page', async () => {
    const res = await fetch(`${prod.base}/graphiql`);
    expect(res.status).toBe(404);
    const landing = await fetch(`${prod.base}/graphql`, { headers: { accept: 'text/html' } });
    expect(await landing.text()).not.toMatch(/graphiql|sandbox/i);
  });
});
