/**
 * `npm run import` end to end: each of the seven AWS designs' exports
 * becomes a draft model that a gateway serves on DynamoDB Local with the
 * draft's demo items loaded: every sample of a declared type is answered by
 * its @get as it is stored, each @query partition lists the samples in it,
 * and each @children connection the children in their parent's partition.
 * Types keyed by more values than an id and a parent's id (key fields, a
 * derived id) are read with their DynamoDB requests counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { formatDerivedId } from '../../src/plan/derivedId.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { runCheck } from '../../src/migration/check.js';
import { convertWorkbench, type Converted } from '../../scripts/import.js';
import type { DraftField, DraftQuery, DraftType } from '../../scripts/workbench/infer.js';
import { codes, checkOptionsOf, testGateway, type TestGateway } from '../support/gateway.js';
import { DESIGNS, getArguments, idOf, keyValues, readableFields, readExport, RECEIPT_SAMPLES, smallExport, TEAM_SAMPLES } from '../support/workbench.js';

const literal = (v: unknown) => JSON.stringify(v);
const args = (values: Record<string, unknown>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}: ${literal(v)}`)
    .join(', ');
const ids = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((e) => e.node.id).sort();

/** The partition a sample is in for a @query field: its arguments, or null when the sample is not in the index. */
function partitionOf(type: DraftType, query: DraftQuery, sample: Record<string, unknown>): Record<string, unknown> | null {
  if (query.index === null) return { [`${type.parent!.field}Id`]: keyValues(type, sample)![type.parent!.field] };
  const values: Record<string, unknown> = {};
  for (const arg of query.args) {
    // A field (a reference too) names the partition by the value the sample stores; an id by the sample's key.
    const field = type.fields.find((f) => f.name === arg.name);
    if (field) {
      if (sample[field.attribute] === undefined) return null;
      values[arg.name] = sample[field.attribute];
    } else {
      // An index keyed on the table's own keys: its partition is the type's SK (or PK) read with the type's template.
      const key = keyValues(type, sample)!;
      values[arg.name] = arg.name === 'id' ? key.id : key[arg.name.replace(/Id$/, '')];
    }
  }
  return values;
}

/** A field's selection: a reference by its id. */
const selection = (f: DraftField) => (f.reference ? `${f.name} { id }` : f.name);
/** A field's expected answer for a sample: as stored, a reference as its id, a key field read from the key when the sample lacks it. */
function answer(type: DraftType, f: DraftField, sample: Record<string, unknown>): unknown {
  const stored = sample[f.attribute] ?? (f.required ? keyValues(type, sample)![f.name] : null) ?? null;
  return f.reference && stored !== null ? { id: stored } : stored;
}

/**
 * Access patterns of the designs' READMEs the drafts serve (docs/importing.md's table), through the
 * root fields the import names: [pattern, operation, expected data].
 */
