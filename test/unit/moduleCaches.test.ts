/**
 * No module of src/ keeps a cache of what it derives from the model: the
 * views derived from the model are built by compilePlan and hang off the
 * Plan (`plan.sharding`, `plan.view(make)`), so one model's views die with
 * its plan and two models in one process never share one.
 *
 * The heuristic: a top-level declaration whose value is an empty
 * collection or object made to be filled at run time (`new Map<…>()`,
 * `new WeakMap<…>()`, `new Set<…>()`, `new WeakSet<…>()`, `{}`, `[]`,
 * `Object.create(null)`) is a cache. A collection made full (`new
 * Set([...])`) is a constant and not counted. Each cache allowed below is
 * keyed by something that is not the model nor drawn from it, and says why.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** `file:name` → why this module-level cache holds nothing derived from the model. */
const ALLOWED: Readonly<Record<string, string>> = {
  'plan/plan.ts:plans': "compilePlan's own memo, the plan of each model: every other view hangs off it",
  'declaration/loadModel.ts:cache': 'the model itself by file name (what the plan is compiled from)',
  'declaration/access.ts:pending': 'scratch of one model check, keyed by its problems list and gone with it',
  'auth/mutationCheck.ts:checked': "one request's decision, keyed by the request object",
  'graphql/subscriptionEngine.ts:documentIds': "parsed operation documents (the client's text, not the model)",
  'graphql/plugins/requestBudget.ts:floors': "parsed operation documents (the client's text, not the model)",
  'resolvers/lookahead.ts:fixedAhead': "field nodes of parsed operation documents (the client's text)",
  'graphql/plugins/queryLimits.ts:narrowingCache':
    'keyed by the served GraphQLSchema, which the graphql layer builds above the plan (the plan cannot hold a graphql view); weakly held, gone with the schema',
  'graphql/plugins/queryLimits.ts:fanOutCache':
    'keyed by the served GraphQLSchema, which the graphql layer builds above the plan (the plan cannot hold a graphql view); weakly held, gone with the schema',
  'transport/httpServer.ts:upgrades': 'per HTTP server object',
  'dynamo/sha256.ts:keys': 'a bounded LRU of signing keys by secret (credentials, not the model)',
  'dynamo/readPort.ts:sdkPorts': 'per DynamoDB client object',
  'dynamo/credentialRefresh.ts:refreshed': 'per credentials provider object',
  'dynamo/metrics.ts:instrumented': 'per DynamoDB client object',
};

const CACHE =
  /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:new\s+(?:WeakMap|Map|WeakSet|Set)\s*(?:<.*>)?\s*\(\s*\)|\{\s*\}|\[\s*\]|Object\.create\(null\))/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** `file:name` of every module-level cache of src/. */
export function moduleCaches(text: string, file: string): string[] {
  return text.split('\n').flatMap((line) => {
    const m = CACHE.exec(line);
    return m ? [`${file}:${m[1]}`] : [];
  });
}

describe('module-level caches', () => {
  const found = sources(SRC).flatMap((f) => moduleCaches(readFileSync(f, 'utf8'), relative(SRC, f).split('\\').join('/')));

  it('no module of src/ keeps a cache of model-derived data (the plan holds those views)', () => {
    expect(found.filter((c) => !(c in ALLOWED))).toEqual([]);
  });

  it('every allowed cache still exists (the allow-list names no cache that is gone)', () => {
    expect(Object.keys(ALLOWED).filter((c) => !found.includes(c))).toEqual([]);
  });

  it('the heuristic counts an empty map, weak map, set, object or array made at the top of a module, and not a full constant set', () => {
    const text = [
      'const a = new WeakMap<Plan, WritePlan>();',
      'export const b = new Map<string, TableKeys>();',
      'let c: Record<string, number> = {};',
      'const d = new Set<string>();',
      "const KNOWN = new Set(['x', 'y']);",
      '  const inner = new Map();',
    ].join('\n');
    expect(moduleCaches(text, 'x.ts')).toEqual(['x.ts:a', 'x.ts:b', 'x.ts:c', 'x.ts:d']);
  });
});
