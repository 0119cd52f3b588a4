/**
 * Subscriptions without DynamoDB: which topics a stream record touches,
 * how the hub orders and deduplicates what the bus brings, and what the
 * SDL's subscription declarations may and may not say.
 */
import { describe, expect, it } from 'vitest';
import { marshall } from '@aws-sdk/util-dynamodb';
import { buildASTSchema, parse } from 'graphql';
import { courseItem, enrollmentItem, orderItem } from '../support/defaultItems.js';
import { eventsOf, type ChangeEvent } from '../../src/subscriptions/events.js';
import { defaultChangeModel } from '../support/model.js';
import { modelFromPlan } from '../../src/subscriptions/model.js';
import { compilePlan } from '../../src/plan/plan.js';
import { buildModel } from '../../src/declaration/buildModel.js';
import { memoryBus } from '../../src/subscriptions/bus.js';
import { ChangeHub, type SharedEvent } from '../../src/subscriptions/hub.js';
import { declaredSubscriptions } from '../../src/subscriptions/declared.js';
import { SUBSCRIPTION_DIRECTIVES } from '../../src/declaration/subscriptionDirectives.js';
import { readFileSync } from 'node:fs';
import { DEFAULT_SCHEMA_FILE, loadModel } from '../../src/declaration/loadModel.js';
import { DIRECTIVE_DEFINITIONS } from '../../src/declaration/directives.js';
import { loadConfig } from '../../src/config.js';
import type { Item } from '../../src/dynamo/batchGet.js';

const { typeDefs } = loadModel();

const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', seq: string, item: Item, old?: Item) => ({
  eventName,
  dynamodb: {
    Keys: marshall({ PK: item.PK, SK: item.SK }),
    ...(eventName === 'REMOVE' ? {} : { NewImage: marshall(item, { removeUndefinedValues: true }) }),
    ...(old ? { OldImage: marshall(old, { removeUndefinedValues: true }) } : {}),
    SequenceNumber: seq,
  },
});

const topics = (events: ChangeEvent[]) => events.map((e) => [e.topic, e.kind, e.childId ?? null]);

describe('eventsOf: the topics one record touches', () => {
  it("an enrollment edge: both sides' connections, once each", () => {
    const edge = enrollmentItem({ studentId: 's1', courseId: 'c1', studentName: 'Ada', courseTitle: 'Engines', enrolledAt: '2026-12-01T00:00:00.000Z' });
    expect(topics(eventsOf(record('INSERT', '100', edge), defaultChangeModel))).toEqual([
      ['Student.courses#s1', 'ADDED', 'c1'],
      ['Course.students#c1', 'ADDED', 's1'],
    ]);
    // A removal carries keys only: the same topics, no image.
    const removed = eventsOf(record('REMOVE', '101', edge), defaultChangeModel);
    expect(topics(removed)).toEqual([
      ['Student.courses#s1', 'REMOVED', 'c1'],
      ['Course.students#c1', 'REMOVED', 's1'],
    ]);
    expect(removed.every((e) => e.image === null && e.seq === '101')).toBe(true);
  });

  it("an entity item: its own topic; an order: the customer's orders", () => {
    const before = courseItem({ id: 'c1', title: 'Engines' });
    const after = { ...before, title: 'Engines II' };
    expect(topics(eventsOf(record('MODIFY', '7', after, before), defaultChangeModel))).toEqual([['Course#c1', 'UPDATED', null]]);
    const order = orderItem({ customerId: 'u1', id: 'o1', placedAt: '2026-12-01T00:00:00.000Z', total: 3 });
    expect(topics(eventsOf(record('INSERT', '8', order), defaultChangeModel))).toEqual([['Customer.orders#u1', 'ADDED', 'o1']]);
  });

  it('nothing for a rewrite that changed nothing, bookkeeping items, or a record without a sequence number', () => {
    const course = courseItem({ id: 'c1', title: 'Engines' });
    expect(eventsOf(record('MODIFY', '9', course, course), defaultChangeModel)).toEqual([]);
    expect(eventsOf(record('INSERT', '10', { PK: 'STREAM#label', SK: 'SHARD#x', sequenceNumber: '1' }), defaultChangeModel)).toEqual([]);
    expect(eventsOf(record('MODIFY', '11', { PK: 'COURSE#c1#3', SK: 'COUNTER', studentCount: 2 }), defaultChangeModel)).toEqual([]);
    const noSeq = record('INSERT', '', course);
    expect(eventsOf(noSeq, defaultChangeModel)).toEqual([]);
  });
});

