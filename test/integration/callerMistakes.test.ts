/**
 * A caller's mistakes (or probes) are answered as the caller's: a prefix at
 * the end of Unicode, an update that sets nothing, a malformed request
 * target. Never INTERNAL_SERVER_ERROR or HTTP 5xx, and never the caller's
 * text in an error-level log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogCounterItems, courseItem, studentItem } from '../support/defaultItems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { captureLogger } from '../support/oidc.js';
import type { Item } from '../../src/dynamo/batchGet.js';

let gw: TestGateway;
let url: string;
const log = captureLogger();

beforeAll(async () => {
  gw = await testGateway({ logger: log.logger, httpLogger: log.logger });
  const items: Item[] = [
    studentItem({ id: 's1', name: 'Ada', email: 'ada@example.com' }),
    courseItem({ id: 'c1', title: 'Engines' }),
    courseItem({ id: 'c2', title: '\uffff last of the plane' }),
    courseItem({ id: 'c3', title: '\u{10ffff} last of all' }),
    courseItem({ id: 'c4', title: '🏿 skin tone' }),
  ];
  await gw.put([...items, ...catalogCounterItems(items)]);
  url = await gw.listen();
});
afterAll(() => gw.stop());

// Two operations: each direction of a catalog search is a Query per GSI2 shard, and one short
// text buys one such page (requests per byte of query text: docs/limits.md).
const FORWARD = 'query($p: String!) { courses(titlePrefix: $p) { totalCount edges { node { id } } } }';
const BACKWARD = 'query($p: String!) { back: courses(titlePrefix: $p, last: 5) { edges { node { id } } } }';
const errorLines = () => log.lines.filter((l) => l.level >= 50);

describe('a search prefix at the end of Unicode', () => {
  it.each([
    ['U+FFFF', '\uffff', ['c2']],
    ['U+10FFFF', '\u{10ffff}', ['c3']],
    ['a character whose last UTF-16 unit is U+DFFF', '🏿', ['c4']],
    ['nothing stored starts with it', '\uffff\uffff', []],
  ])('%s finds exactly the titles that start with it, both ways', async (_, prefix, ids) => {
    const result = await gw.run(FORWARD, { p: prefix });
    const back = await gw.run(BACKWARD, { p: prefix });
    expect(result.errors).toBeUndefined();
    expect(back.errors).toBeUndefined();
    expect(result.data.courses.edges.map((e: any) => e.node.id)).toEqual(ids);
    expect(back.data.back.edges.map((e: any) => e.node.id)).toEqual(ids);
    expect(result.data.courses.totalCount).toBe(ids.length);
  });

  it('works for students(namePrefix:) too', async () => {
    const result = await gw.run('{ students(namePrefix: "\\uffff") { totalCount edges { node { id } } } }');
    expect(result).toEqual({ data: { students: { totalCount: 0, edges: [] } } });
  });

  it('refuses a lone surrogate as BAD_USER_INPUT before any DynamoDB request', async () => {
    const { result, requests } = await gw.counted(FORWARD, { p: 'ab\ud800' });
    expect(result.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(requests.requests).toBe(0);
  });

  it('leaves no error-level log line', () => {
    expect(errorLines()).toEqual([]);
  });
});

describe('an update that sets nothing', () => {
  it('answers the entity as it is, writing nothing', async () => {
    const { result, requests } = await gw.counted('mutation { updateStudent(id: "s1", input: {}) { id name email } }');
    expect(result).toEqual({ data: { updateStudent: { id: 's1', name: 'Ada', email: 'ada@example.com' } } });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
    const course = await gw.run('mutation { updateCourse(id: "c1", input: {}) { title } }');
    expect(course).toEqual({ data: { updateCourse: { title: 'Engines' } } });
  });

  it('is NOT_FOUND for an entity that does not exist', async () => {
    const result = await gw.run('mutation { updateStudent(id: "nobody", input: {}) { id } }');
    expect(result.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
  });
});

describe('a malformed request target', () => {
  it.each(['//%zz', '/graphql%zz', '/%'])('GET %s is HTTP 400, and the target is not logged', async (target) => {
    const { port } = new URL(url);
    const before = log.raw.length;
    const answer = await rawGet(Number(port), target);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(log.raw.slice(before).join('\n')).not.toContain('%zz');
    expect(errorLines()).toEqual([]);
  });
});

/** A GET with the target exactly as given (fetch would normalise it). */
async function rawGet(port: number, target: string): Promise<string> {
  const { connect } = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}
