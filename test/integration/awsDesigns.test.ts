/**
 * AWS's published single-table designs (examples/aws/<Design>/), each
 * served from its hand-written model with its demo items put raw, as
 * another program would have written them: every access pattern the
 * example's README lists as served is run through GraphQL here, with its
 * answer and its exact DynamoDB requests; writes go through the declared
 * mutations and are checked where the design puts their items.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { ModelError } from '../../src/declaration/problems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

/** A gateway on the design's model, with its demo items put raw. */
async function design(folder: string, name: string): Promise<TestGateway> {
  const file = fileURLToPath(new URL(`../../examples/aws/${folder}/${name}.graphql`, import.meta.url));
  const gw = await testGateway({ model: buildModel(readFileSync(file, 'utf8'), file) });
  const demo = JSON.parse(readFileSync(file.replace(/\.graphql$/, '.demo.json'), 'utf8')) as { items: Record<string, unknown>[] };
  await gw.put(demo.items);
  return gw;
}

/** The problems start-up reports for a model, one line each. */
function problems(sdl: string): string[] {
  try {
    buildModel(sdl, 'design.graphql');
    return [];
  } catch (error) {
    return (error as ModelError).problems.map((p) => `${p.where}: ${p.message}`);
  }
}

type Connection<N> = { edges: { node: N }[] };
const nodes = <N>(c: Connection<N>): N[] => c.edges.map((e) => e.node);