const PATTERNS: Record<string, [string, string, unknown][]> = {
  ChatSystem: [
    [
      'getLatestComments',
      '{ userItemsByRoomIDCommentIdx(RoomID: "Music", last: 1) { edges { node { Comment user { id } } } } }',
      { userItemsByRoomIDCommentIdx: { edges: [{ node: { Comment: 'I like a Rock music.', user: { id: 'UserA' } } }] } },
    ],
    [
      'getAllComments',
      '{ userItemsByRoomIDCommentIdx(RoomID: "Art", first: 10) { edges { node { Comment } } } }',
      { userItemsByRoomIDCommentIdx: { edges: [{ node: { Comment: 'I love aaa.' } }, { node: { Comment: 'Me too.' } }] } },
    ],
  ],
  // The README names its patterns without listing them: retrieving vehicles, managing user preferences, linking users to vehicles.
  ConnectedVehicles: [
    [
      'a vehicle with its features and users',
      '{ vehicle(id: "WDDJK7DA4FF954840") { engine vehicleFeatures(first: 10) { edges { node { id } } } users(first: 10) { edges { node { id user_phone } } } } }',
      {
        vehicle: {
          engine: 'gasoline',
          vehicleFeatures: { edges: [{ node: { id: 'AUTODRIVE' } }, { node: { id: 'CAMERAS' } }, { node: { id: 'MIRRORS' } }] },
          users: { edges: [{ node: { id: 'cbrawley0', user_phone: '+17778889999' } }] },
        },
      },
    ],
    [
      'a user with their preferences and vehicles',
      '{ user(id: "cbrawley0") { user_phone userPreferences(first: 10) { edges { node { id } } } vehicles(first: 10) { edges { node { id engine } } } } }',
      {
        user: {
          user_phone: '+17778889999',
          userPreferences: { edges: [{ node: { id: 'CAMERAS' } }, { node: { id: 'SEATS' } }] },
          vehicles: { edges: [{ node: { id: 'WDDJK7DA4FF954840', engine: 'gasoline' } }] },
        },
      },
    ],
  ],
  ComplainManagement: [
    ['Get complaint metadata', '{ complaint(id: "Complaint123") { severity current_state } }', { complaint: { severity: 'P2', current_state: 'resolved' } }],
    [
      'Get all complaints for a customer',
      '{ complaintsByCustomerComplaintGsi(customer_id: "custXYZ", first: 10) { edges { node { id } } } }',
      { complaintsByCustomerComplaintGsi: { edges: [{ node: { id: 'Complaint0987' } }, { node: { id: 'Complaint1321' } }] } },
    ],
    [
      'Find complaints escalated to an agent',
      '{ complaintsByEscalationsGsi(escalated_to: "AgentB", first: 10) { edges { node { id } } } }',
      { complaintsByEscalationsGsi: { edges: [{ node: { id: 'Complaint1444' } }, { node: { id: 'Complaint1321' } }] } },
    ],
  ],
  RecurringPayments: [
    [
      'Get all subscriptions for an account',
      '{ subscriptionItemsOfAcc(accId: "123", first: 10) { edges { node { id PaymentAmount } } } }',
      { subscriptionItemsOfAcc: { edges: [{ node: { id: '999', PaymentAmount: '12.99' } }] } },
    ],
    [
      'Find accounts needing reminders for a specific date',
      '{ subscriptionItemsByGsi1(NextReminderDate: "2023-06-21", first: 10) { edges { node { acc { id } Email } } } }',
      { subscriptionItemsByGsi1: { edges: [{ node: { acc: { id: '123' }, Email: 's@s.com' } }] } },
    ],
    [
      'Find accounts with payments due on a specific date',
      '{ subscriptionItemsByGsi2(NextPaymentDate: "2023-06-28", first: 10) { edges { node { acc { id } } } } }',
      { subscriptionItemsByGsi2: { edges: [{ node: { acc: { id: '123' } } }] } },
    ],
  ],
  SessionManagement: [
    [
      'getSessionBySessionId',
      '{ c(suuidId: "l221et00", id: "XYZ") { access_token session_state } }',
      { c: { access_token: 'q213law5', session_state: 'active' } },
    ],
    [
      'getChildSessionsBySessionId',
      '{ childSuuidsOfSuuid(suuidId: "c342etj3", first: 10) { edges { node { id } } } }',
      { childSuuidsOfSuuid: { edges: [{ node: { id: 'ert54fbgn' } }, { node: { id: 'kljhfytf23' } }] } },
    ],
    [
      'getSessionByChildSessionId',
      '{ childSuuidsByGsi1Inverse(id: "ljy22tf0", first: 1) { edges { node { suuid { id } } } } }',
      { childSuuidsByGsi1Inverse: { edges: [{ node: { suuid: { id: 'l221et00' } } }] } },
    ],
    [
      'getSessionsByCustomerId',
      '{ csByGsi1Inverse(id: "ABC", first: 10) { edges { node { suuid { id } last_login_time } } } }',
      {
        csByGsi1Inverse: {
          edges: [
            { node: { suuid: { id: 'c342etj3' }, last_login_time: '2023-05-12T11:30:00' } },
            { node: { suuid: { id: 'd0004tj2' }, last_login_time: '2023-05-12T11:30:00' } },
          ],
        },
      },
    ],
  ],
  SocialNetwork: [
    [
      'getFollowerListByUserID',
      '{ u(id: "12345") { name followers(first: 10) { edges { node { id } } } } }',
      { u: { name: 'hyuklee', followers: { edges: [{ node: { id: '23456' } }, { node: { id: '34567' } }, { node: { id: '45678' } }] } } },
    ],
    [
      'getPostListByUserID',
      '{ u(id: "12345") { posts(first: 10) { edges { node { id timestamp } } } } }',
      { u: { posts: { edges: [{ node: { id: '12345', timestamp: '1571827560' } }, { node: { id: '23456', timestamp: '1571827561' } }] } } },
    ],
    [
      'getUserLikesByPostID',
      '{ likelistsOfP(pId: "12345", first: 10) { edges { node { id } } } }',
      { likelistsOfP: { edges: [{ node: { id: '23456' } }, { node: { id: '34567' } }, { node: { id: '45678' } }] } },
    ],
    ['getLikeCountByPostID', '{ pLikecount(id: "12345") { etc } }', { pLikecount: { etc: '100' } }],
  ],
};

