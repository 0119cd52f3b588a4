/**
 * `npm run bench:auth`: what identity and rules cost per operation.
 *
 * 1. Token verification with the key set cached (the steady state: one
 *    JWKS fetch per 10 minutes): `identify()` on a full `Authorization`
 *    header, per algorithm, in microseconds per call.
 * 2. Whole operations in-process (Apollo executeOperation against DynamoDB
 *    Local, no HTTP): the same query with AUTH_MODE=off, as an admin, and as
 *    a signed-in student, CPU time per operation and DynamoDB requests.
 *
 * Kept short (about a minute on two cores); figures go to stdout and
 * dist/bench/auth-results.md (`--write-docs`: also bench/auth-results.md,
 * the tracked copy the docs cite; bench/output.ts).
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createAuthenticator } from '../src/auth/authenticate.js';
import { makeSigningKey, mint, startIssuer, type SigningKey } from '../src/auth/devIssuer.js';
import type { OidcAuthConfig } from '../src/config.js';
import { createDynamo } from '../src/dynamo/client.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { ensureTable } from '../src/dynamo/table.js';
import { batchPut } from '../src/dynamo/batchWrite.js';
import { OperationMetrics } from '../src/dynamo/metrics.js';
import { createContext } from '../src/graphql/context.js';
import { createServer } from '../src/graphql/server.js';
import { createCursorCodec } from '../src/connections/cursorSigning.js';
import { silentLogger } from '../src/logger.js';
import { courseItem, enrollmentItem, studentItem } from '../test/support/defaultItems.js';
import type { Identity } from '../src/auth/identity.js';
import { compileRules } from '../src/auth/compileRules.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { WRITE_DOCS_OPTION, writeDocument, wrote } from './output.js';
import { compilePlan } from '../src/plan/plan.js';

const { values: opts } = parseArgs({ options: { ...WRITE_DOCS_OPTION } });

const AUDIENCE = 'bench';
const lines: string[] = [];
const out = (line = '') => {
  console.log(line);
  lines.push(line);
};

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

async function verification() {
  const keys: SigningKey[] = [await makeSigningKey('es', 'ES256'), await makeSigningKey('rs', 'RS256'), await makeSigningKey('ed', 'EdDSA')];
  const issuer = await startIssuer({ keys: () => keys.map((k) => k.publicJwk) });
  const config: OidcAuthConfig = {
    mode: 'oidc', explicit: true, issuer: issuer.url, audience: [AUDIENCE], jwksUrl: undefined,
    rolesClaim: 'groups', claims: {},
    clockToleranceSeconds: 5, maxTokenLifetimeSeconds: 86_400, jwksCooldownSeconds: 30, devIssuer: undefined,
  };
  const auth = createAuthenticator(config, silentLogger, loadModel());
  await auth.verifier!.warm();
  out('## Token verification, key set cached');
  out();
  out('CPU µs per call (process CPU time over 3000 calls; robust on a shared machine) and wall-clock p50/p99.');
  out();
  out('| algorithm | CPU µs/op | p50 µs | p99 µs | key-set fetches |');
  out('|---|---|---|---|---|');
  for (const key of keys) {
    const header = `Bearer ${await mint(key, { issuer: issuer.url, audience: AUDIENCE, claims: { student_id: '1', groups: ['user'] } })}`;
    for (let i = 0; i < 300; i++) await auth.identify(header); // warm-up
    const samples: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < 3000; i++) {
      const t = performance.now();
      await auth.identify(header);
      samples.push((performance.now() - t) * 1000);
    }
    const used = process.cpuUsage(cpu);
    const s = stats(samples);
    out(`| ${key.alg} | ${((used.user + used.system) / 3000).toFixed(1)} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${auth.verifier!.fetches.jwks} |`);
  }
  await issuer.stop();
  return { auth, keys };
}

async function operations() {
  const local = await startLocalDynamo({ port: 0 });
  const dynamo = createDynamo({ endpoint: local.endpoint });
  const tableName = 'AuthBench';
  await ensureTable(dynamo.raw, tableName);
  const items = [courseItem({ id: 'c1', title: 'Engines', studentCount: 50 })];
  for (let i = 0; i < 50; i++) {
    const id = `s${String(i).padStart(3, '0')}`;
    items.push(studentItem({ id, name: `Student ${i}`, email: `${id}@example.com`, courseCount: 1 }));
    items.push(enrollmentItem({ studentId: id, courseId: 'c1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Engines', studentName: `Student ${i}` }));
  }
  await batchPut(dynamo.doc, tableName, items);
  const cursors = createCursorCodec({ current: 'bench-cursor-secret-0123456789abcdefghij' });
  const model = loadModel();
  const plan = compilePlan(model);
  const rules = compileRules(model);
  const servers = { off: createServer({ prod: true, model }), on: createServer({ prod: true, authRules: true, rules, model }) };
  await Promise.all(Object.values(servers).map((s) => s.start()));
  const caller = (extra: Partial<Extract<Identity, { kind: 'caller' }>>): Identity => ({
    kind: 'caller', subject: 'b', roles: new Set(), admin: false, owns: new Map(), ...extra,
  });
  const QUERY = `{ course(id: "c1") { title students(first: 50) { totalCount edges { enrolledAt node { id name } } } } }`;
  const variants: Array<[string, 'off' | 'on', Identity | undefined]> = [
    ['AUTH_MODE=off', 'off', undefined],
    ['oidc, admin', 'on', caller({ admin: true, roles: new Set(['admin']) })],
    ['oidc, signed-in student', 'on', caller({ owns: new Map([['Student', 's001']]) })],
  ];
  const run = async (server: 'off' | 'on', identity: Identity | undefined) => {
    const metrics = new OperationMetrics();
    const deps = { doc: dynamo.doc, readPath: dynamo.reads, tableName, cursors, authRequired: server === 'on', rules, plan };
    const res = await servers[server].executeOperation({ query: QUERY }, { contextValue: createContext(deps, metrics, identity) });
    if (res.body.kind !== 'single' || res.body.singleResult.errors) throw new Error(`unexpected errors: ${JSON.stringify(res.body)}`);
    return metrics.requests;
  };
  const cpu: Record<string, number[]> = {};
  const requests: Record<string, number> = {};
  for (const [name, server, identity] of variants) {
    requests[name] = await run(server, identity);
    for (let i = 0; i < 50; i++) await run(server, identity);
  }
  // Rounds interleave the variants so drift on a shared machine hits all alike.
  for (let round = 0; round < 5; round++) {
    for (const [name, server, identity] of variants) {
      const n = 100;
      const start = process.cpuUsage();
      for (let i = 0; i < n; i++) await run(server, identity);
      const used = process.cpuUsage(start);
      (cpu[name] ??= []).push((used.user + used.system) / 1000 / n);
    }
  }
  out();
  out('## One operation in-process: a course with a 50-student roster (names, enrolledAt)');
  out();
  out('Gateway process CPU per operation (includes the in-process DynamoDB client; DynamoDB Local runs in its own process), median of 5 rounds of 100.');
  out();
  out('| variant | CPU ms/op | DynamoDB requests/op |');
  out('|---|---|---|');
  for (const [name] of variants) {
    const sorted = [...cpu[name]!].sort((a, b) => a - b);
    out(`| ${name} | ${sorted[2]!.toFixed(3)} | ${requests[name]} |`);
  }
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  dynamo.raw.destroy();
  await local.stop();
}

async function main() {
  out(`# Auth cost (${new Date().toISOString().slice(0, 16)}Z, Node ${process.version})`);
  out();
  await verification();
  await operations();
  console.error(wrote(writeDocument('bench/auth-results.md', `${lines.join('\n')}\n`, opts['write-docs'])));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
