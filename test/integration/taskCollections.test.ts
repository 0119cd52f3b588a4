/**
 * ElectroDB's task-manager collections, declared in SDL over the keys
 * ElectroDB writes (items built by ElectroDB's own `put().params()`, no
 * request): an office with its employees (`workplaces`, on gsi1) and an
 * employee with their tasks (`assignments`, on gsi3), each one Query as in
 * ElectroDB, the members resolved to their types by their key templates;
 * an employee with the first page of their tasks in one Query through the
 * employee's own item in gsi3, which sorts before the tasks, as a
 * collection of one member type or as a plain connection of tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Entity, Service } from 'electrodb';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const PAGE = 'first: Int, after: String, last: Int, before: String';
const SDL = `
  extend schema
    @table(pk: "pk", sk: "sk")
    @index(name: "gsi1pk-gsi1sk-index", pk: ["gsi1pk"], sk: ["gsi1sk"])
    @index(name: "gsi3pk-gsi3sk-index", pk: ["gsi3pk"], sk: ["gsi3sk"])
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }

  type Office @item(pk: "$taskapp#country_{country}#state_{state}", sk: "$offices_1#city_{city}#zip_{zip}#office_{id}")
    @indexed(index: "gsi1pk-gsi1sk-index", pk: ["$taskapp#office_{id}"], sk: ["$workplaces#offices_1"]) {
    id: ID!  country: String!  state: String!  city: String!  zip: String!  address: String!
  }
  type Employee @item(pk: "$taskapp#employee_{id}", sk: "$employees_1")
    @indexed(index: "gsi1pk-gsi1sk-index", pk: ["$taskapp#office_{office}"], sk: ["$workplaces#employees_1#team_{team}#title_{title}#employee_{id}"])
    @indexed(index: "gsi3pk-gsi3sk-index", pk: ["$taskapp#employee_{id}"], sk: ["$assignments#employees_1"]) {
    id: ID!  firstName: String!  office: String!  team: String!  title: String!
    tasks(${PAGE}): TaskListConnection! @query(index: "gsi3pk-gsi3sk-index")
    assigned(${PAGE}): TaskConnection! @query(index: "gsi3pk-gsi3sk-index")
  }
  type Task @item(pk: "$taskapp#task_{id}", sk: "$tasks_1#project_{project}#employee_{employee}")
    @indexed(index: "gsi3pk-gsi3sk-index", pk: ["$taskapp#employee_{employee}"], sk: ["$assignments#tasks_1#project_{project}#status_{status}"]) {
    id: ID!  project: String!  employee: Employee!  description: String!  status: String!
  }
  "ElectroDB's collection workplaces: an office and its employees."
  union Workplace = Office | Employee
  "ElectroDB's collection assignments: an employee and their tasks."
  union Assignment = Employee | Task
  union TaskList = Task

  type Query {
    employee(id: ID!): Employee @get
    workplaces(office: String!, ${PAGE}): WorkplaceConnection! @query(index: "gsi1pk-gsi1sk-index")
    assignments(employee: String!, ${PAGE}): AssignmentConnection! @query(index: "gsi3pk-gsi3sk-index")
  }`;

/** The task-manager entities as ElectroDB's documentation declares them (the indexes these collections use). */
const service = { service: 'taskapp', version: '1' };
const employees = new Entity(
  {
    model: { entity: 'employees', ...service },
    attributes: {
      employee: { type: 'string' },
      firstName: { type: 'string' },
      office: { type: 'string' },
      title: { type: 'string' },
      team: { type: 'string' },
    },
    indexes: {
      employee: { pk: { field: 'pk', composite: ['employee'] }, sk: { field: 'sk', composite: [] } },
      coworkers: {
        index: 'gsi1pk-gsi1sk-index',
        collection: 'workplaces',
        pk: { field: 'gsi1pk', composite: ['office'] },
        sk: { field: 'gsi1sk', composite: ['team', 'title', 'employee'] },
      },
      employeeLookup: {
        index: 'gsi3pk-gsi3sk-index',
        collection: 'assignments',
        pk: { field: 'gsi3pk', composite: ['employee'] },
        sk: { field: 'gsi3sk', composite: [] },
      },
    },
  },
  { table: 'electro' },
);
const tasks = new Entity(
  {
    model: { entity: 'tasks', ...service },
    attributes: {
      task: { type: 'string' },
      project: { type: 'string' },
      employee: { type: 'string' },
      description: { type: 'string' },
      status: { type: 'string' },
    },
    indexes: {
      task: { pk: { field: 'pk', composite: ['task'] }, sk: { field: 'sk', composite: ['project', 'employee'] } },
      assigned: {
        index: 'gsi3pk-gsi3sk-index',
        collection: 'assignments',
        pk: { field: 'gsi3pk', composite: ['employee'] },
        sk: { field: 'gsi3sk', composite: ['project', 'status'] },
      },
    },
  },
  { table: 'electro' },
);
const offices = new Entity(
  {
    model: { entity: 'offices', ...service },
    attributes: {
      office: { type: 'string' },
      country: { type: 'string' },
      state: { type: 'string' },
      city: { type: 'string' },
      zip: { type: 'string' },
      address: { type: 'string' },
    },
    indexes: {
      locations: { pk: { field: 'pk', composite: ['country', 'state'] }, sk: { field: 'sk', composite: ['city', 'zip', 'office'] } },
      office: {
        index: 'gsi1pk-gsi1sk-index',
        collection: 'workplaces',
        pk: { field: 'gsi1pk', composite: ['office'] },
        sk: { field: 'gsi1sk', composite: [] },
      },
    },
  },
  { table: 'electro' },
);
const taskapp = new Service({ employees, tasks, offices });