const receiptId = formatDerivedId(['123', '12023-05-28T14:15:39.24', '999']);
const timelineId = formatDerivedId(['12345', '34567', '56789']);

/**
 * Reads of the types declared over keys that hold more values than an id and a parent's id (key fields, derived
 * ids): [read, operation, expected data, DynamoDB requests].
 */
const KEYED: Record<string, [string, string, unknown, Record<string, number>][]> = {
  ComplainManagement: [
    [
      "an agent's communication history (Agents_Comments_GSI)",
      '{ commsByAgentsCommentsGsi(agentID: "AgentA", first: 10) { edges { node { id comm_date complaint { id } } } } }',
      {
        commsByAgentsCommentsGsi: {
          edges: [
            { node: { id: 'comm1', comm_date: '2023-04-30T12:00:24', complaint: { id: 'Complaint123' } } },
            { node: { id: 'comm2', comm_date: '2023-04-30T12:35:54', complaint: { id: 'Complaint123' } } },
          ],
        },
      },
      { Query: 1 },
    ],
    // The complaint and its communications share a partition: one Query reads both.
    [
      "a complaint's communications, by date",
      '{ complaint(id: "Complaint123") { comms(first: 10) { edges { node { id comm_date complaint_state } } } } }',
      {
        complaint: {
          comms: {
            edges: [
              { node: { id: 'comm1', comm_date: '2023-04-30T12:00:24', complaint_state: 'investigating' } },
              { node: { id: 'comm2', comm_date: '2023-04-30T12:35:54', complaint_state: 'resolved' } },
            ],
          },
        },
      },
      { Query: 1 },
    ],
    [
      'a communication by its complaint, date and id',
      '{ comm(complaintId: "Complaint123", comm_date: "2023-04-30T12:35:54", id: "comm2") { complaint_state } }',
      { comm: { complaint_state: 'resolved' } },
      { GetItem: 1 },
    ],
  ],
  RecurringPayments: [
    [
      "an account's receipts, their ids derived from their keys",
      '{ receiptsOfAcc(accId: "123", first: 10) { edges { node { id rec SKU ProcessedDate } } } }',
      { receiptsOfAcc: { edges: [{ node: { id: receiptId, rec: '12023-05-28T14:15:39.24', SKU: '999', ProcessedDate: '2023-05-28T14:15:39.247Z' } }] } },
      { Query: 1 },
    ],
    [
      'a receipt by its derived id alone',
      `{ receipts(id: "${receiptId}") { SKU ProcessedAmount acc { id } } }`,
      { receipts: { SKU: '999', ProcessedAmount: '12.99', acc: { id: '123' } } },
      { GetItem: 1 },
    ],
  ],
  SocialNetwork: [
    [
      "a user's timeline (the post and author ids from the keys)",
      '{ u(id: "12345") { timelines(first: 10) { edges { node { p u_ ttl } } } } }',
      {
        u: {
          timelines: {
            edges: [
              { node: { p: '34567', u_: '56789', ttl: 1571827560 } },
              { node: { p: '45678', u_: '67890', ttl: 1571827560 } },
              { node: { p: '56789', u_: '78901', ttl: 1571827560 } },
            ],
          },
        },
      },
      { GetItem: 1, Query: 1 },
    ],
    [
      'a timeline entry by its derived id alone',
      `{ timeline(id: "${timelineId}") { id p u_ u { id } } }`,
      { timeline: { id: timelineId, p: '34567', u_: '56789', u: { id: '12345' } } },
      { GetItem: 1 },
    ],
  ],
};

