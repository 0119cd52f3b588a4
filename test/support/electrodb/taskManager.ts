/**
 * ElectroDB's task-manager example (its documentation, "Examples: Task
 * manager", https://electrodb.dev/en/examples/task-manager/), as its
 * entities are written there: employees, tasks and offices of the service
 * `taskmanager`, six indexes, the collections `workplaces` (an office and
 * its staff) and `assignments` (an employee and their tasks). Left out:
 * the date validation of `dateHired`/`birthday` (a library call) and the
 * task's `comments` (type `any`). `casing: 'none'` gives every index key
 * ElectroDB's `casing: "none"`; the default is ElectroDB's own (lower case).
 *
 * The same design declared for the gateway: examples/electrodb/taskManager.graphql.
 */
import { Entity, Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keyed, type ElectroCasing, type ElectroService } from './casing.js';

export function taskManager(table: string, client: DynamoDBDocumentClient, casing: ElectroCasing): ElectroService {
  const key = keyed(casing);
  const employee = new Entity(
    {
      model: { entity: 'employee', version: '1', service: 'taskmanager' },
      attributes: {
        employee: { type: 'string' },
        firstName: { type: 'string', required: true },
        lastName: { type: 'string', required: true },
        office: { type: 'string', required: true },
        title: { type: 'string', required: true },
        team: { type: ['development', 'marketing', 'finance', 'product', 'cool cats and kittens'] as const, required: true },
        salary: { type: 'string', required: true },
        manager: { type: 'string' },
        dateHired: { type: 'string' },
        birthday: { type: 'string' },
      },
      indexes: {
        employee: { pk: key('pk', ['employee']), sk: key('sk', []) },
        coworkers: { index: 'gsi1pk-gsi1sk-index', collection: 'workplaces', pk: key('gsi1pk', ['office']), sk: key('gsi1sk', ['team', 'title', 'employee']) },
        teams: { index: 'gsi2pk-gsi2sk-index', pk: key('gsi2pk', ['team']), sk: key('gsi2sk', ['dateHired', 'title']) },
        employeeLookup: { collection: 'assignments', index: 'gsi3pk-gsi3sk-index', pk: key('gsi3pk', ['employee']), sk: key('gsi3sk', []) },
        roles: { index: 'gsi4pk-gsi4sk-index', pk: key('gsi4pk', ['title']), sk: key('gsi4sk', ['salary']) },
        directReports: { index: 'gsi5pk-gsi5sk-index', pk: key('gsi5pk', ['manager']), sk: key('gsi5sk', ['team', 'office']) },
      },
    },
    { table, client },
  );
  const office = new Entity(
    {
      model: { entity: 'office', version: '1', service: 'taskmanager' },
      attributes: {
        office: { type: 'string' },
        country: { type: 'string' },
        state: { type: 'string' },
        city: { type: 'string' },
        zip: { type: 'string' },
        address: { type: 'string' },
      },
      indexes: {
        locations: { pk: key('pk', ['country', 'state']), sk: key('sk', ['city', 'zip', 'office']) },
        office: { index: 'gsi1pk-gsi1sk-index', collection: 'workplaces', pk: key('gsi1pk', ['office']), sk: key('gsi1sk', []) },
      },
    },
    { table, client },
  );
  const task = new Entity(
    {
      model: { entity: 'task', version: '1', service: 'taskmanager' },
      attributes: {
        task: { type: 'string', required: true },
        project: { type: 'string', required: true },
        employee: { type: 'string', required: true },
        description: { type: 'string' },
        status: { type: ['open', 'in-progress', 'closed'] as const, default: 'open' },
        points: { type: 'number', required: true },
      },
      indexes: {
        task: { pk: key('pk', ['task']), sk: key('sk', ['project', 'employee']) },
        project: { index: 'gsi1pk-gsi1sk-index', pk: key('gsi1pk', ['project']), sk: key('gsi1sk', ['employee', 'status']) },
        assigned: { collection: 'assignments', index: 'gsi3pk-gsi3sk-index', pk: key('gsi3pk', ['employee']), sk: key('gsi3sk', ['project', 'status']) },
        statuses: { index: 'gsi4pk-gsi4sk-index', pk: key('gsi4pk', ['status']), sk: key('gsi4sk', ['project', 'employee']) },
      },
    },
    { table, client },
  );
  return new Service({ employee, task, office }) as unknown as ElectroService;
}