// Lower-case values: ElectroDB lower-cases key values by default, so its keys and the templates' agree.
const EMPLOYEES = [
  { employee: 'ann', firstName: 'Ann', office: 'gateway', team: 'core', title: 'lead' },
  { employee: 'bob', firstName: 'Bob', office: 'gateway', team: 'core', title: 'dev' },
  { employee: 'cy', firstName: 'Cy', office: 'gateway', team: 'apps', title: 'dev' },
  { employee: 'dee', firstName: 'Dee', office: 'harbor', team: 'apps', title: 'dev' },
];
const TASKS = [
  { task: 't1', project: 'apollo', employee: 'ann', description: 'plan', status: 'open' },
  { task: 't2', project: 'zephyr', employee: 'ann', description: 'ship', status: 'done' },
  { task: 't3', project: 'borealis', employee: 'ann', description: 'test', status: 'open' },
  { task: 't4', project: 'apollo', employee: 'bob', description: 'fix', status: 'open' },
];
const OFFICES = [{ office: 'gateway', country: 'us', state: 'ny', city: 'nyc', zip: '10001', address: '1 Main St' }];

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(SDL, 'taskapp.graphql') });
  await gw.put([
    ...EMPLOYEES.map((e) => employees.put(e).params().Item as Record<string, unknown>),
    ...TASKS.map((t) => tasks.put(t).params().Item as Record<string, unknown>),
    ...OFFICES.map((o) => offices.put(o).params().Item as Record<string, unknown>),
  ]);
});
afterAll(() => gw?.stop());

const refs = (c: { edges: { node: { __typename: string; id: string } }[] }) => c.edges.map((e) => `${e.node.__typename}:${e.node.id}`);

describe("ElectroDB's task-manager collections", () => {
  it('reads an office with its employees in one Query, the partition and range ElectroDB reads, in gsi1 key order', async () => {
    const electro = taskapp.collections.workplaces({ office: 'gateway' }).params() as { ExpressionAttributeValues: Record<string, string> };
    expect(electro.ExpressionAttributeValues).toMatchObject({ ':pk': '$taskapp#office_gateway', ':sk1': '$workplaces' });
    const { result, requests } = await gw.counted(
      `{ workplaces(office: "gateway", first: 10) { edges { node { __typename ... on Office { id city } ... on Employee { id firstName team } } } pageInfo { hasNextPage } } }`,
    );
    expect(result.errors).toBeUndefined();
    // Employees by team, title and id ($workplaces#employees_1#team_…), then the office ($workplaces#offices_1).
    expect(refs(result.data.workplaces)).toEqual(['Employee:cy', 'Employee:bob', 'Employee:ann', 'Office:gateway']);
    expect(result.data.workplaces.edges[3].node).toEqual({ __typename: 'Office', id: 'gateway', city: 'nyc' });
    expect(result.data.workplaces.pageInfo.hasNextPage).toBe(false);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('reads an employee with their tasks in one Query, and pages them both ways one Query a page', async () => {
    const { result, requests } = await gw.counted(
      `{ assignments(employee: "ann", first: 10) { edges { node { __typename ... on Employee { id } ... on Task { id project } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    // The employee ($assignments#employees_1), then the tasks by project and status.
    expect(refs(result.data.assignments)).toEqual(['Employee:ann', 'Task:t1', 'Task:t3', 'Task:t2']);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const all = ['Employee:ann', 'Task:t1', 'Task:t3', 'Task:t2'];
    for (const forward of [true, false]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const args: string = forward ? `first: 3${cursor ? `, after: "${cursor}"` : ''}` : `last: 3${cursor ? `, before: "${cursor}"` : ''}`;
        const page = await gw.counted<any>(
          `{ assignments(employee: "ann", ${args}) { edges { node { __typename ... on Employee { id } ... on Task { id } } } pageInfo { startCursor endCursor ${forward ? 'hasNextPage' : 'hasPreviousPage'} } } }`,
        );
        expect(page.requests.byOperation).toEqual({ Query: 1 });
        const c = page.result.data.assignments;
        if (forward) seen.push(...refs(c));
        else seen.unshift(...refs(c));
        cursor = (forward ? c.pageInfo.hasNextPage : c.pageInfo.hasPreviousPage) ? (forward ? c.pageInfo.endCursor : c.pageInfo.startCursor) : null;
      } while (cursor);
      expect(seen).toEqual(all);
    }
  });

  it('reads an employee with the first page of a plain connection of their tasks (Task.employee a reference) in one Query too', async () => {
    const { result, requests } = await gw.counted(
      `{ employee(id: "ann") { firstName assigned(first: 2) { edges { node { id status employee { id } } } pageInfo { hasNextPage } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.employee.firstName).toBe('Ann');
    expect(result.data.employee.assigned.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['t1', 't3']);
    expect(result.data.employee.assigned.edges[0].node.employee).toEqual({ id: 'ann' });
    expect(result.data.employee.assigned.pageInfo.hasNextPage).toBe(true);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("reads an employee by id with the first page of their tasks in one Query, through the employee's own item in gsi3", async () => {
    const { result, requests } = await gw.counted(
      `{ employee(id: "ann") { firstName office tasks(first: 2) { edges { node { ... on Task { id status } } } pageInfo { hasNextPage } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.employee).toMatchObject({ firstName: 'Ann', office: 'gateway' });
    expect(result.data.employee.tasks.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['t1', 't3']);
    expect(result.data.employee.tasks.pageInfo.hasNextPage).toBe(true);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });
});