/** Link items the samples show both ways, read as a mirrored pair of edges: [read, operation, expected data, DynamoDB requests]. */
// The vehicle's features (the user's preferences) sort between the entity and its link items, without bound: the
// entity is read beside the page (a GetItem at the same time), never through them; each node is one more GetItem.
const MIRRORED: Record<string, [string, string, unknown, Record<string, number>][]> = {
  ConnectedVehicles: [
    [
      "a vehicle's users, each user read with its item",
      '{ vehicle(id: "WDDJK7DA4FF954840") { users(first: 10) { edges { node { id user_phone } } } } }',
      { vehicle: { users: { edges: [{ node: { id: 'cbrawley0', user_phone: '+17778889999' } }] } } },
      { Query: 1, GetItem: 2 },
    ],
    [
      "a user's vehicles, the other side's own link items",
      '{ user(id: "cbrawley0") { vehicles(first: 10) { edges { node { id engine } } } } }',
      { user: { vehicles: { edges: [{ node: { id: 'WDDJK7DA4FF954840', engine: 'gasoline' } }] } } },
      { Query: 1, GetItem: 2 },
    ],
  ],
};

describe.each(DESIGNS)('the draft of %s, served with its samples', (design, file) => {
  let gw: TestGateway;
  let converted: Converted;
  beforeAll(async () => {
    converted = convertWorkbench(file, readExport(design, file));
    gw = await testGateway({ model: buildModel(converted.sdl, `${design}.graphql`) });
    await gw.put(converted.demo.items as Item[]);
  });
  afterAll(() => gw?.stop());

  it('answers every sample of a declared type through its @get, as stored', async () => {
    const served = converted.draft.types.filter((t) => t.samples.length > 0);
    expect(served.length).toBeGreaterThan(0);
    for (const type of served) {
      const fields = readableFields(type);
      for (const sample of type.samples) {
        const a = getArguments(type, sample);
        const result = await gw.run(`{ item: ${type.get}(${args(a)}) { id ${fields.map(selection).join(' ')} } }`);
        expect(result.errors, `${type.name} ${a.id}`).toBeUndefined();
        expect(result.data.item, `${type.name} ${a.id}`).toEqual({ id: a.id, ...Object.fromEntries(fields.map((f) => [f.name, answer(type, f, sample)])) });
      }
    }
  });

  it('lists the samples of each @query partition', async () => {
    for (const type of converted.draft.types) {
      for (const query of type.queries) {
        const partitions = new Map<string, { args: Record<string, unknown>; expected: string[] }>();
        for (const sample of type.samples) {
          const p = partitionOf(type, query, sample);
          if (p === null) continue;
          const key = literal(p);
          const entry = partitions.get(key) ?? { args: p, expected: [] };
          entry.expected.push(idOf(type, sample));
          partitions.set(key, entry);
        }
        expect(partitions.size, `${query.name}: no sample is in a partition it reads`).toBeGreaterThan(0);
        for (const { args: a, expected } of partitions.values()) {
          const result = await gw.run(`{ list: ${query.name}(${args(a)}, first: 100) { edges { node { id } } } }`);
          expect(result.errors, query.name).toBeUndefined();
          expect(ids(result.data.list), `${query.name}(${args(a)})`).toEqual(expected.sort());
        }
      }
    }
  });

  // GamingPlayerProfiles publishes no README: its draft is checked by the tests around this one only.
  it.skipIf(!PATTERNS[design]).each(PATTERNS[design] ?? [])('serves the access pattern %s', async (_, operation, expected) => {
    const result = await gw.run(operation);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual(expected);
  });

  it.skipIf(!KEYED[design]).each(KEYED[design] ?? [])(
    "serves %s from keys holding more values than an id and a parent's",
    async (_, operation, expected, requests) => {
      const { result, requests: made } = await gw.counted(operation);
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual(expected);
      expect(made.byOperation).toEqual(requests);
    },
  );

  it.skipIf(!MIRRORED[design]).each(MIRRORED[design] ?? [])('serves %s', async (_, operation, expected, requests) => {
    const { result, requests: made } = await gw.counted(operation);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual(expected);
    expect(made.byOperation).toEqual(requests);
  });

  it('passes npm run check on its own samples', async () => {
    const report = await runCheck(checkOptionsOf(gw));
    expect(report.found, JSON.stringify(report.findings)).toBe(0);
    expect(report.scanned).toBe((await gw.scan()).length);
  });

  it("lists the children in each sample parent's partition", async () => {
    for (const parent of converted.draft.types.filter((t) => t.children.length > 0 && t.samples.length > 0)) {
      for (const sample of parent.samples) {
        const id = keyValues(parent, sample)!.id!;
        for (const c of parent.children) {
          const child = converted.draft.types.find((t) => t.name === c.type)!;
          const expected = child.samples.filter((s) => keyValues(child, s)![child.parent!.field] === id).map((s) => idOf(child, s));
          const result = await gw.run(`{ p: ${parent.get}(id: ${literal(id)}) { list: ${c.field}(first: 100) { edges { node { id } } } } }`);
          expect(result.errors, `${parent.name}.${c.field}`).toBeUndefined();
          expect(ids(result.data.p.list), `${parent.name} ${id}.${c.field}`).toEqual(expected.sort());
        }
      }
    }
  });
});

