/**
 * Constraints on values come from the model (@attribute(min, max, format)),
 * never from a field's name: a model that declares none takes any number
 * and any text, whatever its fields are called; one that declares them has
 * them enforced wherever a mutation sets the field (create and update
 * inputs, a link's edge fields), before any DynamoDB request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const MODEL = `
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Station @item(pk: "STATION#{id}", sk: "META") {
  id: ID!
  name: String!
  "Named like an email field, declared as plain text."
  email: String
  "Named like a quantity, declared without bounds."
  quantity: Int
  total: Float
  rating: Float @attribute(min: 0, max: 5)
  contact: String @attribute(format: EMAIL)
  sensors(first: Int, after: String, last: Int, before: String): StationSensorConnection! @edges(counter: "sensorCount")
}
type StationSensorConnection { edges: [StationSensorEdge!]! pageInfo: PageInfo! totalCount: Int! }
type StationSensorEdge { cursor: String! weight: Int @attribute(min: 1) node: Sensor! }
type Sensor @item(pk: "SENSOR#{id}", sk: "META") { id: ID! label: String! }
input CreateStationInput { id: ID name: String! email: String quantity: Int total: Float rating: Float contact: String }
input UpdateStationInput { name: String email: String quantity: Int total: Float rating: Float contact: String }
input CreateSensorInput { id: ID label: String! }
type Query {
  station(id: ID!): Station @get
  sensor(id: ID!): Sensor @get
}
type Mutation {
  createStation(input: CreateStationInput!): Station! @create
  updateStation(id: ID!, input: UpdateStationInput!): Station! @update
  createSensor(input: CreateSensorInput!): Sensor! @create
  attach(stationId: ID!, sensorId: ID!, weight: Int): StationSensorEdge! @addEdge(edges: "Station.sensors", from: "stationId", to: "sensorId")
}
`;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(MODEL, 'stations.graphql') });
  await gw.run('mutation { createStation(input: { id: "s1", name: "North" }) { id } createSensor(input: { id: "x1", label: "wind" }) { id } }');
});
afterAll(() => gw.stop());

const CREATE = 'mutation($input: CreateStationInput!) { createStation(input: $input) { id email quantity total rating contact } }';
const UPDATE = 'mutation($input: UpdateStationInput!) { updateStation(id: "s1", input: $input) { id rating } }';

/** The operation is refused as BAD_USER_INPUT naming `argument`, costs no DynamoDB request and leaves the table as it was. */
async function refused(query: string, variables: Record<string, unknown>, argument: string) {
  const before = await gw.scan();
  const { result, requests } = await gw.counted(query, variables);
  expect(result.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  expect(result.errors?.[0]?.extensions?.argumentName).toBe(argument);
  expect(result.errors?.[0]?.message).toContain(argument);
  expect(requests.requests).toBe(0);
  expect(await gw.scan()).toEqual(before);
}

describe('a model that declares no constraint on a field', () => {
  it('accepts a negative Int and Float and a text that is no email address, in fields named quantity, total and email', async () => {
    const { data, errors } = await gw.run(CREATE, { input: { id: 's2', name: 'South', email: 'not an address', quantity: -3, total: -12.5 } });
    expect(errors).toBeUndefined();
    expect(data.createStation).toEqual({ id: 's2', email: 'not an address', quantity: -3, total: -12.5, rating: null, contact: null });
    expect(await gw.get('STATION#s2', 'META')).toMatchObject({ email: 'not an address', quantity: -3, total: -12.5 });
  });

  it('still refuses a Float DynamoDB cannot store exactly, of either sign', async () => {
    await refused(CREATE, { input: { id: 's3', name: 'East', total: -(2 ** 53) } }, 'input.total');
  });
});

describe('constraints the model declares', () => {
  it('refuses a value below min or above max, on create and on update, naming the argument', async () => {
    await refused(CREATE, { input: { id: 's4', name: 'West', rating: -0.5 } }, 'input.rating');
    await refused(UPDATE, { input: { rating: 5.5 } }, 'input.rating');
    expect((await gw.run(UPDATE, { input: { rating: 5 } })).data.updateStation).toEqual({ id: 's1', rating: 5 });
  });

  it('refuses a text that is no email address where the model declares format: EMAIL', async () => {
    await refused(CREATE, { input: { id: 's5', name: 'Up', contact: 'nobody' } }, 'input.contact');
    expect((await gw.run(CREATE, { input: { id: 's5', name: 'Up', contact: ' ops@example.com ' } })).data.createStation.contact).toBe('ops@example.com');
  });

  it("applies an edge field's constraints to the link argument that sets it", async () => {
    const ATTACH = 'mutation($w: Int) { attach(stationId: "s1", sensorId: "x1", weight: $w) { weight node { id } } }';
    await refused(ATTACH, { w: 0 }, 'weight');
    expect((await gw.run(ATTACH, { w: 2 })).data.attach).toEqual({ weight: 2, node: { id: 'x1' } });
  });
});