describe('ChatSystem', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('ChatSystem', 'chat-system');
  });
  afterAll(() => gw?.stop());

  it('createChatRoom: one room item at Room:<room> / meta, refused when it exists', async () => {
    const { result, requests } = await gw.counted(`mutation { createChatRoom(input: { id: "Games", CreatedBy: "UserB" }) { id CreatedBy } }`);
    expect(result).toEqual({ data: { createChatRoom: { id: 'Games', CreatedBy: 'UserB' } } });
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('Room:Games', 'meta')).toMatchObject({ PK: 'Room:Games', SK: 'meta', CreatedBy: 'UserB' });
    const again = await gw.run(`mutation { createChatRoom(input: { id: "Games", CreatedBy: "UserC" }) { id } }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(await gw.get('Room:Games', 'meta')).toMatchObject({ CreatedBy: 'UserB' });
  });

  it('deleteChatRoom: only by the user who created it (CreatedBy = <user>), one conditional DeleteItem', async () => {
    const refused = await gw.counted(`mutation { deleteChatRoom(id: "Games", CreatedBy: "UserC") }`);
    expect(refused.result.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(refused.requests.byOperation).toEqual({ DeleteItem: 1 });
    expect(await gw.get('Room:Games', 'meta')).toEqual({ PK: 'Room:Games', SK: 'meta', CreatedBy: 'UserB' });
    const { result, requests } = await gw.counted(`mutation { deleteChatRoom(id: "Games", CreatedBy: "UserB") }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ DeleteItem: 1 });
    expect(await gw.get('Room:Games', 'meta')).toBeUndefined();
  });

  it('joinChatRoom and leaveChatRoom: one item at User:<user> / Join:<room>, beside the comments and never read as one', async () => {
    const joined = await gw.counted(`mutation { joinChatRoom(userId: "UserA", input: { id: "Art" }) { id user { id } } }`);
    expect(joined.result).toEqual({ data: { joinChatRoom: { id: 'Art', user: { id: 'UserA' } } } });
    expect(joined.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('User:UserA', 'Join:Art')).toEqual({ PK: 'User:UserA', SK: 'Join:Art' });
    const both = await gw.counted(
      `{ user(id: "UserA") { comments(first: 10) { edges { node { id } } pageInfo { hasNextPage } } joins(first: 10) { edges { node { id } } } } }`,
    );
    expect(nodes(both.result.data.user.comments)).toEqual([
      { id: '2023-04-01T12:00:00.001Z' },
      { id: '2023-04-01T13:00:00.001Z' },
      { id: '2023-04-01T14:00:00.001Z' },
    ]);
    expect(both.result.data.user.comments.pageInfo.hasNextPage).toBe(false);
    expect(nodes(both.result.data.user.joins)).toEqual([{ id: 'Art' }]);
    expect(both.requests.byOperation).toEqual({ Query: 2 });
    const posing = await gw.counted(
      `mutation { addComments(userId: "UserA", input: { id: "Join:Music", Comment: "x", CreatedAt: "2023-04-01T16:00:00.001Z", RoomID: "Music" }) { id } }`,
    );
    expect(posing.result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(posing.requests.requests).toBe(0);
    const left = await gw.counted(`mutation { leaveChatRoom(userId: "UserA", id: "Art") }`);
    expect(left.result.errors).toBeUndefined();
    expect(left.requests.byOperation).toEqual({ DeleteItem: 1 });
    expect(await gw.get('User:UserA', 'Join:Art')).toBeUndefined();
  });

  it('addComments: one item at User:<user> / <timestamp>, with RoomID and CreatedAt for the index', async () => {
    const at = '2023-04-01T15:00:00.001Z';
    const { result, requests } = await gw.counted(
      `mutation($i: AddCommentInput!) { addComments(userId: "UserB", input: $i) { id Comment RoomID { id } user { id } } }`,
      { i: { id: at, Comment: 'Jazz, please', CreatedAt: at, RoomID: 'Music' } },
    );
    expect(result).toEqual({ data: { addComments: { id: at, Comment: 'Jazz, please', RoomID: { id: 'Music' }, user: { id: 'UserB' } } } });
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('User:UserB', at)).toEqual({ PK: 'User:UserB', SK: at, Comment: 'Jazz, please', CreatedAt: at, RoomID: 'Music' });
  });

  it("getAllComments: a room's comments in the order of CreatedAt, one Query of the index", async () => {
    const { result, requests } = await gw.counted(
      `{ roomComments(RoomID: "Music", first: 10) { edges { node { id Comment CreatedAt user { id } } } pageInfo { hasNextPage } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(nodes(result.data.roomComments)).toEqual([
      { id: '2023-04-01T12:00:00.001Z', Comment: 'Hello!', CreatedAt: '2023-04-01T12:00:00.001Z', user: { id: 'UserA' } },
      { id: '2023-04-01T13:00:00.001Z', Comment: 'I like a Rock music.', CreatedAt: '2023-04-01T12:00:50.001Z', user: { id: 'UserA' } },
      { id: '2023-04-01T15:00:00.001Z', Comment: 'Jazz, please', CreatedAt: '2023-04-01T15:00:00.001Z', user: { id: 'UserB' } },
    ]);
    expect(result.data.roomComments.pageInfo.hasNextPage).toBe(false);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getLatestComments: the last comments of a room, read backward, one Query', async () => {
    const { result, requests } = await gw.counted(`{ roomComments(RoomID: "Music", last: 2) { edges { node { Comment } } pageInfo { hasPreviousPage } } }`);
    expect(nodes(result.data.roomComments)).toEqual([{ Comment: 'I like a Rock music.' }, { Comment: 'Jazz, please' }]);
    expect(result.data.roomComments.pageInfo.hasPreviousPage).toBe(true);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("a room with its latest comments: the room's GetItem and one Query", async () => {
    const { result, requests } = await gw.counted(`{ room(id: "Art") { CreatedBy comments(last: 10) { edges { node { Comment user { id } } } } } }`);
    expect(result.data.room).toEqual({
      CreatedBy: 'UserF',
      comments: { edges: [{ node: { Comment: 'I love aaa.', user: { id: 'UserC' } } }, { node: { Comment: 'Me too.', user: { id: 'UserA' } } }] },
    });
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("a user's comments, oldest first: one Query of their partition, no read of the user", async () => {
    const { result, requests } = await gw.counted(`{ user(id: "UserA") { comments(first: 10) { edges { node { id Comment RoomID { id } } } } } }`);
    expect(nodes(result.data.user.comments).map((c: any) => [c.id, c.RoomID.id])).toEqual([
      ['2023-04-01T12:00:00.001Z', 'Music'],
      ['2023-04-01T13:00:00.001Z', 'Music'],
      ['2023-04-01T14:00:00.001Z', 'Art'],
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('a comment by its user and time: one GetItem', async () => {
    const { result, requests } = await gw.counted(`{ comment(userId: "UserC", id: "2023-04-01T12:00:05.001Z") { Comment RoomID { id CreatedBy } } }`);
    expect(result.data.comment).toEqual({ Comment: 'I love aaa.', RoomID: { id: 'Art', CreatedBy: 'UserF' } });
    expect(requests.byOperation).toEqual({ GetItem: 2 });
  });

  it('getFromLatestToSpecifiedPositionComments: from a position to the latest, read backward, one Query', async () => {
    const { result, requests } = await gw.counted(
      `{ roomComments(RoomID: "Jazz", from: "2023-04-02T10:05:00.001Z", last: 10) { edges { node { Comment CreatedAt } } pageInfo { hasPreviousPage } } }`,
    );
    expect(result.errors).toBeUndefined();
    const comments = nodes(result.data.roomComments) as { Comment: string; CreatedAt: string }[];
    expect(comments.map((c) => c.CreatedAt)).toEqual([
      '2023-04-02T10:05:00.001Z',
      '2023-04-02T10:05:00.001Z',
      '2023-04-02T10:10:00.001Z',
      '2023-04-02T10:15:00.001Z',
    ]);
    expect(
      comments
        .map((c) => c.Comment)
        .slice(0, 2)
        .sort(),
    ).toEqual(['Me too!', 'Me!']);
    expect(result.data.roomComments.pageInfo.hasPreviousPage).toBe(false);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getFromPositionToPositionComments: from one position up to another, paged one at a time through two comments of one CreatedAt', async () => {
    const q = `query($after: String) { roomComments(RoomID: "Jazz", from: "2023-04-02T10:05:00.001Z", until: "2023-04-02T10:15:00.001Z", first: 2, after: $after) {
      edges { node { Comment } } pageInfo { hasNextPage endCursor } } }`;
    const first = await gw.counted(q);
    expect(first.result.data.roomComments.pageInfo.hasNextPage).toBe(true);
    expect(first.requests.byOperation).toEqual({ Query: 1 });
    const next = await gw.counted(q, { after: first.result.data.roomComments.pageInfo.endCursor });
    expect(next.result.data.roomComments.pageInfo.hasNextPage).toBe(false);
    expect(next.requests.byOperation).toEqual({ Query: 1 });
    const both = [...nodes(first.result.data.roomComments), ...nodes(next.result.data.roomComments)].map((c: any) => c.Comment);
    expect(both.slice(0, 2).sort()).toEqual(['Me too!', 'Me!']);
    expect(both.slice(2)).toEqual(['Blue Train.']);
    const empty = await gw.counted(`{ roomComments(RoomID: "Jazz", from: "2023-04-02T10:15", until: "2023-04-02T10:05", first: 2) { edges { cursor } } }`);
    expect(empty.result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(empty.requests.requests).toBe(0);
  });
});

describe('SessionManagement', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('SessionManagement', 'session-management');
  });
  afterAll(() => gw?.stop());

  it('createSession: one item at suuid#<session> / c#<customer>, found under c#<customer> in GSI1_inverse', async () => {
    const { result, requests } = await gw.counted(
      `mutation { createSession(sessionId: "n3w5e551", input: { id: "XYZ", last_login_time: "2023-06-01T08:00:00", access_token: "t0k3n", session_state: "active" }) { id session { id } } }`,
    );
    expect(result).toEqual({ data: { createSession: { id: 'XYZ', session: { id: 'n3w5e551' } } } });
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('suuid#n3w5e551', 'c#XYZ')).toEqual({
      PK: 'suuid#n3w5e551',
      SK: 'c#XYZ',
      last_login_time: '2023-06-01T08:00:00',
      access_token: 't0k3n',
      session_state: 'active',
    });
  });

  it('getSessionBySessionId: one GetItem of the session and its customer', async () => {
    const { result, requests } = await gw.counted(
      `{ sessionEntry(sessionId: "c342etj3", id: "ABC") { id session { id } last_login_time access_token session_state } }`,
    );
    expect(result.data.sessionEntry).toEqual({
      id: 'ABC',
      session: { id: 'c342etj3' },
      last_login_time: '2023-05-12T11:30:00',
      access_token: 'd234ltj2',
      session_state: 'active',
    });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('getChildSessionsBySessionId: one Query of the session partition, begins_with child#', async () => {
    const { result, requests } = await gw.counted(`{ session(id: "c342etj3") { children(first: 10) { edges { node { id access_token session_state } } } } }`);
    expect(nodes(result.data.session.children)).toEqual([
      { id: 'ert54fbgn', access_token: 'lko98uib', session_state: 'active' },
      { id: 'kljhfytf23', access_token: 'acg45jhi', session_state: 'closing' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getSessionByChildSessionId: one Query of GSI1_inverse under child#suuid#<child>', async () => {
    const { result, requests } = await gw.counted(`{ sessionOfChild(id: "ljy22tf0", first: 1) { edges { node { session { id } session_state } } } }`);
    expect(nodes(result.data.sessionOfChild)).toEqual([{ session: { id: 'l221et00' }, session_state: 'active' }]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getLastLoginTimeByCustomerId: one Query of GSI1_inverse under c#<customer>, one item', async () => {
    const { result, requests } = await gw.counted(`{ sessionsOfCustomer(id: "ABC", first: 1) { edges { node { last_login_time } } } }`);
    expect(nodes(result.data.sessionsOfCustomer)).toEqual([{ last_login_time: '2023-05-12T11:30:00' }]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getSessionIdByCustomerId and getSessionsByCustomerId: one Query of GSI1_inverse, sessions in order', async () => {
    const { result, requests } = await gw.counted(
      `{ sessionsOfCustomer(id: "ABC", first: 10) { edges { node { session { id } access_token session_state } } } }`,
    );
    expect(nodes(result.data.sessionsOfCustomer)).toEqual([
      { session: { id: 'c342etj3' }, access_token: 'd234ltj2', session_state: 'active' },
      { session: { id: 'd0004tj2' }, access_token: 'q010ltj2', session_state: 'closing' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const xyz = await gw.run(`{ sessionsOfCustomer(id: "XYZ", first: 10) { edges { node { session { id } } } } }`);
    expect(nodes(xyz.data.sessionsOfCustomer)).toEqual([{ session: { id: 'l221et00' } }, { session: { id: 'n3w5e551' } }]);
  });

  it('expireSession: the entry is deleted, and no longer found by its customer', async () => {
    const { result, requests } = await gw.counted(`mutation { expireSession(sessionId: "d0004tj2", id: "ABC") }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ DeleteItem: 1 });
    expect(await gw.get('suuid#d0004tj2', 'c#ABC')).toBeUndefined();
    const left = await gw.run(`{ sessionsOfCustomer(id: "ABC", first: 10) { edges { node { session { id } } } } }`);
    expect(nodes(left.data.sessionsOfCustomer)).toEqual([{ session: { id: 'c342etj3' } }]);
  });
});

