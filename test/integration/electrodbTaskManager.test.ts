/**
 * ElectroDB as the oracle, on its task-manager example: the gateway serves
 * examples/electrodb/taskManager.graphql over the table ElectroDB's own
 * entities of the design (test/support/electrodb/taskManager.ts) read and
 * write, in ElectroDB's default casing (lower-cased keys) and in its
 * `casing: "none"`. Items ElectroDB writes read through GraphQL with the
 * same answers, items GraphQL writes read back by ElectroDB's get, queries
 * and collections, and every pattern costs the gateway the DynamoDB
 * requests it costs ElectroDB, both counted at the wire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electroModel, type ElectroCasing } from '../support/electrodb/casing.js';
import { taskManager } from '../support/electrodb/taskManager.js';
import { startOracle, type Oracle } from '../support/electrodb/oracle.js';

type Service = ReturnType<typeof taskManager>;
type Row = Record<string, any>;

const TEAM: Record<string, string> = { development: 'DEVELOPMENT', marketing: 'MARKETING', finance: 'FINANCE', product: 'PRODUCT', 'cool cats and kittens': 'COOL_CATS_AND_KITTENS' };
const STATUS: Record<string, string> = { open: 'OPEN', 'in-progress': 'IN_PROGRESS', closed: 'CLOSED' };

const EMPLOYEES = [
  { employee: 'Tyler.Walch', firstName: 'Tyler', lastName: 'Walch', office: 'Portland', title: 'Senior Engineer', team: 'development', salary: '150', manager: 'Maria.Chen', dateHired: '2019-06-01', birthday: '1990-01-01' },
  { employee: 'Ana.Ortiz', firstName: 'Ana', lastName: 'Ortiz', office: 'Portland', title: 'Junior Engineer', team: 'development', salary: '90', manager: 'Maria.Chen', dateHired: '2020-02-15' },
  { employee: 'Maria.Chen', firstName: 'Maria', lastName: 'Chen', office: 'Portland', title: 'Manager', team: 'cool cats and kittens', salary: '200', dateHired: '2016-09-01' },
  { employee: 'Bo.Kim', firstName: 'Bo', lastName: 'Kim', office: 'Seattle', title: 'Senior Engineer', team: 'development', salary: '120', manager: 'Maria.Chen', dateHired: '2021-03-01' },
] as const;
const OFFICES = [
  { office: 'Portland', country: 'USA', state: 'OR', city: 'Portland', zip: '97201', address: '1 Main St' },
  { office: 'Eugene', country: 'USA', state: 'OR', city: 'Eugene', zip: '97401', address: '2 Oak St' },
  { office: 'Seattle', country: 'USA', state: 'WA', city: 'Seattle', zip: '98101', address: '3 Pike St' },
] as const;
const TASKS = [
  { task: 'T1', project: 'Apollo-1', employee: 'Tyler.Walch', description: 'Design', points: 3 },
  { task: 'T2', project: 'Apollo-1', employee: 'Ana.Ortiz', status: 'in-progress', points: 5 },
  { task: 'T3', project: 'Zeus-2', employee: 'Tyler.Walch', status: 'closed', points: 8 },
  { task: 'T4', project: 'Zeus-2', employee: 'Bo.Kim', points: 2 },
] as const;

const EMPLOYEE_FIELDS = 'id firstName lastName office title team salary manager dateHired birthday';
const TASK_FIELDS = 'id project employee { id } description status points';
const OFFICE_FIELDS = 'id country state city zip address';

/** An ElectroDB employee as the GraphQL API answers it. */
const employeeOf = (e: Record<string, any>) => ({
  id: e.employee,
  firstName: e.firstName,
  lastName: e.lastName,
  office: e.office,
  title: e.title,
  team: TEAM[e.team],
  salary: e.salary,
  manager: e.manager ?? null,
  dateHired: e.dateHired ?? null,
  birthday: e.birthday ?? null,
});
const taskOf = (t: Record<string, any>) => ({ id: t.task, project: t.project, employee: { id: t.employee }, description: t.description ?? null, status: STATUS[t.status], points: t.points });
const officeOf = (o: Record<string, any>) => ({ id: o.office, country: o.country, state: o.state, city: o.city, zip: o.zip, address: o.address ?? null });
const nodes = (connection: { edges: { node: unknown }[] }) => connection.edges.map((e: Row) => e.node);

