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

  it("deleteChatRoom: the room item is deleted by the gateway's delete (read, mark, remove)", async () => {
    const { result, requests } = await gw.counted(`mutation { deleteChatRoom(id: "Games") }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('Room:Games', 'meta')).toBeUndefined();
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

  it('getAllComments: a room\'s comments in the order of CreatedAt, one Query of the index', async () => {
    const { result, requests } = await gw.counted(`{ roomComments(RoomID: "Music", first: 10) { edges { node { id Comment CreatedAt user { id } } } pageInfo { hasNextPage } } }`);
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
      PK: 'suuid#n3w5e551', SK: 'c#XYZ', last_login_time: '2023-06-01T08:00:00', access_token: 't0k3n', session_state: 'active',
    });
  });

  it('getSessionBySessionId: one GetItem of the session and its customer', async () => {
    const { result, requests } = await gw.counted(`{ sessionEntry(sessionId: "c342etj3", id: "ABC") { id session { id } last_login_time access_token session_state } }`);
    expect(result.data.sessionEntry).toEqual({ id: 'ABC', session: { id: 'c342etj3' }, last_login_time: '2023-05-12T11:30:00', access_token: 'd234ltj2', session_state: 'active' });
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
    const { result, requests } = await gw.counted(`{ sessionsOfCustomer(id: "ABC", first: 10) { edges { node { session { id } access_token session_state } } } }`);
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

  it("a vehicle with its features: one Query (#META# sorts before FEATURE#)", async () => {
    const { result, requests } = await gw.counted(`{ vehicle(id: "${VIN}") { engine features(first: 10) { edges { node { id } } } } }`);
    expect(result.data.vehicle).toEqual({ engine: 'gasoline', features: { edges: [{ node: { id: 'AUTODRIVE' } }, { node: { id: 'CAMERAS' } }, { node: { id: 'MIRRORS' } }] } });
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('a user with their preferences and vehicles: two Queries (the user item is read with the preferences, #META# first)', async () => {
    const { result, requests } = await gw.counted(`{ user(id: "cbrawley0") { user_name user_phone preferences(first: 10) { edges { node { id user_name } } } vehicles(first: 10) { edges { node { id } } } } }`);
    expect(result.data.user).toEqual({
      user_name: 'cbrawley0',
      user_phone: '+17778889999',
      preferences: { edges: [{ node: { id: 'CAMERAS', user_name: 'cbrawley0' } }, { node: { id: 'SEATS', user_name: 'cbrawley0' } }] },
      vehicles: { edges: [{ node: { id: VIN } }] },
    });
    expect(requests.byOperation).toEqual({ Query: 2 });
  });

  it("a vehicle's users: one Query", async () => {
    const { result, requests } = await gw.counted(`{ vehicle(id: "${VIN}") { users(first: 10) { edges { node { id } } } } }`);
    expect(nodes(result.data.vehicle.users)).toEqual([{ id: 'cbrawley0' }]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('creates a vehicle and a user, each one PutItem at <entity> / #META#', async () => {
    const vehicle = await gw.counted(`mutation { createVehicle(input: { id: "1HGCM82633A004352", vehicle_id: "1HGCM82633A004352", engine: "electric" }) { id } }`);
    expect(vehicle.result.errors).toBeUndefined();
    expect(vehicle.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('VIN#1HGCM82633A004352', '#META#')).toEqual({ PK: 'VIN#1HGCM82633A004352', SK: '#META#', vehicle_id: '1HGCM82633A004352', engine: 'electric' });
    const user = await gw.counted(`mutation { createUser(input: { id: "jdoe1", user_name: "jdoe1", user_phone: "+15550100" }) { id } }`);
    expect(user.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('ID#jdoe1', '#META#')).toEqual({ PK: 'ID#jdoe1', SK: '#META#', user_name: 'jdoe1', user_phone: '+15550100' });
  });

  it('adds and removes a feature of a vehicle and a preference of a user', async () => {
    const feature = await gw.counted(`mutation { addFeature(vehicleId: "1HGCM82633A004352", input: { id: "MIRRORS" }) { id vehicle { id } } }`);
    expect(feature.result.data.addFeature).toEqual({ id: 'MIRRORS', vehicle: { id: '1HGCM82633A004352' } });
    expect(feature.requests.byOperation).toEqual({ GetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'FEATURE#MIRRORS')).toEqual({ PK: 'VIN#1HGCM82633A004352', SK: 'FEATURE#MIRRORS' });
    const preference = await gw.counted(`mutation { addPreference(userId: "jdoe1", input: { id: "SEATS", user_name: "jdoe1" }) { id } }`);
    expect(preference.requests.byOperation).toEqual({ GetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('ID#jdoe1', 'PREFERENCES#SEATS')).toEqual({ PK: 'ID#jdoe1', SK: 'PREFERENCES#SEATS', user_name: 'jdoe1' });
    const removed = await gw.counted(`mutation { removeFeature(vehicleId: "1HGCM82633A004352", id: "MIRRORS") removePreference(userId: "jdoe1", id: "SEATS") }`);
    expect(removed.result.errors).toBeUndefined();
    expect(removed.requests.byOperation).toEqual({ GetItem: 2, TransactWriteItems: 2 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'FEATURE#MIRRORS')).toBeUndefined();
    expect(await gw.get('ID#jdoe1', 'PREFERENCES#SEATS')).toBeUndefined();
  });

  it('links a user to a vehicle with its two items, and unlinks them', async () => {
    const linked = await gw.counted(`mutation {
      linkUserToVehicle(vehicleId: "1HGCM82633A004352", input: { id: "jdoe1" }) { id }
      linkVehicleToUser(userId: "jdoe1", input: { id: "1HGCM82633A004352" }) { id }
    }`);
    expect(linked.result.errors).toBeUndefined();
    expect(linked.requests.byOperation).toEqual({ GetItem: 2, TransactWriteItems: 2 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'ID#jdoe1')).toEqual({ PK: 'VIN#1HGCM82633A004352', SK: 'ID#jdoe1' });
    expect(await gw.get('ID#jdoe1', 'VIN#1HGCM82633A004352')).toEqual({ PK: 'ID#jdoe1', SK: 'VIN#1HGCM82633A004352' });
    const both = await gw.run(`{ vehicle(id: "1HGCM82633A004352") { users(first: 5) { edges { node { id } } } } user(id: "jdoe1") { vehicles(first: 5) { edges { node { id } } } } }`);
    expect(nodes(both.data.vehicle.users)).toEqual([{ id: 'jdoe1' }]);
    expect(nodes(both.data.user.vehicles)).toEqual([{ id: '1HGCM82633A004352' }]);
    const unlinked = await gw.counted(`mutation { unlinkUserFromVehicle(vehicleId: "1HGCM82633A004352", id: "jdoe1") unlinkVehicleFromUser(userId: "jdoe1", id: "1HGCM82633A004352") }`);
    expect(unlinked.result.errors).toBeUndefined();
    expect(unlinked.requests.byOperation).toEqual({ GetItem: 2, TransactWriteItems: 2 });
    expect(await gw.get('VIN#1HGCM82633A004352', 'ID#jdoe1')).toBeUndefined();
    expect(await gw.get('ID#jdoe1', 'VIN#1HGCM82633A004352')).toBeUndefined();
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

  it("a player's friends item: one GetItem (the list itself is not declared)", async () => {
    const { result, requests } = await gw.counted(`{ friends(id: "player001") { id Type } }`);
    expect(result.data.friends).toEqual({ id: 'player001', Type: 'Friends' });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it("a player's profile with their items: one Query (#METADATA# sorts first)", async () => {
    const { result, requests } = await gw.counted(`{ player(id: "player001") { Nickname items(first: 10) { edges { node { id ItemName ItemType ItemCount } } } } }`);
    expect(result.data.player.Nickname).toBe('John');
    expect(nodes(result.data.player.items)).toEqual([
      { id: '001', ItemName: 'Health Potion', ItemType: 'Consumable', ItemCount: '5' },
      { id: '002', ItemName: 'Armor of the Knight', ItemType: 'Armor', ItemCount: '1' },
      { id: '003', ItemName: 'Sword of the Dragon', ItemType: 'Weapon', ItemCount: '1' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("a player's equipment, tasks and activities: one Query each and no read of the profile; the malformed equipment key is read past", async () => {
    const { result, requests } = await gw.counted(`{ player(id: "player001") {
      equipments(first: 10) { edges { node { id EquipmentName } } }
      tasks(first: 10) { edges { node { id TaskStatus } } }
      activities(first: 10) { edges { node { id ActivityName ActivityStartTime } } }
    } }`);
    expect(result.errors).toBeUndefined();
    expect(nodes(result.data.player.equipments)).toEqual([{ id: '001', EquipmentName: 'Sword of the Dragon' }, { id: '003', EquipmentName: 'Ring of the Mage' }]);
    expect(nodes(result.data.player.tasks)).toEqual([{ id: '001', TaskStatus: 'InProgress' }, { id: '002', TaskStatus: 'Completed' }, { id: '003', TaskStatus: 'Available' }]);
    expect(nodes(result.data.player.activities).map((a: any) => a.ActivityName)).toEqual(['Hunting Trip', 'Mining Adventure', 'Arena Challenge']);
    expect(requests.byOperation).toEqual({ Query: 3 });
  });

  it('creates a player where the design puts one, and updates the profile', async () => {
    const created = await gw.counted(`mutation { createPlayer(input: { id: "player009", Type: "Metadata", Nickname: "Zoe", Email: "zoe@example.com", Currency: "0" }) { id } }`);
    expect(created.result.errors).toBeUndefined();
    expect(created.requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('player009', '#METADATA#player009')).toEqual({ PK: 'player009', SK: '#METADATA#player009', Type: 'Metadata', Nickname: 'Zoe', Email: 'zoe@example.com', Currency: '0' });
    const updated = await gw.counted(`mutation { updatePlayer(id: "player009", input: { Currency: "150", PlayerLevel: "2" }) { Currency PlayerLevel } }`);
    expect(updated.result.data.updatePlayer).toEqual({ Currency: '150', PlayerLevel: '2' });
    expect(updated.requests.byOperation).toEqual({ UpdateItem: 1 });
    const bad = await gw.run(`mutation { createPlayer(input: { id: "player010", Nickname: "X", Email: "not an email" }) { id } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("adds, updates and removes an item of a player's inventory, and updates a task", async () => {
    const added = await gw.counted(`mutation { addItem(playerId: "player009", input: { id: "001", Type: "Item", ItemName: "Health Potion", ItemType: "Consumable", ItemCount: "3" }) { id } }`);
    expect(added.requests.byOperation).toEqual({ GetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('player009', 'ITEMS#001')).toEqual({ PK: 'player009', SK: 'ITEMS#001', Type: 'Item', ItemName: 'Health Potion', ItemType: 'Consumable', ItemCount: '3' });
    const used = await gw.counted(`mutation { updateItem(playerId: "player009", id: "001", input: { ItemCount: "2" }) { ItemCount } }`);
    expect(used.result.data.updateItem).toEqual({ ItemCount: '2' });
    expect(used.requests.byOperation).toEqual({ UpdateItem: 1 });
    const removed = await gw.counted(`mutation { removeItem(playerId: "player009", id: "001") }`);
    expect(removed.result.errors).toBeUndefined();
    expect(removed.requests.byOperation).toEqual({ GetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('player009', 'ITEMS#001')).toBeUndefined();
    const task = await gw.counted(`mutation { updateTask(playerId: "player001", id: "003", input: { TaskStatus: "InProgress" }) { TaskName TaskStatus } }`);
    expect(task.result.data.updateTask).toEqual({ TaskName: 'Rescue the Princess', TaskStatus: 'InProgress' });
    expect(task.requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('player001', 'TASK#003')).toMatchObject({ TaskStatus: 'InProgress', TaskReward: expect.anything() });
  });
});

describe('ComplainManagement', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('ComplainManagement', 'complain-management');
  });
  afterAll(() => gw?.stop());

  it('get complaint metadata: one GetItem at <complaint> / metadata', async () => {
    const { result, requests } = await gw.counted(`{ complaint(id: "Complaint1444") { customer_id { id } current_state severity escalated_to { id } escalation_time } }`);
    expect(result.data.complaint).toEqual({ customer_id: { id: 'custXY32' }, current_state: 'assigned', severity: 'P1', escalated_to: { id: 'AgentB' }, escalation_time: '2023-01-03T04:00:07' });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('get all complaints for a customer: one Query of Customer_Complaint_GSI, by complaint id', async () => {
    const { result, requests } = await gw.counted(`{ complaintsOfCustomer(customer_id: "custXYZ", first: 10) { edges { node { id severity current_state } } } }`);
    expect(nodes(result.data.complaintsOfCustomer)).toEqual([
      { id: 'Complaint0987', severity: 'P3', current_state: 'assigned' },
      { id: 'Complaint1321', severity: 'P2', current_state: 'investigating' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('find complaints escalated to an agent: one Query of Escalations_GSI, by escalation time', async () => {
    const { result, requests } = await gw.counted(`{ escalatedTo(escalated_to: "AgentB", first: 10) { edges { node { id escalation_time customer_id { id } } } } }`);
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
      PK: 'Complaint2000', SK: 'metadata', customer_id: 'custXYZ', complaint_id: 'Complaint2000', current_state: 'waiting', creation_time: '2023-07-01T10:00:00', severity: 'P1', complaint_description: 'no signal',
    });
    const listed = await gw.run(`{ complaintsOfCustomer(customer_id: "custXYZ", last: 1) { edges { node { id } } } }`);
    expect(nodes(listed.data.complaintsOfCustomer)).toEqual([{ id: 'Complaint2000' }]);
  });

  it('escalates a complaint: one UpdateItem, and it joins the agent\'s escalations', async () => {
    const { result, requests } = await gw.counted(`mutation { updateComplaint(id: "Complaint2000", input: { current_state: "assigned", escalated_to: "AgentB", escalation_time: "2023-07-02T08:00:00" }) { current_state escalated_to { id } } }`);
    expect(result.data.updateComplaint).toEqual({ current_state: 'assigned', escalated_to: { id: 'AgentB' } });
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('Complaint2000', 'metadata')).toMatchObject({ escalated_to: 'AgentB', escalation_time: '2023-07-02T08:00:00' });
    const escalated = await gw.run(`{ escalatedTo(escalated_to: "AgentB", last: 1) { edges { node { id } } } }`);
    expect(nodes(escalated.data.escalatedTo)).toEqual([{ id: 'Complaint2000' }]);
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

  it("getFollowerListByUserID and getFollowingListByUserID: one Query of each partition, no read of the user's info", async () => {
    const { result, requests } = await gw.counted(`{ userLists(id: "12345") { followers(first: 10) { edges { node { id } } } following(first: 10) { edges { node { id } } } } }`);
    expect(nodes(result.data.userLists.followers)).toEqual([{ id: '23456' }, { id: '34567' }, { id: '45678' }]);
    expect(nodes(result.data.userLists.following)).toEqual([{ id: '56789' }, { id: '67890' }, { id: '78912' }]);
    expect(requests.byOperation).toEqual({ Query: 2 });
  });

  it('getPostListByUserID: one Query of u#<user>#post', async () => {
    const { result, requests } = await gw.counted(`{ userLists(id: "12345") { posts(first: 10) { edges { node { id content timestamp } } } } }`);
    expect(nodes(result.data.userLists.posts)).toEqual([
      { id: '12345', content: 'content for a post', timestamp: '1571827560' },
      { id: '23456', content: 'content for a post', timestamp: '1571827561' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getUserLikesByPostID: one Query of p#<post>#likelist', async () => {
    const { result, requests } = await gw.counted(`{ post(id: "12345") { likes(first: 10) { edges { node { id } } } } }`);
    expect(nodes(result.data.post.likes)).toEqual([{ id: '23456' }, { id: '34567' }, { id: '45678' }]);
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
    const followed = await gw.counted(`mutation { follow(userId: "12345", followerId: "99999") { node { id followers(first: 1) { edges { node { id } } } } } }`);
    expect(followed.result).toEqual({ data: { follow: { node: { id: '99999', followers: { edges: [] } } } } });
    // The pair is one TransactWriteItems (keyless users: nothing to read or count); the nested list one Query.
    expect(followed.requests.byOperation).toEqual({ TransactWriteItems: 1, Query: 1 });
    expect(await gw.get('u#12345#follower', 'u#99999')).toEqual({ PK: 'u#12345#follower', SK: 'u#99999' });
    expect(await gw.get('u#99999#following', 'u#12345')).toEqual({ PK: 'u#99999#following', SK: 'u#12345' });
    const both = await gw.counted(`{ a: userLists(id: "12345") { followers(last: 1) { edges { node { id } } } } b: userLists(id: "99999") { following(first: 5) { edges { node { id } } } } }`);
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

  it('serves the declared layout with its samples in place', async () => {
    expect((await gw.scan()).filter((i) => String(i.PK).startsWith('ACC#')).map((i) => `${i.PK} ${i.SK}`).sort()).toEqual(['ACC#123 REC#12023-05-28T14:15:39.24#SKU#999', 'ACC#123 SUB#123#SKU#999']);
    const { result, requests } = await gw.counted(`{ account(id: "123") { id } }`);
    expect(result).toEqual({ data: { account: { id: '123' } } });
    expect(requests.requests).toBe(0);
  });

  it('declares the subscriptions (their sort key holds the SKU set at create), not yet the receipts, keyed without an id', () => {
    const file = fileURLToPath(new URL('../../examples/aws/RecurringPayments/recurring-payments.graphql', import.meta.url));
    const sdl = `${readFileSync(file, 'utf8')}
      type AccountSubscription @item(pk: "ACC#{account}", sk: "SUB#{id}#SKU#{SKU}") { id: ID! SKU: String! account: Account! @parent }
      type Receipt @item(pk: "ACC#{account}", sk: "REC#{ProcessedDate}#SKU#{SKU}") { id: ID! SKU: String! ProcessedDate: String! account: Account! @parent }`;
    expect(problems(sdl)).toEqual([
      'Receipt @item: neither pk nor sk holds {id}: items are found by their id; a key of {ProcessedDate}, {SKU} alone is not served yet',
    ]);
  });
});