describe('ConnectedVehicles', () => {
  const VIN = 'WDDJK7DA4FF954840';
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('ConnectedVehicles', 'connected-vehicles');
  });
  afterAll(() => gw?.stop());

  it('a vehicle: one GetItem', async () => {
    const { result, requests } = await gw.counted(`{ vehicle(id: "${VIN}") { vehicle_id torque drivetrain engine horsepower } }`);
    expect(result.data.vehicle).toEqual({ vehicle_id: VIN, torque: '308', drivetrain: '4WD', engine: 'gasoline', horsepower: '406' });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it("a vehicle with its features and their payload maps: the vehicle's GetItem and one Query, together (its subscriptions, F#…, sort between #META# and FEATURE#)", async () => {
    const { result, requests } = await gw.counted(`{ vehicle(id: "${VIN}") { engine features(first: 10) { edges { node { id
      autonomous_driving { is_enabled version } cameras { recording_is_active cameras { front_camera_center { foo } } } mirrors { position { is_active left { x y z } } } } } } } }`);
    expect(result.data.vehicle).toEqual({
      engine: 'gasoline',
      features: {
        edges: [
          { node: { id: 'AUTODRIVE', autonomous_driving: { is_enabled: true, version: 'v0.000.1 beta' }, cameras: null, mirrors: null } },
          {
            node: {
              id: 'CAMERAS',
              autonomous_driving: null,
              cameras: { recording_is_active: true, cameras: { front_camera_center: { foo: 'bar' } } },
              mirrors: null,
            },
          },
          { node: { id: 'MIRRORS', autonomous_driving: null, cameras: null, mirrors: { position: { is_active: false, left: { x: 59, y: 61, z: 76 } } } } },
        ],
      },
    });
    // One Query for both would read every subscription in between: the two requests go in one wave instead.
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    expect(requests.waves).toBe(1);
  });

  it("a user with their preferences and vehicles: the user's GetItem beside the preferences' Query, then the vehicles' (its subscriptions, F#…, sort between #META# and PREFERENCES#)", async () => {
    const { result, requests } = await gw.counted(
      `{ user(id: "cbrawley0") { user_name user_phone preferences(first: 10) { edges { node { id user_name } } } vehicles(first: 10) { edges { node { id } } } } }`,
    );
    expect(result.data.user).toEqual({
      user_name: 'cbrawley0',
      user_phone: '+17778889999',
      preferences: { edges: [{ node: { id: 'CAMERAS', user_name: 'cbrawley0' } }, { node: { id: 'SEATS', user_name: 'cbrawley0' } }] },
      vehicles: { edges: [{ node: { id: VIN } }] },
    });
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 2 });
    // The user and its preferences together, then its vehicles.
    expect(requests.waves).toBe(2);
  });

  it("a vehicle's users: one Query beside the vehicle's GetItem", async () => {
    const { result, requests } = await gw.counted(`{ vehicle(id: "${VIN}") { users(first: 10) { edges { node { id } } } } }`);
    expect(nodes(result.data.vehicle.users)).toEqual([{ id: 'cbrawley0' }]);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it('creates a vehicle and a user, each one PutItem at <entity> / #META#', async () => {
    const vehicle = await gw.counted(
      `mutation { createVehicle(input: { id: "1HGCM82633A004352", vehicle_id: "1HGCM82633A004352", engine: "electric" }) { id } }`,
    );
    expect(vehicle.result.errors).toBeUndefined();
    expect(vehicle.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('VIN#1HGCM82633A004352', '#META#')).toEqual({
      PK: 'VIN#1HGCM82633A004352',
      SK: '#META#',
      vehicle_id: '1HGCM82633A004352',
      engine: 'electric',
    });
    const user = await gw.counted(`mutation { createUser(input: { id: "jdoe1", user_name: "jdoe1", user_phone: "+15550100" }) { id } }`);
    expect(user.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('ID#jdoe1', '#META#')).toEqual({ PK: 'ID#jdoe1', SK: '#META#', user_name: 'jdoe1', user_phone: '+15550100' });
  });

  it('adds and removes a feature of a vehicle and a preference of a user', async () => {
    const feature = await gw.counted(`mutation { addFeature(vehicleId: "1HGCM82633A004352", input: { id: "MIRRORS" }) { id vehicle { id } } }`);
    expect(feature.result.data.addFeature).toEqual({ id: 'MIRRORS', vehicle: { id: '1HGCM82633A004352' } });
    expect(feature.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'FEATURE#MIRRORS')).toEqual({ PK: 'VIN#1HGCM82633A004352', SK: 'FEATURE#MIRRORS' });
    const preference = await gw.counted(
      `mutation { addPreference(userId: "jdoe1", input: { id: "SEATS", user_name: "jdoe1", seats: { driver_seat: { temperature: 70 }, heating_is_active: true } }) { id seats { driver_seat { temperature } } } }`,
    );
    expect(preference.result.data.addPreference).toEqual({ id: 'SEATS', seats: { driver_seat: { temperature: 70 } } });
    expect(preference.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('ID#jdoe1', 'PREFERENCES#SEATS')).toEqual({
      PK: 'ID#jdoe1',
      SK: 'PREFERENCES#SEATS',
      user_name: 'jdoe1',
      seats: { driver_seat: { temperature: 70 }, heating_is_active: true },
    });
    const removed = await gw.counted(
      `mutation { removeFeature(vehicleId: "1HGCM82633A004352", id: "MIRRORS") removePreference(userId: "jdoe1", id: "SEATS") }`,
    );
    expect(removed.result.errors).toBeUndefined();
    // A child whose parent keeps no counter is deleted alone: one DeleteItem each.
    expect(removed.requests.byOperation).toEqual({ DeleteItem: 2 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'FEATURE#MIRRORS')).toBeUndefined();
    expect(await gw.get('ID#jdoe1', 'PREFERENCES#SEATS')).toBeUndefined();
  });

  it('links a user to a vehicle with its two items, and unlinks them', async () => {
    const linked = await gw.counted(`mutation {
      linkUserToVehicle(vehicleId: "1HGCM82633A004352", input: { id: "jdoe1" }) { id }
      linkVehicleToUser(userId: "jdoe1", input: { id: "1HGCM82633A004352" }) { id }
    }`);
    expect(linked.result.errors).toBeUndefined();
    expect(linked.requests.byOperation).toEqual({ TransactWriteItems: 2 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'ID#jdoe1')).toEqual({ PK: 'VIN#1HGCM82633A004352', SK: 'ID#jdoe1' });
    expect(await gw.get('ID#jdoe1', 'VIN#1HGCM82633A004352')).toEqual({ PK: 'ID#jdoe1', SK: 'VIN#1HGCM82633A004352' });
    const both = await gw.run(
      `{ vehicle(id: "1HGCM82633A004352") { users(first: 5) { edges { node { id } } } } user(id: "jdoe1") { vehicles(first: 5) { edges { node { id } } } } }`,
    );
    expect(nodes(both.data.vehicle.users)).toEqual([{ id: 'jdoe1' }]);
    expect(nodes(both.data.user.vehicles)).toEqual([{ id: '1HGCM82633A004352' }]);
    const unlinked = await gw.counted(
      `mutation { unlinkUserFromVehicle(vehicleId: "1HGCM82633A004352", id: "jdoe1") unlinkVehicleFromUser(userId: "jdoe1", id: "1HGCM82633A004352") }`,
    );
    expect(unlinked.result.errors).toBeUndefined();
    expect(unlinked.requests.byOperation).toEqual({ DeleteItem: 2 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'ID#jdoe1')).toBeUndefined();
    expect(await gw.get('ID#jdoe1', 'VIN#1HGCM82633A004352')).toBeUndefined();
  });

  it("a vehicle's subscriptions: one Query of VIN#<vin>, begins_with F#, user, state and feature read from the key", async () => {
    const { result, requests } = await gw.counted(
      `{ vehicle(id: "${VIN}") { subscriptions(first: 10) { edges { node { id user_id { id } state feature vehicle_id } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(nodes(result.data.vehicle.subscriptions)).toEqual([
      { id: '<sub_feature>\t', user_id: { id: 'cbrawley0' }, state: 'ACTIVE', feature: 'CAMERAS', vehicle_id: VIN },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("a user's subscriptions, active ones first: one Query of ID#<user>, begins_with F#", async () => {
    const { result, requests } = await gw.counted(
      `{ user(id: "cbrawley0") { subscriptions(first: 10) { edges { node { id state feature expiration_date expiration_ttl } } } } }`,
    );
    expect(nodes(result.data.user.subscriptions)).toEqual([
      { id: '<sub_feature>', state: 'ACTIVE', feature: 'CAMERAS', expiration_date: '2099-12-12T23:59:59', expiration_ttl: '4102462799' },
      { id: '<sub_feature>', state: 'EXPIRED', feature: 'SEATS', expiration_date: '2023-05-05 23:59:59', expiration_ttl: '1683345599' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('subscribes a user to a feature of a vehicle: its two items, each where the design puts it', async () => {
    const { result, requests } = await gw.counted(`mutation {
      addVehicleSubscription(vehicleId: "1HGCM82633A004352", input: { id: "fold", user_id: "jdoe1", state: ACTIVE, feature: "MIRRORS", vehicle_id: "1HGCM82633A004352" }) { id state }
      addUserSubscription(userId: "jdoe1", input: { id: "fold", state: ACTIVE, feature: "MIRRORS", user_name: "jdoe1", expiration_date: "2030-01-01T00:00:00", expiration_ttl: "1893456000" }) { id state }
    }`);
    expect(result).toEqual({ data: { addVehicleSubscription: { id: 'fold', state: 'ACTIVE' }, addUserSubscription: { id: 'fold', state: 'ACTIVE' } } });
    expect(requests.byOperation).toEqual({ TransactWriteItems: 2 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'F#jdoe1#ACTIVE#MIRRORS#fold')).toEqual({
      PK: 'VIN#1HGCM82633A004352',
      SK: 'F#jdoe1#ACTIVE#MIRRORS#fold',
      user_id: 'jdoe1',
      state: 'ACTIVE',
      feature: 'MIRRORS',
      vehicle_id: '1HGCM82633A004352',
    });
    expect(await gw.get('ID#jdoe1', 'F#ACTIVE#MIRRORS#fold')).toEqual({
      PK: 'ID#jdoe1',
      SK: 'F#ACTIVE#MIRRORS#fold',
      state: 'ACTIVE',
      feature: 'MIRRORS',
      user_name: 'jdoe1',
      expiration_date: '2030-01-01T00:00:00',
      expiration_ttl: '1893456000',
    });
  });

  it('renews a subscription: one UpdateItem of the item its state and feature name', async () => {
    const { result, requests } = await gw.counted(
      `mutation { renewUserSubscription(userId: "jdoe1", state: ACTIVE, feature: "MIRRORS", id: "fold", input: { expiration_date: "2031-01-01T00:00:00", expiration_ttl: "1924992000" }) { expiration_date } }`,
    );
    expect(result).toEqual({ data: { renewUserSubscription: { expiration_date: '2031-01-01T00:00:00' } } });
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    const one = await gw.counted(`{ userSubscription(userId: "jdoe1", state: ACTIVE, feature: "MIRRORS", id: "fold") { expiration_ttl } }`);
    expect(one.result.data.userSubscription).toEqual({ expiration_ttl: '1924992000' });
    expect(one.requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('expires a subscription: the ACTIVE items removed and the EXPIRED one added, in one operation', async () => {
    const { result, requests } = await gw.counted(`mutation {
      removeVehicleSubscription(vehicleId: "1HGCM82633A004352", user_id: "jdoe1", state: ACTIVE, feature: "MIRRORS", id: "fold")
      removeUserSubscription(userId: "jdoe1", state: ACTIVE, feature: "MIRRORS", id: "fold")
      addUserSubscription(userId: "jdoe1", input: { id: "fold", state: EXPIRED, feature: "MIRRORS", user_name: "jdoe1", expiration_date: "2031-01-01T00:00:00", expiration_ttl: "1924992000" }) { state }
    }`);
    expect(result.errors).toBeUndefined();
    // Two deletes of children with no counter (one DeleteItem each), a create under its parent (checked in its transaction).
    expect(requests.byOperation).toEqual({ DeleteItem: 2, TransactWriteItems: 1 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'F#jdoe1#ACTIVE#MIRRORS#fold')).toBeUndefined();
    expect(await gw.get('ID#jdoe1', 'F#ACTIVE#MIRRORS#fold')).toBeUndefined();
    const left = await gw.run(
      `{ user(id: "jdoe1") { subscriptions(first: 10) { edges { node { id state feature } } } } vehicle(id: "1HGCM82633A004352") { subscriptions(first: 10) { edges { node { id } } } } }`,
    );
    expect(nodes(left.data.user.subscriptions)).toEqual([{ id: 'fold', state: 'EXPIRED', feature: 'MIRRORS' }]);
    expect(nodes(left.data.vehicle.subscriptions)).toEqual([]);
  });
});

describe('GamingPlayerProfiles', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('GamingPlayerProfiles', 'gaming-player-profiles');
  });
  afterAll(() => gw?.stop());

  it("a player's profile: one GetItem at <player> / #METADATA#<player>", async () => {
    const { result, requests } = await gw.counted(`{ player(id: "player001") { Nickname Email Currency PlayerLevel } }`);
    expect(result.data.player).toEqual({ Nickname: 'John', Email: 'john@example.com', Currency: '500', PlayerLevel: '10' });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it("a player's friends item with its FriendList, a list of maps inside it: one GetItem", async () => {
    const { result, requests } = await gw.counted(`{ friends(id: "player001") { id Type FriendList { FriendId FriendName } } }`);
    expect(result.data.friends).toEqual({
      id: 'player001',
      Type: 'Friends',
      FriendList: [
        { FriendId: 'player002', FriendName: 'Alice' },
        { FriendId: 'player003', FriendName: 'Bob' },
      ],
    });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('replaces the friend list whole: one UpdateItem, a list of maps in the item; more than its declared 100 is refused before any request', async () => {
    const { result, requests } = await gw.counted(
      `mutation { updateFriends(id: "player001", input: { FriendList: [{ FriendId: "player004", FriendName: "Cleo" }] }) { FriendList { FriendId } } }`,
    );
    expect(result.data.updateFriends).toEqual({ FriendList: [{ FriendId: 'player004' }] });
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('player001', 'FRIENDS#player001')).toEqual({
      PK: 'player001',
      SK: 'FRIENDS#player001',
      Type: 'Friends',
      FriendList: [{ FriendId: 'player004', FriendName: 'Cleo' }],
    });
    const many = Array.from({ length: 101 }, (_, i) => ({ FriendId: `p${i}` }));
    const refused = await gw.counted(`mutation($l: [FriendInput!]) { updateFriends(id: "player001", input: { FriendList: $l }) { id } }`, { l: many });
    expect(refused.result.errors?.[0]).toMatchObject({
      message: 'input.FriendList holds at most 100 elements; got 101',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(refused.requests.requests).toBe(0);
  });

  it("a player's profile with their items: one Query beside the profile's GetItem (activities and equipment sort between #METADATA# and ITEMS#)", async () => {
    const { result, requests } = await gw.counted(
      `{ player(id: "player001") { Nickname items(first: 10) { edges { node { id ItemName ItemType ItemCount ItemAttributes { HP ATK DEF } } } } } }`,
    );
    expect(result.data.player.Nickname).toBe('John');
    expect(nodes(result.data.player.items)).toEqual([
      { id: '001', ItemName: 'Health Potion', ItemType: 'Consumable', ItemCount: '5', ItemAttributes: { HP: 50, ATK: null, DEF: null } },
      { id: '002', ItemName: 'Armor of the Knight', ItemType: 'Armor', ItemCount: '1', ItemAttributes: { HP: null, ATK: null, DEF: 100 } },
      { id: '003', ItemName: 'Sword of the Dragon', ItemType: 'Weapon', ItemCount: '1', ItemAttributes: { HP: null, ATK: 100, DEF: 50 } },
    ]);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("a player's equipment, tasks and activities: one Query each, the profile read with the activities (nothing sorts between #METADATA# and ACTIVITY#); the malformed equipment key is read past", async () => {
    const { result, requests } = await gw.counted(`{ player(id: "player001") {
      equipments(first: 10) { edges { node { id EquipmentName } } }
      tasks(first: 10) { edges { node { id TaskStatus TaskReward { Gold XP } } } }
      activities(first: 10) { edges { node { id ActivityName ActivityStartTime } } }
    } }`);
    expect(result.errors).toBeUndefined();
    expect(nodes(result.data.player.equipments)).toEqual([
      { id: '001', EquipmentName: 'Sword of the Dragon' },
      { id: '003', EquipmentName: 'Ring of the Mage' },
    ]);
    expect(nodes(result.data.player.tasks)).toEqual([
      { id: '001', TaskStatus: 'InProgress', TaskReward: { Gold: 100, XP: 50 } },
      { id: '002', TaskStatus: 'Completed', TaskReward: { Gold: 200, XP: 100 } },
      { id: '003', TaskStatus: 'Available', TaskReward: { Gold: 500, XP: 200 } },
    ]);
    expect(nodes(result.data.player.activities).map((a: any) => a.ActivityName)).toEqual(['Hunting Trip', 'Mining Adventure', 'Arena Challenge']);
    expect(requests.byOperation).toEqual({ Query: 3 });
  });

  it('creates a player where the design puts one, and updates the profile', async () => {
    const created = await gw.counted(
      `mutation { createPlayer(input: { id: "player009", Type: "Metadata", Nickname: "Zoe", Email: "zoe@example.com", Currency: "0" }) { id } }`,
    );
    expect(created.result.errors).toBeUndefined();
    expect(created.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('player009', '#METADATA#player009')).toEqual({
      PK: 'player009',
      SK: '#METADATA#player009',
      Type: 'Metadata',
      Nickname: 'Zoe',
      Email: 'zoe@example.com',
      Currency: '0',
    });
    const updated = await gw.counted(`mutation { updatePlayer(id: "player009", input: { Currency: "150", PlayerLevel: "2" }) { Currency PlayerLevel } }`);
    expect(updated.result.data.updatePlayer).toEqual({ Currency: '150', PlayerLevel: '2' });
    expect(updated.requests.byOperation).toEqual({ UpdateItem: 1 });
    const bad = await gw.run(`mutation { createPlayer(input: { id: "player010", Nickname: "X", Email: "not an email" }) { id } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("adds, updates and removes an item of a player's inventory, and updates a task", async () => {
    const added = await gw.counted(
      `mutation { addItem(playerId: "player009", input: { id: "001", Type: "Item", ItemName: "Health Potion", ItemType: "Consumable", ItemCount: "3", ItemAttributes: { HP: 50 } }) { id } }`,
    );
    expect(added.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('player009', 'ITEMS#001')).toEqual({
      PK: 'player009',
      SK: 'ITEMS#001',
      Type: 'Item',
      ItemName: 'Health Potion',
      ItemType: 'Consumable',
      ItemCount: '3',
      ItemAttributes: { HP: 50 },
    });
    const used = await gw.counted(`mutation { updateItem(playerId: "player009", id: "001", input: { ItemCount: "2" }) { ItemCount } }`);
    expect(used.result.data.updateItem).toEqual({ ItemCount: '2' });
    expect(used.requests.byOperation).toEqual({ UpdateItem: 1 });
    const removed = await gw.counted(`mutation { removeItem(playerId: "player009", id: "001") }`);
    expect(removed.result.errors).toBeUndefined();
    expect(removed.requests.byOperation).toEqual({ DeleteItem: 1 });
    expect(await gw.get('player009', 'ITEMS#001')).toBeUndefined();
    const task = await gw.counted(`mutation { updateTask(playerId: "player001", id: "003", input: { TaskStatus: "InProgress" }) { TaskName TaskStatus } }`);
    expect(task.result.data.updateTask).toEqual({ TaskName: 'Rescue the Princess', TaskStatus: 'InProgress' });
    expect(task.requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('player001', 'TASK#003')).toMatchObject({ TaskStatus: 'InProgress', TaskReward: { Gold: 500, XP: 200 } });
  });
});

describe('ComplainManagement', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('ComplainManagement', 'complain-management');
  });
  afterAll(() => gw?.stop());

  it('get complaint metadata: one GetItem at <complaint> / metadata', async () => {
    const { result, requests } = await gw.counted(
      `{ complaint(id: "Complaint1444") { customer_id { id } current_state severity escalated_to { id } escalation_time } }`,
    );
    expect(result.data.complaint).toEqual({
      customer_id: { id: 'custXY32' },
      current_state: 'assigned',
      severity: 'P1',
      escalated_to: { id: 'AgentB' },
      escalation_time: '2023-01-03T04:00:07',
    });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('get all complaints for a customer: one Query of Customer_Complaint_GSI, by complaint id', async () => {
    const { result, requests } = await gw.counted(
      `{ complaintsOfCustomer(customer_id: "custXYZ", first: 10) { edges { node { id severity current_state } } } }`,
    );
    expect(nodes(result.data.complaintsOfCustomer)).toEqual([
      { id: 'Complaint0987', severity: 'P3', current_state: 'assigned' },
      { id: 'Complaint1321', severity: 'P2', current_state: 'investigating' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('find complaints escalated to an agent: one Query of Escalations_GSI, by escalation time', async () => {
    const { result, requests } = await gw.counted(
      `{ escalatedTo(escalated_to: "AgentB", first: 10) { edges { node { id escalation_time customer_id { id } } } } }`,
    );
    expect(nodes(result.data.escalatedTo)).toEqual([
      { id: 'Complaint1444', escalation_time: '2023-01-03T04:00:07', customer_id: { id: 'custXY32' } },
      { id: 'Complaint1321', escalation_time: '2023-05-15T14:00:00', customer_id: { id: 'custXYZ' } },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('files a complaint where the design puts it, found by its customer', async () => {
    const { result, requests } = await gw.counted(`mutation { fileComplaint(input: {
      id: "Complaint2000", customer_id: "custXYZ", complaint_id: "Complaint2000", current_state: "waiting", creation_time: "2023-07-01T10:00:00", severity: "P1", complaint_description: "no signal"
    }) { id } }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('Complaint2000', 'metadata')).toEqual({
      PK: 'Complaint2000',
      SK: 'metadata',
      customer_id: 'custXYZ',
      complaint_id: 'Complaint2000',
      current_state: 'waiting',
      creation_time: '2023-07-01T10:00:00',
      severity: 'P1',
      complaint_description: 'no signal',
    });
    const listed = await gw.run(`{ complaintsOfCustomer(customer_id: "custXYZ", last: 1) { edges { node { id } } } }`);
    expect(nodes(listed.data.complaintsOfCustomer)).toEqual([{ id: 'Complaint2000' }]);
  });

  it("escalates a complaint: one UpdateItem, and it joins the agent's escalations", async () => {
    const { result, requests } = await gw.counted(
      `mutation { updateComplaint(id: "Complaint2000", input: { current_state: "assigned", escalated_to: "AgentB", escalation_time: "2023-07-02T08:00:00" }) { current_state escalated_to { id } } }`,
    );
    expect(result.data.updateComplaint).toEqual({ current_state: 'assigned', escalated_to: { id: 'AgentB' } });
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('Complaint2000', 'metadata')).toMatchObject({ escalated_to: 'AgentB', escalation_time: '2023-07-02T08:00:00' });
    const escalated = await gw.run(`{ escalatedTo(escalated_to: "AgentB", last: 1) { edges { node { id } } } }`);
    expect(nodes(escalated.data.escalatedTo)).toEqual([{ id: 'Complaint2000' }]);
  });

  it('get all communications for a complaint: one Query of its partition, begins_with comm#, by date', async () => {
    const { result, requests } = await gw.counted(
      `{ complaint(id: "Complaint123") { communications(first: 10) { edges { node { id comm_id comm_date complaint_state agentID { id } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(nodes(result.data.complaint.communications)).toEqual([
      { id: 'comm1', comm_id: 'comm1', comm_date: '2023-04-30T12:00:24', complaint_state: 'investigating', agentID: { id: 'AgentA' } },
      { id: 'comm2', comm_id: 'comm2', comm_date: '2023-04-30T12:35:54', complaint_state: 'resolved', agentID: { id: 'AgentA' } },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('a complaint with its communications: one Query (metadata sorts after comm#)', async () => {
    const { result, requests } = await gw.counted(
      `{ complaint(id: "Complaint1444") { severity current_state communications(first: 10) { edges { node { id } } } } }`,
    );
    expect(result.data.complaint).toEqual({
      severity: 'P1',
      current_state: 'assigned',
      communications: { edges: [{ node: { id: 'comm4' } }, { node: { id: 'comm5' } }] },
    });
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("view agent's communication history: one Query of Agents_Comments_GSI, by comm_date", async () => {
    const { result, requests } = await gw.counted(`{ agentCommunications(agentID: "AgentA", first: 10) { edges { node { id comm_date complaint { id } } } } }`);
    expect(nodes(result.data.agentCommunications)).toEqual([
      { id: 'comm1', comm_date: '2023-04-30T12:00:24', complaint: { id: 'Complaint123' } },
      { id: 'comm2', comm_date: '2023-04-30T12:35:54', complaint: { id: 'Complaint123' } },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const agent = await gw.counted(`{ agent(id: "AgentC") { communications(last: 5) { edges { node { id complaint_state } } } } }`);
    expect(nodes(agent.result.data.agent.communications)).toEqual([{ id: 'comm5', complaint_state: 'assigned' }]);
    expect(agent.requests.byOperation).toEqual({ Query: 1 });
  });

  it('find complaints by severity and state: one Query of Severity_State_GSI with both equalities (instead of a Scan)', async () => {
    const { result, requests } = await gw.counted(
      `{ complaintsBySeverity(severity: "P2", current_state: "investigating", first: 10) { edges { node { id customer_id { id } } } } }`,
    );
    expect(nodes(result.data.complaintsBySeverity)).toEqual([{ id: 'Complaint1321', customer_id: { id: 'custXYZ' } }]);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const assigned = await gw.run(`{ complaintsBySeverity(severity: "P1", current_state: "assigned", first: 10) { edges { node { id } } } }`);
    expect(nodes(assigned.data.complaintsBySeverity)).toEqual([{ id: 'Complaint1444' }, { id: 'Complaint2000' }]);
  });

  it('track complaint state changes: the states its communications record, in order, one Query', async () => {
    const { result, requests } = await gw.counted(
      `{ complaint(id: "Complaint1444") { communications(first: 10) { edges { node { comm_date complaint_state } } } } }`,
    );
    expect(nodes(result.data.complaint.communications)).toEqual([
      { comm_date: '2022-12-31T19:32:00', complaint_state: 'waiting' },
      { comm_date: '2022-12-31T19:40:00', complaint_state: 'assigned' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('adds a communication at <complaint> / comm#<comm_date>#<comm_id>, found by its agent and by its key', async () => {
    const { result, requests } = await gw.counted(`mutation { addCommunication(complaint: "Complaint2000", input: {
      id: "comm9", comm_id: "comm9", comm_date: "2023-07-02T08:05:00", complaint_state: "assigned", comm_text: "on it", agentID: "AgentB"
    }) { id comm_date complaint { id } } }`);
    expect(result).toEqual({ data: { addCommunication: { id: 'comm9', comm_date: '2023-07-02T08:05:00', complaint: { id: 'Complaint2000' } } } });
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('Complaint2000', 'comm#2023-07-02T08:05:00#comm9')).toEqual({
      PK: 'Complaint2000',
      SK: 'comm#2023-07-02T08:05:00#comm9',
      comm_id: 'comm9',
      comm_date: '2023-07-02T08:05:00',
      complaint_state: 'assigned',
      comm_text: 'on it',
      agentID: 'AgentB',
    });
    const history = await gw.run(`{ agentCommunications(agentID: "AgentB", last: 1) { edges { node { id } } } }`);
    expect(nodes(history.data.agentCommunications)).toEqual([{ id: 'comm9' }]);
    const one = await gw.counted(`{ communication(complaint: "Complaint2000", comm_date: "2023-07-02T08:05:00", id: "comm9") { comm_text } }`);
    expect(one.result.data.communication).toEqual({ comm_text: 'on it' });
    expect(one.requests.byOperation).toEqual({ GetItem: 1 });
  });
});

describe('SocialNetwork', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('SocialNetwork', 'social-network');
  });
  afterAll(() => gw?.stop());

  it('getUserInfoByUserID: one GetItem of u#<user> / "info"', async () => {
    const { result, requests } = await gw.counted(`{ user(id: "12345") { name content imageUrl } }`);
    expect(result.data.user).toEqual({ name: 'hyuklee', content: 'My name is Hyuk Lee', imageUrl: 's3://....' });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('getUserInfoByUserID with the counts, stored under follower#, following# and post#: the info and count items in one BatchGetItem', async () => {
    const { result, requests } = await gw.counted(`{ user(id: "12345") { name } userCounts(id: "12345") { followerCount followingCount postCount } }`);
    expect(result.data).toEqual({ user: { name: 'hyuklee' }, userCounts: { followerCount: 3_000_000_000, followingCount: 971, postCount: 4945 } });
    expect(requests.byOperation).toEqual({ BatchGetItem: 1 });
    const alone = await gw.counted(`{ userCounts(id: "12345") { followerCount } }`);
    expect(alone.requests.byOperation).toEqual({ GetItem: 1 });
  });

  it("getFollowerListByUserID and getFollowingListByUserID: one Query of each partition, no read of the user's info", async () => {
    const { result, requests } = await gw.counted(
      `{ userLists(id: "12345") { followers(first: 10) { edges { node { id } } } following(first: 10) { edges { node { id } } } } }`,
    );
    expect(nodes(result.data.userLists.followers)).toEqual([{ id: '23456' }, { id: '34567' }, { id: '45678' }]);
    expect(nodes(result.data.userLists.following)).toEqual([{ id: '56789' }, { id: '67890' }, { id: '78912' }]);
    expect(requests.byOperation).toEqual({ Query: 2 });
  });

  it('getPostListByUserID: one Query of u#<user>#post, newest first (@children(order: DESCENDING)), and last: from the oldest', async () => {
    const { result, requests } = await gw.counted(`{ userLists(id: "12345") { posts(first: 10) { edges { node { id content timestamp } } } } }`);
    expect(nodes(result.data.userLists.posts)).toEqual([
      { id: '23456', content: 'content for a post', timestamp: '1571827561' },
      { id: '12345', content: 'content for a post', timestamp: '1571827560' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const first = await gw.counted(`{ userLists(id: "12345") { posts(first: 1) { edges { node { id } } pageInfo { hasNextPage } } } }`);
    expect(first.result.data.userLists.posts).toEqual({ edges: [{ node: { id: '23456' } }], pageInfo: { hasNextPage: true } });
    const last = await gw.counted(`{ userLists(id: "12345") { posts(last: 1) { edges { node { id } } pageInfo { hasPreviousPage } } } }`);
    expect(last.result.data.userLists.posts).toEqual({ edges: [{ node: { id: '12345' } }], pageInfo: { hasPreviousPage: true } });
    expect([first.requests.byOperation, last.requests.byOperation]).toEqual([{ Query: 1 }, { Query: 1 }]);
  });

  it('getUserLikesByPostID: one Query of p#<post>#likelist', async () => {
    const { result, requests } = await gw.counted(`{ post(id: "12345") { likes(first: 10) { edges { node { id } } } } }`);
    expect(nodes(result.data.post.likes)).toEqual([{ id: '23456' }, { id: '34567' }, { id: '45678' }]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getTimelineByUserID: one Query of u#<user>#timeline, the post and author ids read from p#<post>#u#<author>', async () => {
    const { result, requests } = await gw.counted(
      `{ userLists(id: "12345") { timeline(first: 2) { edges { node { id author ttl } } pageInfo { hasNextPage } } } }`,
    );
    expect(nodes(result.data.userLists.timeline)).toEqual([
      { id: '34567', author: '56789', ttl: 1571827560 },
      { id: '45678', author: '67890', ttl: 1571827560 },
    ]);
    expect(result.data.userLists.timeline.pageInfo.hasNextPage).toBe(true);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getLikeCountByPostID: one GetItem of p#<post>#likecount / "count"', async () => {
    const { result, requests } = await gw.counted(`{ likeCount(id: "12345") { etc } }`);
    expect(result.data.likeCount).toEqual({ etc: '100' });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('creates a user and a post where the design puts them', async () => {
    const user = await gw.counted(`mutation { createUser(input: { id: "99999", name: "newbie" }) { id } }`);
    expect(user.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('u#99999', '"info"')).toEqual({ PK: 'u#99999', SK: '"info"', name: 'newbie' });
    const post = await gw.counted(`mutation { createPost(userId: "99999", input: { id: "77777", content: "first!", timestamp: "1571900000" }) { id } }`);
    expect(post.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('u#99999#post', 'p#77777')).toEqual({ PK: 'u#99999#post', SK: 'p#77777', content: 'first!', timestamp: '1571900000' });
  });

  it('follow: the follower item under the followed user and the following item under the follower, in one transaction', async () => {
    const followed = await gw.counted(
      `mutation { follow(userId: "12345", followerId: "99999") { node { id followers(first: 1) { edges { node { id } } } } } }`,
    );
    expect(followed.result).toEqual({ data: { follow: { node: { id: '99999', followers: { edges: [] } } } } });
    // The pair is one TransactWriteItems (keyless users: nothing to read or count); the nested list one Query.
    expect(followed.requests.byOperation).toEqual({ TransactWriteItems: 1, Query: 1 });
    expect(await gw.get('u#12345#follower', 'u#99999')).toEqual({ PK: 'u#12345#follower', SK: 'u#99999' });
    expect(await gw.get('u#99999#following', 'u#12345')).toEqual({ PK: 'u#99999#following', SK: 'u#12345' });
    const both = await gw.counted(
      `{ a: userLists(id: "12345") { followers(last: 1) { edges { node { id } } } } b: userLists(id: "99999") { following(first: 5) { edges { node { id } } } } }`,
    );
    expect(nodes(both.result.data.a.followers)).toEqual([{ id: '99999' }]);
    expect(nodes(both.result.data.b.following)).toEqual([{ id: '12345' }]);
    expect(both.requests.byOperation).toEqual({ Query: 2 });
    const again = await gw.counted(`mutation { follow(userId: "12345", followerId: "99999") { cursor } }`);
    expect(again.result.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(again.result.errors?.[0]?.message).toBe('UserLists 12345 is already followed by userlists 99999');
  });

  it('unfollow: both items deleted in one transaction; a second unfollow is NOT_FOUND and writes nothing', async () => {
    const unfollowed = await gw.counted(`mutation { unfollow(userId: "12345", followerId: "99999") }`);
    expect(unfollowed.result).toEqual({ data: { unfollow: true } });
    expect(unfollowed.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('u#12345#follower', 'u#99999')).toBeUndefined();
    expect(await gw.get('u#99999#following', 'u#12345')).toBeUndefined();
    const again = await gw.counted(`mutation { unfollow(userId: "12345", followerId: "99999") }`);
    expect(again.result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(again.requests.byOperation).toEqual({ TransactWriteItems: 1 });
  });

  it('likes and unlikes a post: one item in p#<post>#likelist, written alone (the post has no item)', async () => {
    const liked = await gw.counted(`mutation { like(postId: "12345", input: { id: "99999" }) { id post { id } } }`);
    expect(liked.result.data.like).toEqual({ id: '99999', post: { id: '12345' } });
    expect(liked.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('p#12345#likelist', 'u#99999')).toEqual({ PK: 'p#12345#likelist', SK: 'u#99999' });
    const unliked = await gw.counted(`mutation { unlike(postId: "12345", id: "99999") }`);
    expect(unliked.result.errors).toBeUndefined();
    expect(unliked.requests.byOperation).toEqual({ DeleteItem: 1 });
    expect(await gw.get('p#12345#likelist', 'u#99999')).toBeUndefined();
  });
});

describe('RecurringPayments', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('RecurringPayments', 'recurring-payments');
  });
  afterAll(() => gw?.stop());

  it('get all subscriptions for an account: one Query of ACC#<account>, begins_with SUB#, fields read as stored', async () => {
    const { result, requests } = await gw.counted(
      `{ account(id: "123") { subscriptions(first: 10) { edges { node { id SKU Email PaymentAmount NextPaymentDate NextReminderDate account { id } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(nodes(result.data.account.subscriptions)).toEqual([
      {
        id: '123',
        SKU: '999',
        Email: 's@s.com',
        PaymentAmount: '12.99',
        NextPaymentDate: '2023-06-28',
        NextReminderDate: '2023-06-21',
        account: { id: '123' },
      },
      { id: '124', SKU: '555', Email: 's@s.com', PaymentAmount: '4.99', NextPaymentDate: '2023-06-21', NextReminderDate: '2023-06-14', account: { id: '123' } },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  // A receipt's id is derived from its key: base64url of "<account>#<processed date as the key holds it>#<sku>".
  const receiptId = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  it('get all receipts for an account: one Query of ACC#<account>, begins_with REC#, ids derived from their keys', async () => {
    const { result, requests } = await gw.counted(
      `{ account(id: "123") { receipts(first: 10) { edges { node { id SKU ProcessedDate ProcessedAmount TTL } } } } }`,
    );
    expect(nodes(result.data.account.receipts)).toEqual([
      { id: receiptId('123#12023-05-28T14:15:39.24#999'), SKU: '999', ProcessedDate: '2023-05-28T14:15:39.247Z', ProcessedAmount: '12.99', TTL: 1700318200 },
      { id: receiptId('123#2023-06-28T14:15:40.102Z#999'), SKU: '999', ProcessedDate: '2023-06-28T14:15:40.102Z', ProcessedAmount: '12.99', TTL: 1702996600 },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("get a receipt by its id, or by its date and SKU: one GetItem each (the published sample's key holds another date than its attribute: its id finds it)", async () => {
    const byId = await gw.counted(`query($id: ID!) { receiptById(id: $id) { SKU ProcessedDate } }`, { id: receiptId('123#12023-05-28T14:15:39.24#999') });
    expect(byId.result.data.receiptById).toEqual({ SKU: '999', ProcessedDate: '2023-05-28T14:15:39.247Z' });
    expect(byId.requests.byOperation).toEqual({ GetItem: 1 });
    const byKey = await gw.counted(`{ receipt(account: "123", ProcessedDate: "2023-06-28T14:15:40.102Z", SKU: "999") { id ProcessedAmount } }`);
    expect(byKey.result.data.receipt).toEqual({ id: receiptId('123#2023-06-28T14:15:40.102Z#999'), ProcessedAmount: '12.99' });
    expect(byKey.requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('get specific subscription details: one GetItem of ACC#<account> / SUB#<sub>#SKU#<sku>', async () => {
    const { result, requests } = await gw.counted(`{ subscription(account: "123", id: "123", SKU: "999") { id SKU PaymentDay LastPaymentDate CreatedDate } }`);
    expect(result.data.subscription).toEqual({
      id: '123',
      SKU: '999',
      PaymentDay: '28',
      LastPaymentDate: '2023-05-18T14:15:39.247Z',
      CreatedDate: '2023-05-18T09:41:25.856Z',
    });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
    const other = await gw.run(`{ subscription(account: "123", id: "123", SKU: "555") { id } }`);
    expect(other).toEqual({ data: { subscription: null } });
  });

  it('find accounts needing reminders for a date: one Query of GSI-1, by LastReminderDate', async () => {
    const { result, requests } = await gw.counted(
      `{ dueReminders(NextReminderDate: "2023-06-21", first: 10) { edges { node { account { id } id SKU Email NextPaymentDate } } } }`,
    );
    expect(nodes(result.data.dueReminders)).toEqual([
      { account: { id: '456' }, id: '456', SKU: '999', Email: 't@t.com', NextPaymentDate: '2023-06-28' },
      { account: { id: '123' }, id: '123', SKU: '999', Email: 's@s.com', NextPaymentDate: '2023-06-28' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('find accounts with payments due on a date: one Query of GSI-2, by LastPaymentDate; receipts are in neither index', async () => {
    const { result, requests } = await gw.counted(
      `{ duePayments(NextPaymentDate: "2023-06-28", first: 10) { edges { node { account { id } id PaymentDay PaymentAmount } } } }`,
    );
    expect(nodes(result.data.duePayments)).toEqual([
      { account: { id: '123' }, id: '123', PaymentDay: '28', PaymentAmount: '12.99' },
      { account: { id: '456' }, id: '456', PaymentDay: '28', PaymentAmount: '12.99' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('creates a subscription at ACC#<account> / SUB#<sub>#SKU#<sku>: one PutItem (the account has no item), due by its dates', async () => {
    const { result, requests } = await gw.counted(`mutation { createSubscription(account: "789", input: {
      id: "790", SKU: "321", Email: "u@u.com", PaymentDay: "5", PaymentAmount: "9.99", NextPaymentDate: "2023-07-05", NextReminderDate: "2023-06-28", LastReminderDate: "2023-06-05T10:00:00.000Z",
      CreatedDate: "2023-06-05T10:00:00.000Z"
    }) { id SKU account { id } } }`);
    expect(result).toEqual({ data: { createSubscription: { id: '790', SKU: '321', account: { id: '789' } } } });
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('ACC#789', 'SUB#790#SKU#321')).toEqual({
      PK: 'ACC#789',
      SK: 'SUB#790#SKU#321',
      SKU: '321',
      Email: 'u@u.com',
      PaymentDay: '5',
      PaymentAmount: '9.99',
      NextPaymentDate: '2023-07-05',
      NextReminderDate: '2023-06-28',
      LastReminderDate: '2023-06-05T10:00:00.000Z',
      CreatedDate: '2023-06-05T10:00:00.000Z',
    });
    // No LastPaymentDate yet (GSI-2's sort key): not in GSI-2 until its first payment, as DynamoDB indexes it.
    const due = await gw.run(`{ dueReminders(NextReminderDate: "2023-06-28", first: 10) { edges { node { id account { id } } } } }`);
    expect(nodes(due.data.dueReminders)).toEqual([{ id: '790', account: { id: '789' } }]);
    const payments = await gw.run(`{ duePayments(NextPaymentDate: "2023-07-05", first: 10) { edges { node { id } } } }`);
    expect(nodes(payments.data.duePayments)).toEqual([]);
    const again = await gw.run(`mutation { createSubscription(account: "789", input: { id: "790", SKU: "321", Email: "v@v.com" }) { id } }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(await gw.get('ACC#789', 'SUB#790#SKU#321')).toMatchObject({ Email: 'u@u.com' });
  });

  it('updates a subscription after a payment: one UpdateItem, and it moves to its next date in GSI-2', async () => {
    const { result, requests } = await gw.counted(
      `mutation { updateSubscription(account: "123", id: "123", SKU: "999", input: { LastPaymentDate: "2023-06-28T14:15:40.102Z", NextPaymentDate: "2023-07-28" }) { id NextPaymentDate } }`,
    );
    expect(result).toEqual({ data: { updateSubscription: { id: '123', NextPaymentDate: '2023-07-28' } } });
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('ACC#123', 'SUB#123#SKU#999')).toMatchObject({
      LastPaymentDate: '2023-06-28T14:15:40.102Z',
      NextPaymentDate: '2023-07-28',
      PaymentDetails: expect.any(Object),
    });
    const june = await gw.run(`{ duePayments(NextPaymentDate: "2023-06-28", first: 10) { edges { node { id } } } }`);
    expect(nodes(june.data.duePayments)).toEqual([{ id: '456' }]);
    const july = await gw.run(`{ duePayments(NextPaymentDate: "2023-07-28", first: 10) { edges { node { id } } } }`);
    expect(nodes(july.data.duePayments)).toEqual([{ id: '123' }]);
    const missing = await gw.run(`mutation { updateSubscription(account: "123", id: "123", SKU: "000", input: { NextPaymentDate: "2023-07-28" }) { id } }`);
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('creates a receipt at ACC#<account> / REC#<processed date>#SKU#<sku>: one PutItem, the time written fixed-width', async () => {
    const create = `mutation { createReceipt(account: "123", input: { SKU: "999", ProcessedDate: "2023-07-28T14:15:41.5Z", Email: "s@s.com", ProcessedAmount: "12.99", TTL: 1705675000 }) { id ProcessedDate } }`;
    const { result, requests } = await gw.counted(create);
    expect(result).toEqual({ data: { createReceipt: { id: receiptId('123#2023-07-28T14:15:41.500Z#999'), ProcessedDate: '2023-07-28T14:15:41.500Z' } } });
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('ACC#123', 'REC#2023-07-28T14:15:41.500Z#SKU#999')).toEqual({
      PK: 'ACC#123',
      SK: 'REC#2023-07-28T14:15:41.500Z#SKU#999',
      SKU: '999',
      ProcessedDate: '2023-07-28T14:15:41.500Z',
      Email: 's@s.com',
      ProcessedAmount: '12.99',
      TTL: 1705675000,
    });
    const latest = await gw.counted(`{ account(id: "123") { receipts(last: 1) { edges { node { ProcessedDate } } } } }`);
    expect(nodes(latest.result.data.account.receipts)).toEqual([{ ProcessedDate: '2023-07-28T14:15:41.500Z' }]);
    expect(latest.requests.byOperation).toEqual({ Query: 1 });
    const one = await gw.counted(`{ receipt(account: "123", ProcessedDate: "2023-07-28T14:15:41.500Z", SKU: "999") { ProcessedAmount } }`);
    expect(one.result.data.receipt).toEqual({ ProcessedAmount: '12.99' });
    expect(one.requests.byOperation).toEqual({ GetItem: 1 });
    // The same receipt again: CONFLICT, one PutItem, the stored one untouched.
    const again = await gw.counted(create.replace('"12.99"', '"0.01"'));
    expect(again.result.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(again.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('ACC#123', 'REC#2023-07-28T14:15:41.500Z#SKU#999')).toMatchObject({ ProcessedAmount: '12.99' });
  });
});