describe.each(['default', 'none'] as ElectroCasing[])('ElectroDB task manager in casing %s', (casing) => {
  let oracle: Oracle<Service>;

  beforeAll(async () => {
    oracle = await startOracle(electroModel('taskManager', casing), (table, client) => taskManager(table, client, casing));
    const { employee, office, task } = oracle.electro.entities;
    for (const e of EMPLOYEES) await employee.create(e).go();
    for (const o of OFFICES) await office.create(o).go();
    for (const t of TASKS) await task.create(t).go();
  });
  afterAll(() => oracle?.stop());

  describe('items ElectroDB writes, read through GraphQL', () => {
    it('gets an employee with the same answer and the same one GetItem', async () => {
      const q = await oracle.graphql(`{ employee(id: "Tyler.Walch") { ${EMPLOYEE_FIELDS} } }`);
      const e = await oracle.electrodb((s) => s.entities.employee.get({ employee: 'Tyler.Walch' }).go());
      expect(q.data.employee).toEqual(employeeOf(e.value.data!));
      expect(q.requests).toEqual({ GetItem: 1 });
      expect(q.requests).toEqual(e.requests);
    });

    it('gets a task and an office by every value their keys hold, one GetItem each as ElectroDB', async () => {
      const q = await oracle.graphql(`{ task(id: "T2", project: "Apollo-1", employee: "Ana.Ortiz") { ${TASK_FIELDS} } }`);
      const e = await oracle.electrodb((s) => s.entities.task.get({ task: 'T2', project: 'Apollo-1', employee: 'Ana.Ortiz' }).go());
      expect(q.data.task).toEqual(taskOf(e.value.data!));
      expect(q.data.task.status).toBe('IN_PROGRESS');
      expect(q.requests).toEqual(e.requests);
      const o = await oracle.graphql(`{ office(country: "USA", state: "OR", city: "Eugene", zip: "97401", id: "Eugene") { ${OFFICE_FIELDS} } }`);
      const eo = await oracle.electrodb((s) => s.entities.office.get({ country: 'USA', state: 'OR', city: 'Eugene', zip: '97401', office: 'Eugene' }).go());
      expect(o.data.office).toEqual(officeOf(eo.value.data!));
      expect(o.requests).toEqual({ GetItem: 1 });
      expect(o.requests).toEqual(eo.requests);
    });

    it('answers each access pattern as ElectroDB does, in its order, with one Query each', async () => {
      const patterns: [string, (s: Service) => Promise<{ data: Record<string, any>[] }>, (x: Record<string, any>) => unknown][] = [
        [`{ r: coworkers(office: "Portland", first: 50) { edges { node { ${EMPLOYEE_FIELDS} } } } }`, (s) => s.entities.employee.query.coworkers({ office: 'Portland' }).go(), employeeOf],
        [`{ r: directReports(manager: "Maria.Chen", first: 50) { edges { node { ${EMPLOYEE_FIELDS} } } } }`, (s) => s.entities.employee.query.directReports({ manager: 'Maria.Chen' }).go(), employeeOf],
        [`{ r: roles(title: "Senior Engineer", first: 50) { edges { node { ${EMPLOYEE_FIELDS} } } } }`, (s) => s.entities.employee.query.roles({ title: 'Senior Engineer' }).go(), employeeOf],
        [`{ r: offices(country: "USA", state: "OR", first: 50) { edges { node { ${OFFICE_FIELDS} } } } }`, (s) => s.entities.office.query.locations({ country: 'USA', state: 'OR' }).go(), officeOf],
        [`{ r: projectTasks(project: "Apollo-1", first: 50) { edges { node { ${TASK_FIELDS} } } } }`, (s) => s.entities.task.query.project({ project: 'Apollo-1' }).go(), taskOf],
        [`{ r: tasksByStatus(status: OPEN, first: 50) { edges { node { ${TASK_FIELDS} } } } }`, (s) => s.entities.task.query.statuses({ status: 'open' }).go(), taskOf],
        [`{ e: employee(id: "Tyler.Walch") { r: tasks(first: 50) { edges { node { ${TASK_FIELDS} } } } } }`, (s) => s.entities.task.query.assigned({ employee: 'Tyler.Walch' }).go(), taskOf],
      ];
      for (const [query, electro, shape] of patterns) {
        const q = await oracle.graphql(query);
        const e = await oracle.electrodb(electro);
        const answer = nodes(q.data.r ?? q.data.e.r);
        expect(answer.length, query).toBeGreaterThan(0);
        expect(answer, query).toEqual(e.value.data.map(shape));
        // The employee with the page of its tasks too: they share a partition in gsi3 (ElectroDB's assignments),
        // so the employee comes in the same one Query as its tasks.
        expect(q.requests, query).toEqual({ Query: 1 });
        expect(q.requests, query).toEqual(e.requests);
      }
    });

    it('narrows a sort key as ElectroDB does (a range of hiring dates, salaries from a value), one Query each', async () => {
      const hired = await oracle.graphql(`{ teamMembers(team: DEVELOPMENT, hiredFrom: "2019", hiredUntil: "2021", first: 50) { edges { node { id dateHired } } } }`);
      const eHired = await oracle.electrodb((s) => s.entities.employee.query.teams({ team: 'development' }).between({ dateHired: '2019' }, { dateHired: '2021' }).go());
      expect(nodes(hired.data.teamMembers)).toEqual(eHired.value.data.map((e: Row) => ({ id: e.employee, dateHired: e.dateHired })));
      expect(nodes(hired.data.teamMembers).map((n: any) => n.id)).toEqual(['Tyler.Walch', 'Ana.Ortiz']);
      expect(hired.requests).toEqual({ Query: 1 });
      expect(hired.requests).toEqual(eHired.requests);
      const paid = await oracle.graphql(`{ roles(title: "Senior Engineer", salaryFrom: "13", first: 50) { edges { node { id salary } } } }`);
      const ePaid = await oracle.electrodb((s) => s.entities.employee.query.roles({ title: 'Senior Engineer' }).gte({ salary: '13' }).go());
      expect(nodes(paid.data.roles)).toEqual(ePaid.value.data.map((e: Row) => ({ id: e.employee, salary: e.salary })));
      expect(nodes(paid.data.roles).map((n: any) => n.id)).toEqual(['Tyler.Walch']);
      expect(paid.requests).toEqual(ePaid.requests);
    });
  });

  it('pages a partition named by an enum value stored as other text, given as a variable, exactly both ways', async () => {
    const PAGE = `query($s: TaskStatus!, $first: Int, $after: String, $last: Int, $before: String) {
      tasksByStatus(status: $s, first: $first, after: $after, last: $last, before: $before) { edges { node { id status } } pageInfo { hasNextPage hasPreviousPage endCursor startCursor } } }`;
    const first = await oracle.graphql(PAGE, { s: 'OPEN', first: 1 });
    expect(nodes(first.data.tasksByStatus)).toEqual([{ id: 'T1', status: 'OPEN' }]);
    expect(first.data.tasksByStatus.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = await oracle.graphql(PAGE, { s: 'OPEN', first: 1, after: first.data.tasksByStatus.pageInfo.endCursor });
    expect(nodes(next.data.tasksByStatus)).toEqual([{ id: 'T4', status: 'OPEN' }]);
    const back = await oracle.graphql(PAGE, { s: 'OPEN', last: 1, before: next.data.tasksByStatus.pageInfo.startCursor });
    expect(nodes(back.data.tasksByStatus)).toEqual([{ id: 'T1', status: 'OPEN' }]);
    // A cursor of the open tasks is refused for the tasks in progress (another partition).
    const other = await oracle.gw.run(PAGE, { s: 'IN_PROGRESS', first: 1, after: first.data.tasksByStatus.pageInfo.endCursor });
    expect(other.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  describe('items GraphQL writes, read back by ElectroDB', () => {
    it('creates an employee with one PutItem, as ElectroDB does, that ElectroDB gets, queries and finds in its collections', async () => {
      const q = await oracle.graphql(`mutation($i: CreateEmployeeInput!) { createEmployee(input: $i) { ${EMPLOYEE_FIELDS} } }`, {
        i: { id: 'Jo.Park', firstName: 'Jo', lastName: 'Park', office: 'Portland', title: 'Staff Engineer', team: 'COOL_CATS_AND_KITTENS', salary: '170', manager: 'Maria.Chen', dateHired: '2022-05-01' },
      });
      const e = await oracle.electrodb((s) =>
        s.entities.employee.create({ employee: 'Lee.Wu', firstName: 'Lee', lastName: 'Wu', office: 'Seattle', title: 'Staff Engineer', team: 'marketing', salary: '160', dateHired: '2022-06-01' }).go(),
      );
      expect(q.requests).toEqual({ PutItem: 1 });
      expect(q.requests).toEqual(e.requests);
      const got = await oracle.electrodb((s) => s.entities.employee.get({ employee: 'Jo.Park' }).go());
      expect(got.value.data).toEqual({ employee: 'Jo.Park', firstName: 'Jo', lastName: 'Park', office: 'Portland', title: 'Staff Engineer', team: 'cool cats and kittens', salary: '170', manager: 'Maria.Chen', dateHired: '2022-05-01' });
      expect(employeeOf(got.value.data!)).toEqual(q.data.createEmployee);
      const staff = await oracle.electrodb((s) => s.entities.employee.query.coworkers({ office: 'Portland' }).go());
      expect(staff.value.data.map((x: Row) => x.employee)).toContain('Jo.Park');
      const reports = await oracle.electrodb((s) => s.entities.employee.query.directReports({ manager: 'Maria.Chen' }).go());
      expect(reports.value.data.map((x: Row) => x.employee)).toContain('Jo.Park');
      const workplace = await oracle.electrodb((s) => s.collections.workplaces({ office: 'Portland' }).go());
      expect(workplace.value.data.employee.map((x: Row) => x.employee)).toContain('Jo.Park');
      expect(workplace.value.data.office.map((x: Row) => x.office)).toEqual(['Portland']);
      // And the one ElectroDB wrote reads through GraphQL.
      const lee = await oracle.graphql(`{ employee(id: "Lee.Wu") { id team } }`);
      expect(lee.data.employee).toEqual({ id: 'Lee.Wu', team: 'MARKETING' });
    });

    it('creates a task open by default, with its status stored as ElectroDB stores it, found in its assignments', async () => {
      const q = await oracle.graphql(`mutation { createTask(input: { id: "T9", project: "Apollo-1", employee: "Jo.Park", points: 13 }) { ${TASK_FIELDS} } }`);
      expect(q.data.createTask).toEqual({ id: 'T9', project: 'Apollo-1', employee: { id: 'Jo.Park' }, description: null, status: 'OPEN', points: 13 });
      const e = await oracle.electrodb((s) => s.entities.task.create({ task: 'T8', project: 'Apollo-1', employee: 'Jo.Park', points: 1, status: 'in-progress' }).go());
      expect(q.requests).toEqual({ PutItem: 1 });
      expect(q.requests).toEqual(e.requests);
      const got = await oracle.electrodb((s) => s.entities.task.get({ task: 'T9', project: 'Apollo-1', employee: 'Jo.Park' }).go());
      expect(got.value.data).toEqual({ task: 'T9', project: 'Apollo-1', employee: 'Jo.Park', status: 'open', points: 13 });
      const open = await oracle.electrodb((s) => s.entities.task.query.statuses({ status: 'open' }).go());
      expect(open.value.data.map((t: Row) => t.task)).toContain('T9');
      const assignments = await oracle.electrodb((s) => s.collections.assignments({ employee: 'Jo.Park' }).go());
      expect(assignments.value.data.employee.map((x: Row) => x.employee)).toEqual(['Jo.Park']);
      expect(assignments.value.data.task.map((t: Row) => t.task).sort()).toEqual(['T8', 'T9']);
      const inProgress = await oracle.graphql(`{ tasksByStatus(status: IN_PROGRESS, first: 50) { edges { node { id } } } }`);
      expect(nodes(inProgress.data.tasksByStatus).map((n: any) => n.id).sort()).toEqual(['T2', 'T8']);
    });

    it('creates an office keyed by where it is, that ElectroDB finds by its location', async () => {
      const q = await oracle.graphql(`mutation { createOffice(input: { id: "Bend", country: "USA", state: "OR", city: "Bend", zip: "97701" }) { ${OFFICE_FIELDS} } }`);
      expect(q.requests).toEqual({ PutItem: 1 });
      const got = await oracle.electrodb((s) => s.entities.office.query.locations({ country: 'USA', state: 'OR' }).go());
      expect(got.value.data.map((o: Row) => o.office)).toEqual(['Bend', 'Eugene', 'Portland']);
      expect(officeOf(got.value.data[0]!)).toEqual(q.data.createOffice);
    });

    it('updates a plain field with one UpdateItem, as ElectroDB does, each reading the other\'s change', async () => {
      const q = await oracle.graphql(`mutation { updateEmployee(id: "Ana.Ortiz", input: { firstName: "Anna", birthday: "1995-05-05" }) { id firstName birthday } }`);
      expect(q.data.updateEmployee).toEqual({ id: 'Ana.Ortiz', firstName: 'Anna', birthday: '1995-05-05' });
      const e = await oracle.electrodb((s) => s.entities.employee.patch({ employee: 'Bo.Kim' }).set({ lastName: 'Kimura' }).go());
      expect(q.requests).toEqual({ UpdateItem: 1 });
      expect(q.requests).toEqual(e.requests);
      const ana = await oracle.electrodb((s) => s.entities.employee.get({ employee: 'Ana.Ortiz' }).go());
      expect(ana.value.data).toMatchObject({ firstName: 'Anna', birthday: '1995-05-05' });
      const bo = await oracle.graphql(`{ employee(id: "Bo.Kim") { lastName } }`);
      expect(bo.data.employee).toEqual({ lastName: 'Kimura' });
      const t = await oracle.graphql(`mutation { updateTask(id: "T1", project: "Apollo-1", employee: "Tyler.Walch", input: { description: "Design again" }) { id description status } }`);
      const et = await oracle.electrodb((s) => s.entities.task.patch({ task: 'T3', project: 'Zeus-2', employee: 'Tyler.Walch' }).set({ description: 'Ship' }).go());
      expect(t.data.updateTask).toEqual({ id: 'T1', description: 'Design again', status: 'OPEN' });
      expect(t.requests).toEqual(et.requests);
    });

    it('deletes a task that is then gone for ElectroDB, and one ElectroDB deletes is gone for GraphQL', async () => {
      await oracle.graphql(`mutation { deleteTask(id: "T8", project: "Apollo-1", employee: "Jo.Park") }`);
      await oracle.electrodb((s) => s.entities.task.delete({ task: 'T9', project: 'Apollo-1', employee: 'Jo.Park' }).go());
      const left = await oracle.electrodb((s) => s.collections.assignments({ employee: 'Jo.Park' }).go());
      expect(left.value.data.task).toEqual([]);
      const none = await oracle.graphql(`{ a: task(id: "T9", project: "Apollo-1", employee: "Jo.Park") { id } b: task(id: "T8", project: "Apollo-1", employee: "Jo.Park") { id } }`);
      expect(none.data).toEqual({ a: null, b: null });
    });

    it('deletes a task with one DeleteItem, as ElectroDB does', async () => {
      await oracle.electrodb((s) => s.entities.task.create({ task: 'T7', project: 'Zeus-2', employee: 'Bo.Kim', points: 1 }).go());
      const q = await oracle.graphql(`mutation { deleteTask(id: "T7", project: "Zeus-2", employee: "Bo.Kim") }`);
      const e = await oracle.electrodb((s) => s.entities.task.delete({ task: 'T4', project: 'Zeus-2', employee: 'Bo.Kim' }).go());
      expect(q.requests).toEqual({ DeleteItem: 1 });
      expect(q.requests).toEqual(e.requests);
    });
  });

  // The patterns below change items or read whole partitions: each runs on a table of its own, seeded afresh.
  async function fresh() {
    const o = await startOracle(electroModel('taskManager', casing), (table, client) => taskManager(table, client, casing));
    for (const e of EMPLOYEES) await o.electro.entities.employee.create(e).go();
    for (const x of OFFICES) await o.electro.entities.office.create(x).go();
    for (const t of TASKS) await o.electro.entities.task.create(t).go();
    return o;
  }
  const member = (n: Record<string, any>) => (n.__typename === 'Office' ? { office: n.id } : n.__typename === 'Task' ? { task: n.id } : { employee: n.id });

  it('reads ElectroDB\'s collection workplaces (an office and its staff) in one Query, as ElectroDB does', async () => {
    const o = await fresh();
    try {
      const q = await o.graphql(`{ workplaces(office: "Portland", first: 50) { edges { node { __typename ... on Employee { id } ... on Office { id } } } } }`);
      const e = await o.electrodb((s) => s.collections.workplaces({ office: 'Portland' }).go());
      // In key order: the staff ($workplaces#employee_1#…) before the office ($workplaces#office_1).
      expect(nodes(q.data.workplaces).map(member)).toEqual([...e.value.data.employee.map((x: Row) => ({ employee: x.employee })), ...e.value.data.office.map((x: Row) => ({ office: x.office }))]);
      expect(q.requests).toEqual({ Query: 1 });
      expect(q.requests).toEqual(e.requests);
      // An employee GraphQL creates and an office ElectroDB creates, each in the other's reading of the collection.
      await o.graphql(`mutation { createEmployee(input: { id: "Jo.Park", firstName: "Jo", lastName: "Park", office: "Bend", title: "Clerk", team: FINANCE, salary: "80" }) { id } }`);
      await o.electrodb((s) => s.entities.office.create({ office: 'Bend', country: 'USA', state: 'OR', city: 'Bend', zip: '97701', address: '4 Elm St' }).go());
      const both = await o.graphql(`{ workplaces(office: "Bend", first: 50) { edges { node { __typename ... on Employee { id office } ... on Office { id city zip } } } } }`);
      const theirs = await o.electrodb((s) => s.collections.workplaces({ office: 'Bend' }).go());
      expect(nodes(both.data.workplaces)).toEqual([
        { __typename: 'Employee', id: 'Jo.Park', office: 'Bend' },
        { __typename: 'Office', id: 'Bend', city: 'Bend', zip: '97701' },
      ]);
      expect(theirs.value.data.employee.map((x: Row) => x.employee)).toEqual(['Jo.Park']);
      expect(theirs.value.data.office.map((x: Row) => x.office)).toEqual(['Bend']);
      expect(both.requests).toEqual(theirs.requests);
    } finally {
      await o.stop();
    }
  });

  it('reads ElectroDB\'s collection assignments (an employee and their tasks) in one Query, as ElectroDB does', async () => {
    const o = await fresh();
    try {
      const q = await o.graphql(`{ assignments(employee: "Tyler.Walch", first: 50) { edges { node { __typename ... on Employee { id } ... on Task { id } } } } }`);
      const e = await o.electrodb((s) => s.collections.assignments({ employee: 'Tyler.Walch' }).go());
      expect(nodes(q.data.assignments).map(member)).toEqual([{ employee: 'Tyler.Walch' }, ...e.value.data.task.map((t: Row) => ({ task: t.task }))]);
      expect(q.requests).toEqual(e.requests);
      // The employee with the first page of their tasks, which share its partition in gsi3: the same one Query.
      const entity = await o.graphql(`{ employee(id: "Tyler.Walch") { firstName tasks(first: 10) { edges { node { id } } } } }`);
      expect(entity.data.employee.tasks.edges.map((x: any) => x.node.id)).toEqual(e.value.data.task.map((t: Row) => t.task));
      expect(entity.requests).toEqual(e.requests);
    } finally {
      await o.stop();
    }
  });

  it('moves a task to another status with one UpdateItem, as ElectroDB does, in every index its status is in', async () => {
    const o = await fresh();
    try {
      const q = await o.graphql(`mutation { updateTask(id: "T1", project: "Apollo-1", employee: "Tyler.Walch", input: { status: IN_PROGRESS }) { id status } }`);
      expect(q.data.updateTask).toEqual({ id: 'T1', status: 'IN_PROGRESS' });
      const e = await o.electrodb((s) => s.entities.task.patch({ task: 'T4', project: 'Zeus-2', employee: 'Bo.Kim' }).set({ status: 'closed' }).go());
      expect(q.requests).toEqual({ UpdateItem: 1 });
      expect(q.requests).toEqual(e.requests);
      const moved = await o.electrodb((s) => s.entities.task.query.statuses({ status: 'in-progress' }).go());
      expect(moved.value.data.map((t: Row) => t.task).sort()).toEqual(['T1', 'T2']);
      const project = await o.electrodb((s) => s.entities.task.query.project({ project: 'Apollo-1' }).go());
      expect(project.value.data.find((t: Row) => t.task === 'T1')?.status).toBe('in-progress');
      const closed = await o.graphql(`{ tasksByStatus(status: CLOSED, first: 50) { edges { node { id } } } }`);
      expect(nodes(closed.data.tasksByStatus).map((n: any) => n.id).sort()).toEqual(['T3', 'T4']);
      const assigned = await o.graphql(`{ employee(id: "Tyler.Walch") { tasks(first: 50) { edges { node { id status } } } } }`);
      expect(nodes(assigned.data.employee.tasks)).toContainEqual({ id: 'T1', status: 'IN_PROGRESS' });
    } finally {
      await o.stop();
    }
  });
});
