/**
 * What a write does besides its item, at the fewest requests: a count on
 * the referred item (@attribute(counter:)) moved in the transaction of
 * each create and delete of a referring item; a child's number taken from
 * a sequence on its parent (@attribute(sequence:, pad:)), zero-padded in
 * its key; an update that moves an item in a declared index (its index
 * keys written again in its one UpdateItem, the template's fields all
 * required); a create under a missing parent refused by a condition in
 * its own transaction. Requests counted exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { WRITE_EFFECTS } from '../support/writeEffectsModel.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(WRITE_EFFECTS, 'writeEffects.graphql') });
  await gw.counted(`mutation { createProject(input: { id: "p1", name: "Gateway" }) { id } }`);
});
afterAll(() => gw?.stop());

const addTask = (project: string, title: string, owner = 'ann', status = 'OPEN') =>
  gw.counted(`mutation($p: ID!, $i: AddTaskInput!) { addTask(project: $p, input: $i) { id number title } }`, { p: project, i: { title, status, owner } });

describe('a create under a missing parent', () => {
  it('is NOT_FOUND from the condition in its one transaction, with nothing written', async () => {
    const { result, requests } = await gw.counted(`mutation { addComment(project: "nobody", input: { id: "c1", text: "hi" }) { id } }`);
    expect(codes(result)).toEqual(['NOT_FOUND']);
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('P#nobody', 'C#c1')).toBeUndefined();
  });

  it('is NOT_FOUND from the sequence it takes its number from, with nothing written', async () => {
    const { result, requests } = await addTask('nobody', 'lost');
    expect(codes(result)).toEqual(['NOT_FOUND']);
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('P#nobody', 'META')).toBeUndefined();
  });
});

describe('a child numbered from its parent', () => {
  it('takes the next number of the sequence with one UpdateItem ADD, its key holding it zero-padded', async () => {
    const first = await addTask('p1', 'design');
    expect(first.result.errors).toBeUndefined();
    expect(first.result.data.addTask).toMatchObject({ number: 1, title: 'design' });
    expect(first.requests.byOperation).toEqual({ UpdateItem: 1, TransactWriteItems: 1 });
    const second = await addTask('p1', 'build', 'bob');
    expect(second.result.data.addTask).toMatchObject({ number: 2 });
    expect(await gw.get('P#p1', 'TASK#0002')).toMatchObject({ title: 'build', number: 2, statusKey: 'S#OPEN', rankKey: 'bob#build' });
    expect(await gw.get('P#p1', 'META')).toMatchObject({ lastTask: 2 });
  });
});

describe('an update of fields a declared index key holds', () => {
  const taskId = async (number: number) => {
    const { result } = await gw.counted(`{ project(id: "p1") { tasks(first: 10) { edges { node { id number } } } } }`);
    return result.data.project.tasks.edges.map((e: { node: { id: string; number: number } }) => e.node).find((n: { number: number }) => n.number === number)
      .id as string;
  };

  it('moves the item in the index with its one UpdateItem', async () => {
    const id = await taskId(1);
    const { result, requests } = await gw.counted(`mutation($id: ID!) { updateTask(id: $id, input: { status: "DONE" }) { id } }`, { id });
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('P#p1', 'TASK#0001')).toMatchObject({ status: 'DONE', statusKey: 'S#DONE', rankKey: 'ann#design' });
    const done = await gw.counted(`{ tasksByStatus(status: "DONE", first: 10) { edges { node { number } } } }`);
    expect(done.result.data.tasksByStatus.edges).toEqual([{ node: { number: 1 } }]);
  });

  it("is refused before any request, naming the fields needed, when it gives only some of a key template's fields", async () => {
    const id = await taskId(2);
    const { result, requests } = await gw.counted(`mutation($id: ID!) { updateTask(id: $id, input: { title: "ship" }) { id } }`, { id });
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.message).toContain('input.owner');
    expect(requests.byOperation).toEqual({});
    expect(await gw.get('P#p1', 'TASK#0002')).toMatchObject({ title: 'build', rankKey: 'bob#build' });
  });

  it('writes the key whole when it gives all of them', async () => {
    const id = await taskId(2);
    const { result, requests } = await gw.counted(`mutation($id: ID!) { updateTask(id: $id, input: { title: "ship", owner: "cy" }) { id } }`, { id });
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('P#p1', 'TASK#0002')).toMatchObject({ title: 'ship', owner: 'cy', rankKey: 'cy#ship' });
  });
});

describe('a reference counted on the item it refers to', () => {
  it('adds 1 to the count in the transaction of each create, and takes it away in that of each delete', async () => {
    const first = await gw.counted(`mutation { star(input: { id: "s1", project: "p1", user: "ann" }) { id } }`);
    expect(first.result.errors).toBeUndefined();
    expect(first.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    await gw.counted(`mutation { star(input: { id: "s2", project: "p1", user: "bob" }) { id } }`);
    expect((await gw.counted(`{ project(id: "p1") { starCount } }`)).result.data.project).toEqual({ starCount: 2 });
    const removed = await gw.counted(`mutation { unstar(id: "s1") }`);
    expect(removed.result.data).toEqual({ unstar: 's1' });
    expect(removed.requests.byOperation).toEqual({ GetItem: 1, TransactWriteItems: 1 });
    expect((await gw.counted(`{ project(id: "p1") { starCount } }`)).result.data.project).toEqual({ starCount: 1 });
  });

  it('refuses a create referring to a missing item as NOT_FOUND, with nothing written', async () => {
    const { result, requests } = await gw.counted(`mutation { star(input: { id: "s9", project: "nobody", user: "ann" }) { id } }`);
    expect(codes(result)).toEqual(['NOT_FOUND']);
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('STAR#s9', 'META')).toBeUndefined();
  });
});