describe('eventsOf on a table keyed on pk/sk', () => {
  const renamed = modelFromPlan(
    compilePlan(
      buildModel(
        'extend schema @table(pk: "pk", sk: "sk") @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"]) @index(name: "GSI2", pk: ["GSI2PK"], sk: ["GSI2SK"])\n' +
          readFileSync(DEFAULT_SCHEMA_FILE, 'utf8'),
        'renamed.graphql',
      ),
    ),
  );
  /** A default item with its keys under pk/sk, as that table holds it. */
  const renamedItem = ({ PK, SK, ...rest }: Item): Item => ({ pk: PK, sk: SK, ...rest });
  const renamedRecord = (eventName: 'INSERT' | 'MODIFY', seq: string, item: Item) => ({
    eventName,
    dynamodb: { Keys: marshall({ pk: item.pk, sk: item.sk }), NewImage: marshall(item, { removeUndefinedValues: true }), SequenceNumber: seq },
  });

  it('reads the keys from the declared attributes: the same topics and items as on PK/SK', () => {
    const edge = enrollmentItem({ studentId: 's1', courseId: 'c1', studentName: 'Ada', courseTitle: 'Engines', enrolledAt: '2026-12-01T00:00:00.000Z' });
    const events = eventsOf(renamedRecord('INSERT', '100', renamedItem(edge)), renamed);
    expect(topics(events)).toEqual([
      ['Student.courses#s1', 'ADDED', 'c1'],
      ['Course.students#c1', 'ADDED', 's1'],
    ]);
    expect(events.map((e) => e.item)).toEqual(eventsOf(record('INSERT', '100', edge), defaultChangeModel).map((e) => e.item));
    const course = renamedItem(courseItem({ id: 'c1', title: 'Engines' }));
    expect(topics(eventsOf(renamedRecord('MODIFY', '7', course), renamed))).toEqual([['Course#c1', 'UPDATED', null]]);
    // A record keyed PK/SK is no item of that table.
    expect(eventsOf(record('MODIFY', '8', courseItem({ id: 'c1', title: 'Engines' })), renamed)).toEqual([]);
  });
});

describe('ChangeHub', () => {
  const event = (item: string, seq: string): ChangeEvent => ({
    topic: 'Course#c1',
    item,
    seq,
    kind: 'UPDATED',
    image: { PK: 'COURSE#c1', SK: 'PROFILE', title: seq },
  });

  it("delivers per item in sequence order and drops what it delivered before, whatever the digits' length", async () => {
    const bus = memoryBus();
    const hub = new ChangeHub(bus);
    const got: string[] = [];
    const leave = await hub.add('Course#c1', { deliver: (s: SharedEvent) => void got.push(`${s.event.item}:${s.event.seq}`) });
    await bus.publish([event('a', '9'), event('a', '10'), event('a', '10'), event('a', '9'), event('b', '3'), event('a', '0011')]);
    expect(got).toEqual(['a:9', 'a:10', 'b:3', 'a:0011']);
    expect(hub.stats()).toEqual({ topics: 1, received: 6, duplicates: 2 });
    leave();
    await bus.publish([event('a', '12')]);
    expect(got).toHaveLength(4);
    expect(hub.stats().topics).toBe(0);
  });

  it('listens to a topic on the bus from its first subscriber to its last', async () => {
    const bus = memoryBus();
    const calls: string[] = [];
    const listen = bus.listen.bind(bus);
    const unlisten = bus.unlisten.bind(bus);
    bus.listen = async (t) => void (calls.push(`listen ${t}`), await listen(t));
    bus.unlisten = async (t) => void (calls.push(`unlisten ${t}`), await unlisten(t));
    const hub = new ChangeHub(bus);
    const one = await hub.add('T#1', { deliver: () => {} });
    const two = await hub.add('T#1', { deliver: () => {} });
    one();
    one();
    two();
    expect(calls).toEqual(['listen T#1', 'unlisten T#1']);
  });
});

describe('declaredSubscriptions', () => {
  it("reads the default model's four subscriptions", () => {
    const declared = declaredSubscriptions(buildASTSchema(typeDefs), defaultChangeModel);
    expect(declared.map((d) => [d.field, d.kind, d.kind === 'item' ? d.type : d.connection])).toEqual([
      ['courseChanged', 'item', 'Course'],
      ['studentChanged', 'item', 'Student'],
      ['courseStudentsChanged', 'collection', 'Course.students'],
      ['customerOrdersChanged', 'collection', 'Customer.orders'],
    ]);
    expect(declared.find((d) => d.field === 'customerOrdersChanged')).toMatchObject({
      kindField: 'kind',
      idField: 'orderId',
      payloadField: 'order',
      payloadIs: 'node',
    });
  });

  it('refuses what the model cannot serve, every problem at once and naming the field', () => {
    const sdl = parse(
      (readFileSync(DEFAULT_SCHEMA_FILE, 'utf8') + DIRECTIVE_DEFINITIONS).replace(/type Subscription \{[\s\S]*?\n\}/, '') +
        `
        type Broken { kind: ChangeKind! id: ID! }
        type Subscription {
          plain(id: ID!): Course
          nonNull(id: ID!): Course! @changes
          nowhere(id: ID!): Broken! @changes(field: "Course.nowhere")
          shape(courseId: ID!): Broken! @changes(field: "Course.students")
          keys(a: ID!, b: ID!): Course @changes
        }`,
    );
    expect(() => declaredSubscriptions(buildASTSchema(sdl), defaultChangeModel)).toThrow(
      [
        'Subscriptions the model cannot serve:',
        '  Subscription.plain: needs @changes',
        '  Subscription.nonNull: @changes needs a nullable object type the model stores (null once deleted); got Course!',
        '  Subscription.nowhere: @changes(field: "Course.nowhere") must name a connection the model keeps, as "Type.field"',
        '  Subscription.shape: @changes(field:) needs a non-null change type of exactly three fields: ChangeKind!, ID! and a nullable CourseStudentEdge or Student',
        '  Subscription.keys: takes 2 key argument(s), Query.course takes 1',
      ].join('\n'),
    );
    expect(SUBSCRIPTION_DIRECTIVES).toContain('directive @changes(field: String) on FIELD_DEFINITION');
  });
});

describe('REDIS_URL', () => {
  it('takes a redis:// or rediss:// URL and refuses anything else, naming the variable', () => {
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example.com:6380' }).subscriptions.redisUrl).toBe('rediss://cache.example.com:6380');
    expect(loadConfig({}).subscriptions.redisUrl).toBeUndefined();
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });
});