describe('the draft of an export whose receipts are keyed by a stored date and a SKU', () => {
  let gw: TestGateway;
  const converted = convertWorkbench('shop.json', smallExport(RECEIPT_SAMPLES));
  const id = (account: string, at: string, sku: string) => formatDerivedId([account, at, sku]);
  beforeAll(async () => {
    gw = await testGateway({ model: buildModel(converted.sdl, 'shop.graphql') });
    await gw.put(converted.demo.items as Item[]);
  });
  afterAll(() => gw?.stop());

  it("lists an account's receipts in date order, each id derived from its key, with one Query", async () => {
    expect(converted.sdl).toContain('type RecSku @item(pk: "ACC#{acc}", sk: "REC#{rec}#SKU#{SKU}")');
    const { result, requests } = await gw.counted('{ recSkusOfAcc(accId: "a1", first: 10) { edges { node { id rec SKU name acc { id } } } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data.recSkusOfAcc.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { id: id('a1', '2023-05-28T14:15:39.247Z', '999'), rec: '2023-05-28T14:15:39.247Z', SKU: '999', name: 'r1', acc: { id: 'a1' } },
      { id: id('a1', '2023-06-28T14:15:39.247Z', '555'), rec: '2023-06-28T14:15:39.247Z', SKU: '555', name: null, acc: { id: 'a1' } },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('finds a receipt by its derived id alone with one GetItem, and refuses text that is no such id before any request', async () => {
    const { result, requests } = await gw.counted(`{ recSku(id: "${id('a2', '2023-06-28T10:00:00.000Z', '999')}") { rec SKU acc { id } } }`);
    expect(result.data).toEqual({ recSku: { rec: '2023-06-28T10:00:00.000Z', SKU: '999', acc: { id: 'a2' } } });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
    const bad = await gw.counted('{ recSku(id: "nope") { SKU } }');
    expect(codes(bad.result)).toEqual(['BAD_USER_INPUT']);
    expect(bad.requests.byOperation).toEqual({});
  });
});

describe('the draft of an export whose PK holds two values', () => {
  let gw: TestGateway;
  const converted = convertWorkbench('shop.json', smallExport(TEAM_SAMPLES));
  beforeAll(async () => {
    gw = await testGateway({ model: buildModel(converted.sdl, 'teams.graphql') });
    await gw.put(converted.demo.items as Item[]);
  });
  afterAll(() => gw?.stop());

  it('lists one partition by both values with one Query, and finds an item by its derived id with one GetItem', async () => {
    const listed = await gw.counted('{ orgTeamsOfOrgTeam(org: "o1", team: "t1", first: 10) { edges { node { id member name } } } }');
    expect(listed.result.errors).toBeUndefined();
    expect(listed.result.data.orgTeamsOfOrgTeam.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { id: formatDerivedId(['o1', 't1', 'm1']), member: 'm1', name: 'Ada' },
      { id: formatDerivedId(['o1', 't1', 'm2']), member: 'm2', name: null },
    ]);
    expect(listed.requests.byOperation).toEqual({ Query: 1 });
    const got = await gw.counted(`{ orgTeam(id: "${formatDerivedId(['o1', 't2', 'm1'])}") { org team member } }`);
    expect(got.result.data).toEqual({ orgTeam: { org: 'o1', team: 't2', member: 'm1' } });
    expect(got.requests.byOperation).toEqual({ GetItem: 1 });
  });
});
