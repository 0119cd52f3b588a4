/**
 * The DynamoDB requests of each kind of mutation, counted at the wire, over
 * the default model and the models in examples/ (docs/mutations.md,
 * "Request counts"): one table per model, each mutation run once in order
 * on what the ones before it wrote. Renames and cascades are measured as a
 * table with a stream serves them (the request marks; the stream processor
 * does the rest).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { WRITE_EFFECTS } from '../support/writeEffectsModel.js';

interface Step {
  label: string;
  query: string;
  expected?: Record<string, number>;
}

const root = join(import.meta.dirname, '..', '..');

const MODELS: { file: string; sdl?: string; fanOut?: 'stream' | 'inRequest'; steps: Step[] }[] = [
  {
    file: 'schema.graphql',
    steps: [
      { label: 'create (top-level)', query: `mutation { createCustomer(input: { id: "c1", name: "Ann" }) { id } }` },
      { label: 'create (top-level, in a catalog)', query: `mutation { createStudent(input: { id: "s1", name: "Sam" }) { id } }` },
      { label: 'create (child, parent counter)', query: `mutation { placeOrder(customerId: "c1", input: { total: 10 }) { id } }` },
      { label: 'create (child, explicit id of an inverted type)', query: `mutation { placeOrder(customerId: "c1", input: { id: "o1", total: 10 }) { id } }` },
      { label: 'create (child under a missing parent)', query: `mutation { placeOrder(customerId: "nobody", input: { total: 10 }) { id } }` },
      { label: 'create (top-level, no counters)', query: `mutation { createProduct(input: { id: "p1", name: "Kettle" }) { id } }` },
      { label: 'create (child, parent counter) ', query: `mutation { addPart(productId: "p1", input: { id: "x1", name: "Lid", quantity: 1 }) { id } }` },
      { label: 'update (plain)', query: `mutation { updateCustomer(id: "c1", input: { name: "Anne" }) { id } }` },
      { label: 'update (child, parent given)', query: `mutation { updatePart(productId: "p1", id: "x1", input: { quantity: 2 }) { id } }` },
      { label: 'update (inverted child by id)', query: `mutation { updateOrder(id: "o1", input: { total: 11 }) { id } }` },
      { label: 'update (copied field, stream)', query: `mutation { updateStudent(id: "s1", input: { name: "Samuel" }) { id } }` },
      { label: 'delete (child, parent given)', query: `mutation { deletePart(productId: "p1", id: "x1") }` },
      { label: 'delete (inverted child by id)', query: `mutation { deleteOrder(id: "o1") }` },
      { label: 'delete (top-level whose children are gone, stream)', query: `mutation { deleteProduct(id: "p1") }` },
      { label: 'delete (top-level with children, stream)', query: `mutation { deleteCustomer(id: "c1") }` },
      { label: 'delete (top-level in a catalog, stream)', query: `mutation { deleteStudent(id: "s1") }` },
    ],
  },
  {
    file: 'examples/crm.graphql',
    steps: [
      { label: 'create (top-level)', query: `mutation { createUser(input: { id: "u1", name: "Ann", email: "ann@example.com" }) { id } }` },
      { label: 'create (child, parent counter)', query: `mutation { addContact(userId: "u1", input: { id: "k1", name: "Bob" }) { id } }` },
      { label: 'update (plain)', query: `mutation { updateUser(id: "u1", input: { name: "Anne" }) { id } }` },
      { label: 'delete (top-level with children, stream)', query: `mutation { deleteUser(id: "u1") }` },
    ],
  },
  {
    file: 'examples/helpdesk.graphql',
    steps: [
      {
        label: 'create (top-level, five indexes)',
        query: `mutation { openTicket(input: { id: "t1", subject: "Help", status: OPEN, priority: LOW, customer: "c1" }) { id } }`,
      },
      { label: 'create (child, key holding a time)', query: `mutation { postMessage(ticket: "t1", input: { id: "m1", body: "Hi", author: "a1" }) { id } }` },
      { label: 'create (child, own partition)', query: `mutation { watch(ticket: "t1", input: { id: "a1" }) { id } }` },
      { label: 'update (index-key fields)', query: `mutation { updateTicket(id: "t1", input: { assignee: "a1" }) { id } }` },
      { label: 'delete (child, own partition)', query: `mutation { unwatch(ticket: "t1", id: "a1") }` },
      { label: 'delete (top-level with children, stream)', query: `mutation { closeTicket(id: "t1") }` },
    ],
  },
  {
    file: 'examples/library.graphql',
    steps: [
      { label: 'create (top-level)', query: `mutation { createLibrary(input: { id: "l1", name: "Central" }) { id } }` },
      {
        label: 'create (inverted child, explicit id)',
        query: `mutation { addBook(library: "l1", input: { id: "b1", title: "Dune", author: "Herbert" }) { id } }`,
      },
      { label: 'create (child of an inverted child)', query: `mutation { addCopy(book: "b1", input: { id: "cp1", shelf: "A1" }) { id } }` },
      { label: 'create (top-level, references)', query: `mutation { join(input: { id: "m1", name: "Mia" }) { id } }` },
      {
        label: 'create (top-level with references)',
        query: `mutation { lend(input: { id: "n1", book: "b1", member: "m1", dueAt: "2026-04-01T00:00:00Z" }) { id } }`,
      },
      { label: 'update (plain)', query: `mutation { giveBack(id: "n1", input: { returnedAt: "2026-03-20T00:00:00Z" }) { id } }` },
      { label: 'delete (top-level with edges, stream)', query: `mutation { leave(id: "m1") }` },
      { label: 'delete (inverted child with children, stream)', query: `mutation { removeBook(id: "b1") }` },
    ],
  },
  {
    file: 'test/support/writeEffectsModel.ts (no stream)',
    sdl: WRITE_EFFECTS,
    fanOut: 'inRequest',
    steps: [
      { label: 'create (top-level)', query: `mutation { createProject(input: { id: "p1", name: "Gateway" }) { id } }`, expected: { PutItem: 1 } },
      {
        label: 'create (child, no counter: parent checked)',
        query: `mutation { addComment(project: "p1", input: { id: "c1", text: "hi" }) { id } }`,
        expected: { TransactWriteItems: 1 },
      },
      {
        label: 'create (child under a missing parent)',
        query: `mutation { addComment(project: "nobody", input: { id: "c2", text: "hi" }) { id } }`,
        expected: { TransactWriteItems: 1 },
      },
      {
        label: 'create (child numbered from a sequence)',
        query: `mutation { addTask(project: "p1", input: { title: "design", status: "OPEN", owner: "ann" }) { id } }`,
        expected: { UpdateItem: 1, TransactWriteItems: 1 },
      },
      {
        label: 'create (reference counted on its target)',
        query: `mutation { star(input: { id: "s1", project: "p1", user: "ann" }) { id } }`,
        expected: { TransactWriteItems: 1 },
      },
      { label: 'create (derived id, alone)', query: `mutation { createRepo(input: { owner: "o", name: "n" }) { id } }`, expected: { PutItem: 1 } },
      {
        label: 'update (by key values)',
        query: `mutation { updateRepo(owner: "o", name: "n", input: { description: "d" }) { id } }`,
        expected: { UpdateItem: 1 },
      },
      { label: 'delete (child, no counter)', query: `mutation { deleteComment(project: "p1", id: "c1") }`, expected: { DeleteItem: 1 } },
      { label: 'delete (reference counted on its target, by id)', query: `mutation { unstar(id: "s1") }`, expected: { GetItem: 1, TransactWriteItems: 1 } },
      { label: 'delete (nothing to cascade, by key values)', query: `mutation { deleteRepo(owner: "o", name: "n") }`, expected: { DeleteItem: 1 } },
    ],
  },
];

const gateways: TestGateway[] = [];
afterAll(async () => {
  for (const gw of gateways) await gw.stop();
});

const shown = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([op, n]) => `${n} ${op}`)
    .join(' + ') || 'none';

describe('the DynamoDB requests of each kind of mutation', () => {
  for (const { file, sdl, fanOut, steps } of MODELS) {
    it(`over ${file}`, async () => {
      const gw = await testGateway(
        sdl ? { model: buildModel(sdl, 'writeEffects.graphql'), fanOut } : { schemaFile: join(root, file), ...(fanOut ? { fanOut } : {}) },
      );
      gateways.push(gw);
      const rows: string[] = [];
      for (const step of steps) {
        const { result, requests } = await gw.counted(step.query);
        rows.push(`| ${file} | ${step.label} | ${shown(requests.byOperation)} | ${result.errors?.[0]?.extensions?.code ?? 'ok'} |`);
        if (step.expected) expect({ step: step.label, requests: requests.byOperation }).toEqual({ step: step.label, requests: step.expected });
      }
      process.stdout.write(`${rows.join('\n')}\n`);
    });
  }
});
