/**
 * What a model declares about the text other libraries store: enum values
 * stored as other text, create defaults, the id under an attribute of its
 * own, constant attributes. Served where it can be; refused at start-up
 * otherwise, one line each naming the value, input field or type.
 */
import { describe, expect, it } from 'vitest';
import { execute, parse } from 'graphql';
import { buildModel } from '../../src/declaration/buildModel.js';
import { gatewaySchema } from '../../src/graphql/server.js';
import { problemsOf } from '../support/problems.js';

const TASKS = (extra = '') => `
enum Status { OPEN @attribute(name: "open") IN_PROGRESS @attribute(name: "in-progress") DONE }
type Task @item(pk: "T#{id}", sk: "S#{status}", constants: [{ attribute: "__edb_e__", value: "task" }]) {
  id: ID! @attribute(name: "task")
  status: Status!
  points: Int! @attribute(min: 0, max: 20)
  note: String
}
input CreateTaskInput { id: ID  status: Status! = OPEN  points: Int! = 1  note: String }
input UpdateTaskInput { points: Int  note: String }
type Query { task(id: ID!, status: Status!): Task @get }
type Mutation { createTask(input: CreateTaskInput!): Task! @create  updateTask(id: ID!, status: Status!, input: UpdateTaskInput!): Task! @update }
${extra}`;

describe('enum values stored as other text', () => {
  it('are the stored texts of the model and the internal values of the executable schema', () => {
    const model = buildModel(TASKS(), 'tasks.graphql');
    expect(model.items.get('Task')!.attributes.find((a) => a.name === 'status')!.values).toEqual(['open', 'in-progress', 'DONE']);
    const { schema } = gatewaySchema(model, undefined);
    // A stored "in-progress" answers IN_PROGRESS; an argument IN_PROGRESS reaches the resolver as "in-progress".
    const seen: unknown[] = [];
    schema.getQueryType()!.getFields().task!.resolve = (_p, args) => {
      seen.push(args.status);
      return { id: 't1', status: 'in-progress', points: 1, note: null, complete: true };
    };
    const result = execute({ schema, document: parse(`{ task(id: "t1", status: IN_PROGRESS) { status } }`) }) as { data: unknown };
    expect(result.data).toEqual({ task: { status: 'IN_PROGRESS' } });
    expect(seen).toEqual(['in-progress']);
    // The create input's default too: the resolver gets the stored text.
    const create = schema.getType('CreateTaskInput') as import('graphql').GraphQLInputObjectType;
    expect(create.getFields().status!.defaultValue).toBe('open');
  });

  it('are refused empty, shared by two values, holding # where a key holds the enum, or with min, max or format', () => {
    const problems = problemsOf(
      TASKS().replace(
        'DONE }',
        'DONE @attribute(name: "open") LATER @attribute(name: "") HASH @attribute(name: "a#b") SOON @attribute(name: "soon", min: 1) }',
      ),
    );
    expect(problems).toEqual([
      'Status.DONE @attribute(name): is stored as "open", as Status.OPEN is: a stored text could not be read back',
      'Status.LATER @attribute(name): is empty: an enum value is stored as non-empty text',
      "Status.HASH @attribute(name): \"a#b\" holds '#', which ends a value in a key, and Task.status holds Status in a key: store it without '#'",
      'Status.SOON @attribute(min): applies to fields; on an enum value @attribute takes name alone (the text stored for it)',
    ]);
  });

  it('may hold # where no key holds the enum', () => {
    expect(problemsOf(TASKS('enum Mood { OK @attribute(name: "o#k") } type Note @item(pk: "N#{id}", sk: "n") { id: ID! mood: Mood }'))).toEqual([]);
  });
});

describe('create defaults', () => {
  it('are served on a create input, a required field being T! = value', () => {
    expect(problemsOf(TASKS())).toEqual([]);
  });

  it('are refused on an update input, on the id, and where the field could never be written with them', () => {
    const problems = problemsOf(
      TASKS()
        .replace('input UpdateTaskInput { points: Int  note: String }', 'input UpdateTaskInput { points: Int = 2  note: String }')
        .replace(
          'input CreateTaskInput { id: ID  status: Status! = OPEN  points: Int! = 1  note: String }',
          'input CreateTaskInput { id: ID = "t1"  status: Status! = OPEN  points: Int! = 30  note: String = "  " }',
        ),
    );
    expect(problems).toEqual([
      'CreateTaskInput.id: has a default: every create would take the same id',
      "CreateTaskInput.points: default 30 is above points's max 20",
      'CreateTaskInput.note: default "  " is blank: a mutation stores non-blank text',
      'UpdateTaskInput.points: has a default: every update leaving points out would overwrite the stored value with it (defaults belong on create inputs)',
    ]);
  });

  it('are refused holding # in a field a key holds', () => {
    const problems = problemsOf(`
type Doc @item(pk: "D#{folder}", sk: "d#{id}") { id: ID! folder: String! }
input CreateDocInput { id: ID folder: String! = "a#b" }
type Query { doc(folder: String!, id: ID!): Doc @get }
type Mutation { createDoc(input: CreateDocInput!): Doc! @create }`);
    expect(problems).toEqual(['CreateDocInput.folder: default "a#b" holds \'#\', which ends a value in a key, and a key holds folder']);
  });
});

describe('the id under an attribute, and constant attributes', () => {
  it('are written by every create as the model declares them', () => {
    expect(buildModel(TASKS(), 'tasks.graphql').items.get('Task')).toMatchObject({
      idStoredAs: 'task',
      constants: [{ attribute: '__edb_e__', value: 'task' }],
    });
  });

  it('are refused under a key attribute or an attribute a field holds, named twice, or with anything but a name on the id', () => {
    const problems = problemsOf(
      TASKS()
        .replace('id: ID! @attribute(name: "task")', 'id: ID! @attribute(name: "note", format: EMAIL)')
        .replace(
          'constants: [{ attribute: "__edb_e__", value: "task" }]',
          'constants: [{ attribute: "points", value: "1" }, { attribute: "PK", value: "x" }, { attribute: "v", value: "1" }, { attribute: "v", value: "2" }]',
        ),
    );
    expect(problems).toEqual([
      'Task.id @attribute(format): applies to stored fields; the id takes name alone (the attribute it is also stored under)',
      'Task @item(constants): names the attribute v twice',
      'Task.id @attribute(name: "note"): the id of Task is stored under note, which already holds the field Task.note: name it otherwise',
      'Task @item(constants): the constant points of Task is stored under points, which already holds the field Task.points: name it otherwise',
      'Task @item(constants): the constant PK of Task is stored under PK, a key attribute of the table or an index: name it otherwise',
    ]);
  });
});
