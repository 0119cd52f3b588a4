/** `npm run seed` for any model: its flags, and data sets in the declared layout (no DynamoDB). */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { buildModelDataset, shapeProblems } from '../../scripts/modelDataset.js';
import { isGeneric, parseModelShape, parseShape } from '../../scripts/seedArgs.js';
import { layoutProblems } from '../support/layoutCheck.js';

const crm = compilePlan(loadModel(fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url))));
const school = compilePlan(loadModel());

describe('seed flags for any model', () => {
  it('reads repeated --count, --per and --ids into a shape', () => {
    const { shape, concurrency } = parseModelShape([
      '--count',
      'User=1000',
      '--per',
      'User.orders=5',
      '--per',
      'User.groups=3',
      '--ids',
      'Order=date',
      '--seed',
      '7',
      '--concurrency',
      '2',
    ]);
    expect(shape).toEqual({ counts: { User: 1000 }, per: { 'User.orders': 5, 'User.groups': 3 }, ids: { Order: 'date' }, seed: 7 });
    expect(concurrency).toBe(2);
    expect(isGeneric(['--count', 'User=1'])).toBe(true);
    expect(isGeneric(['--students', '3'])).toBe(false);
  });

  it('refuses malformed pairs, bad numbers and unknown id styles', () => {
    expect(() => parseModelShape(['--count', 'User'])).toThrow(/--count expects <name>=<value>; got "User"/);
    expect(() => parseModelShape(['--count', 'User=-1'])).toThrow(/--count User must be a non-negative integer; got "-1"/);
    expect(() => parseModelShape(['--per', 'orders=2'])).toThrow(/--per expects <Owner.field>=<n>; got "orders"/);
    expect(() => parseModelShape(['--ids', 'Order=uuid'])).toThrow(/--ids Order: expected one of seq, ulid, date; got "uuid"/);
  });

  it("refuses mixing the default model's own flags with the generic ones, either way", () => {
    expect(() => parseModelShape(['--count', 'Student=3', '--students', '4'])).toThrow(/--students is a flag of the default model's data set/);
    expect(() => parseShape(['--students', '4', '--per', 'Student.courses=2'])).toThrow(/--per cannot be mixed/);
  });

  it('names unknown types and relations, child types given a count, and both sides of one edge set', () => {
    const shape = { counts: { Person: 1, Order: 2 }, per: { 'User.friends': 1, 'User.groups': 1, 'Group.members': 2 }, ids: {}, seed: 1 };
    expect(shapeProblems(crm, shape)).toEqual([
      '--count Person: the model has no @item type Person (it has User, Order, Contact, Group)',
      '--count Order: Order is a child of User: give --per User.<its @children field> instead',
      '--per User.friends: the model has no @children or @edges field User.friends (it has User.orders, User.contacts, User.groups, Group.members)',
      '--per User.groups and --per Group.members name the same edges: give one of them',
    ]);
  });
});

describe('a data set for the example model', () => {
  const shape = { counts: { User: 20, Group: 4 }, per: { 'User.orders': 3, 'User.contacts': 2, 'User.groups': 2 }, ids: { Order: 'date' as const }, seed: 1 };
  const dataset = buildModelDataset(crm, shape);

  it('has the items asked for, in the declared layout, with exact counters and copies', () => {
    expect(dataset.counts).toEqual({ User: 20, Group: 4, Order: 60, Contact: 40, 'User.groups': 40 });
    expect(dataset.items).toHaveLength(20 + 4 + 60 + 40 + 40);
    expect(layoutProblems(crm, dataset.items)).toEqual([]);
    const user = dataset.items.find((i) => i.PK === 'USER#user0000' && i.SK === 'PROFILE');
    expect(user).toMatchObject({ name: 'User 0', email: 'user0000@example.com', orderCount: 3, contactCount: 2, groupCount: 2 });
    const members = dataset.items.filter((i) => String(i.SK).startsWith('GROUP#')).length;
    const memberCounts = dataset.items.filter((i) => String(i.PK).startsWith('GROUP#')).reduce((n, g) => n + (g.memberCount as number), 0);
    expect(memberCounts).toBe(members);
  });

  it('makes date ids for orders, one a day per user, and time-ordered ids for contacts', () => {
    const orders = dataset.items.filter((i) => i.PK === 'USER#user0000' && String(i.SK).startsWith('ORDER')).map((i) => i.SK);
    expect(orders).toEqual(['ORDER2025-01-01', 'ORDER2025-01-02', 'ORDER2025-01-03']);
    const contacts = dataset.items.filter((i) => String(i.SK).startsWith('CONTACT#')).map((i) => String(i.SK).slice(8));
    expect(contacts.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect([...contacts].sort()).toEqual(contacts);
  });

  it('gives the same items for the same seed and others for another', () => {
    expect(buildModelDataset(crm, shape).items).toEqual(dataset.items);
    expect(buildModelDataset(crm, { ...shape, seed: 2 }).items).not.toEqual(dataset.items);
  });

  it('can be given from the inverse side: members per group', () => {
    const inverse = buildModelDataset(crm, { counts: { User: 10, Group: 3 }, per: { 'Group.members': 4 }, ids: {}, seed: 1 });
    expect(inverse.counts['User.groups']).toBe(12);
    expect(layoutProblems(crm, inverse.items)).toEqual([]);
    expect(inverse.items.filter((i) => String(i.PK).startsWith('GROUP#')).map((g) => g.memberCount)).toEqual([4, 4, 4]);
  });
});

describe('a generic data set for the default model', () => {
  const dataset = buildModelDataset(school, {
    counts: { Student: 30, Course: 5, Customer: 3, Product: 2 },
    per: { 'Student.courses': 2, 'Customer.orders': 4, 'Product.parts': 3 },
    ids: {},
    seed: 1,
  });

  it('keeps counters, copies, inverted keys and the shard-count copy on edges', () => {
    expect(layoutProblems(school, dataset.items)).toEqual([]);
    const edge = dataset.items.find((i) => String(i.PK).startsWith('STUDENT#') && String(i.SK).startsWith('COURSE#'))!;
    expect(edge).toMatchObject({ courseShards: 1 });
    expect(typeof edge.enrolledAt).toBe('string');
    const order = dataset.items.find((i) => String(i.SK).startsWith('ORDER#'))!;
    expect(order.GSI1PK).toBe(order.SK);
    // @indexed by instant: the customer's orders by placedAt in GSI2.
    expect(order.GSI2PK).toBe(`ORDERS#${String(order.PK).slice('CUSTOMER#'.length)}`);
    expect(order.GSI2SK).toBe(`${order.placedAt}#${String(order.SK).slice('ORDER#'.length)}`);
  });

  it('writes catalog entries for students and courses and per-shard counters summing to them', () => {
    for (const [kind, n] of [
      ['STUDENT', 30],
      ['COURSE', 5],
    ] as const) {
      expect(dataset.items.filter((i) => String(i.GSI2PK ?? '').startsWith(`CATALOG#${kind}#`))).toHaveLength(n);
      const counters = dataset.items.filter((i) => String(i.PK).startsWith(`CATALOG#${kind}#`) && i.SK === 'COUNTER');
      expect(counters).toHaveLength(8);
      expect(counters.reduce((sum, c) => sum + (c.count as number), 0)).toBe(n);
    }
  });
});
