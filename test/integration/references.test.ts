/**
 * References and keyless types: a ticket refers to its customer, an entity
 * with no item of its own (keyless: known only by the ids that refer to
 * it), and to its agent, an @item type read by its key on demand. Both are
 * stored as the referred id; tickets are listed per customer over a sparse
 * index on that natural attribute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { problemsOf } from '../support/problems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const MODEL = `
extend schema
  @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])
  @index(name: "byCustomer", pk: ["customer"], sk: ["openedAt"])
  @index(name: "byAgent", pk: ["agent"], sk: ["openedAt"])
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
"A customer is known only by the ids on their tickets."
type Customer { id: ID! }
type Agent @item(pk: "AGENT#{id}", sk: "META") {
  id: ID!
  name: String!
  "The tickets whose agent is this one: read through the index of the reference, owned by nobody."
  tickets(first: Int, after: String, last: Int, before: String): TicketConnection! @query(index: "byAgent")
}
type Ticket @item(pk: "TICKET#{id}", sk: "META") @indexed(index: "byCustomer") @indexed(index: "byAgent") {
  id: ID!
  subject: String!
  openedAt: String!
  customer: Customer!
  agent: Agent
}
type TicketConnection { edges: [TicketEdge!]! pageInfo: PageInfo! totalCount: Int! }
type TicketEdge { cursor: String! node: Ticket! }
input OpenTicketInput { id: ID subject: String! openedAt: String! customer: ID! agent: ID }
input NewAgentInput { id: ID name: String! }
type Query {
  ticket(id: ID!): Ticket @get
  customer(id: ID!): Customer @get
  ticketsOf(customer: ID!, first: Int, after: String, last: Int, before: String): TicketConnection! @query(index: "byCustomer")
}
type Mutation {
  openTicket(input: OpenTicketInput!): Ticket! @create
  hireAgent(input: NewAgentInput!): Agent! @create
  fireAgent(id: ID!): ID! @delete(type: "Agent")
}
`;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(MODEL, 'tickets.graphql') });
  expect((await gw.run(`mutation { hireAgent(input: { id: "a1", name: "Ada" }) { id } }`)).errors).toBeUndefined();
  const open = (id: string, customer: string, day: number, agent: string | null) =>
    gw.run(`mutation($i: OpenTicketInput!) { openTicket(input: $i) { id } }`, { i: { id, subject: `S ${id}`, openedAt: `2026-04-0${day}`, customer, agent } });
  for (const [id, customer, day, agent] of [
    ['t1', 'c2', 3, 'a1'],
    ['t2', 'c2', 1, null],
    ['t3', 'c9', 2, 'a1'],
  ] as const) {
    expect((await open(id, customer, day, agent)).errors).toBeUndefined();
  }
});
afterAll(() => gw?.stop());

describe('references', () => {
  it('stores the referred ids as attributes of the item', async () => {
    expect(await gw.get('TICKET#t1', 'META')).toMatchObject({ customer: 'c2', agent: 'a1' });
    expect(await gw.get('TICKET#t2', 'META')).not.toHaveProperty('agent');
  });

  it('answers a keyless reference with its id and no read, and loads an @item reference by its key', async () => {
    const { result, requests } = await gw.counted(`{ ticket(id: "t1") { subject customer { id } agent { id name } } }`);
    expect(result).toEqual({ data: { ticket: { subject: 'S t1', customer: { id: 'c2' }, agent: { id: 'a1', name: 'Ada' } } } });
    expect(requests.requests).toBe(2);
    const absent = await gw.run(`{ ticket(id: "t2") { agent { id } } }`);
    expect(absent).toEqual({ data: { ticket: { agent: null } } });
  });

  it('answers @get of a keyless type from its argument, without a request', async () => {
    const { result, requests } = await gw.counted(`{ customer(id: "c2") { id } }`);
    expect(result).toEqual({ data: { customer: { id: 'c2' } } });
    expect(requests.requests).toBe(0);
  });

  it("lists a customer's tickets over the index of the natural attribute, in its order, one Query", async () => {
    const { result, requests } = await gw.counted(`{ ticketsOf(customer: "c2", first: 5) { edges { node { id customer { id } } } } }`);
    expect(result.data.ticketsOf.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['t2', 't1']);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("lists an agent's tickets through the index of the reference, the ticket's and the agent's GetItem and one Query", async () => {
    const { result, requests } = await gw.counted(`{ agent: ticket(id: "t1") { agent { name tickets(first: 5) { edges { node { id } } } } } }`);
    expect(result.data.agent.agent).toEqual({ name: 'Ada', tickets: { edges: [{ node: { id: 't3' } }, { node: { id: 't1' } }] } });
    expect(requests.byOperation).toEqual({ GetItem: 2, Query: 1 });
  });

  it('leaves the tickets a @query lists when their agent is deleted (it owns nothing)', async () => {
    expect((await gw.run(`mutation { hireAgent(input: { id: "a2", name: "Bo" }) { id } }`)).errors).toBeUndefined();
    expect(
      (await gw.run(`mutation { openTicket(input: { id: "t5", subject: "x", openedAt: "2026-04-05", customer: "c5", agent: "a2" }) { id } }`)).errors,
    ).toBeUndefined();
    expect((await gw.run(`mutation { fireAgent(id: "a2") }`)).errors).toBeUndefined();
    await gw.settle();
    expect(await gw.get('AGENT#a2', 'META')).toBeUndefined();
    expect(await gw.get('TICKET#t5', 'META')).toMatchObject({ agent: 'a2' });
  });

  it('refuses a referred id that is no id, with BAD_USER_INPUT and nothing written', async () => {
    const result = await gw.run(`mutation { openTicket(input: { id: "t9", subject: "x", openedAt: "2026-04-09", customer: "a#b" }) { id } }`);
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await gw.get('TICKET#t9', 'META')).toBeUndefined();
  });
});

describe('models with references that cannot be served', () => {
  it('refuses a keyless type with a field besides its id, naming the field', () => {
    expect(problemsOf(MODEL.replace('type Customer { id: ID! }', 'type Customer { id: ID! name: String }'))).toEqual([
      'Customer.name: Customer is keyless (an id and no @item): it has no item to hold this field; give Customer an @item or remove the field',
    ]);
  });

  it('refuses a reference to a child type that cannot be found by its id alone', () => {
    const sdl = MODEL.replace(
      /type Agent @item\(pk: "AGENT#\{id\}", sk: "META"\) \{[^}]*\}/,
      `
      type Team @item(pk: "TEAM#{id}", sk: "META") { id: ID! }
      type Agent @item(pk: "TEAM#{team}", sk: "AGENT#{id}") { id: ID! name: String! team: Team! @parent }`,
    )
      .replace('hireAgent(input: NewAgentInput!): Agent! @create', 'hireAgent(teamId: ID!, input: NewAgentInput!): Agent! @create(parent: "teamId")')
      .replace('fireAgent(id: ID!): ID! @delete(type: "Agent")', '');
    expect(problemsOf(sdl)).toContain(
      "Ticket.agent: refers to Agent, a child type found only with its parent's id: make it inverted: true, or refer to its parent",
    );
  });
});
