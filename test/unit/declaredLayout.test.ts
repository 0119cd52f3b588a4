/**
 * The table's layout as a model declares it (@table, @index): read with
 * every problem at once, turned into the table definition start-up
 * creates, and compared with a table that exists.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { problemsOf } from '../support/problems.js';
import { DEFAULT_LAYOUT, tableShapeOf } from '../../src/declaration/layout.js';
import { tableContradictions, tableDefinition } from '../../src/dynamo/table.js';
import { compilePlan } from '../../src/plan/plan.js';
import { partitionCondition } from '../../src/dynamo/collection.js';

const TYPES = `
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Ticket @item(pk: "TICKET#{id}", sk: "META") {
  id: ID!
  subject: String!
  priority: Int!
  status: String
  messages(first: Int, after: String, last: Int, before: String): MessageConnection! @children(counter: "messageCount")
}
type MessageConnection { edges: [MessageEdge!]! pageInfo: PageInfo! totalCount: Int! }
type MessageEdge { cursor: String! node: Message! }
type Message @item(pk: "TICKET#{ticket}", sk: "MSG#{id}") { id: ID! body: String! ticket: Ticket! @parent }
type Query { ticket(id: ID!): Ticket @get }
`;

describe('the declared layout', () => {
  it('gives a model that declares no @table or @index the default layout: PK/SK, GSI1 and GSI2', () => {
    const model = buildModel(TYPES, 'helpdesk.graphql');
    expect(model.layout).toBe(DEFAULT_LAYOUT);
    expect(model.layout).toMatchObject({
      declared: false,
      pk: 'PK',
      sk: 'SK',
      indexes: [
        { name: 'GSI1', pk: ['GSI1PK'], sk: ['GSI1SK'] },
        { name: 'GSI2', pk: ['GSI2PK'], sk: ['GSI2SK'] },
      ],
    });
  });

  it('reads @table and every @index of a schema extension, multi-attribute keys in key order', () => {
    const model = buildModel(
      `extend schema @table(pk: "PK", sk: "SK")
        @index(name: "byStatus", pk: ["status"], sk: ["priority", "subject"])
        @index(name: "inverted", pk: ["SK"], sk: ["PK"])
      ${TYPES}`,
      'helpdesk.graphql',
    );
    expect(model.layout).toEqual({
      declared: true,
      pk: 'PK',
      sk: 'SK',
      casing: 'NONE',
      indexes: [
        { name: 'byStatus', pk: ['status'], sk: ['priority', 'subject'], casing: null },
        { name: 'inverted', pk: ['SK'], sk: ['PK'], casing: null },
      ],
    });
  });

  it('refuses, all at once, an index key of five attributes, two indexes of one name, an attribute named twice in one key and a bad index name', () => {
    const problems = problemsOf(`extend schema
        @index(name: "wide", pk: ["a", "b", "c", "d", "e"])
        @index(name: "twice", pk: ["status"])
        @index(name: "twice", pk: ["subject"], sk: ["subject"])
        @index(name: "x", pk: ["status"])
      ${TYPES}`);
    expect(problems).toEqual([
      'schema @index(name: "wide")(pk): names 5 attributes; a key has 1 to 4',
      'schema @index(name: "twice"): is declared twice: index names are unique',
      'schema @index(name: "twice"): names the attribute subject twice in its key',
      'schema @index(name: "x"): an index name is 3 to 255 letters, digits, _, - or .',
    ]);
  });

  it('refuses a model whose edges and inverted items need GSI1 when its declared indexes lack it, naming each reader', () => {
    const problems = problemsOf(`extend schema @index(name: "byStatus", pk: ["status"])
      scalar DateTime
      type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
      type Agent @item(pk: "AGENT#{id}", sk: "META") {
        id: ID!
        name: String!
        queues(first: Int, after: String, last: Int, before: String): AgentQueueConnection! @edges
      }
      type AgentQueueConnection { edges: [AgentQueueEdge!]! pageInfo: PageInfo! totalCount: Int! }
      type AgentQueueEdge { cursor: String! node: Queue! }
      type Queue @item(pk: "QUEUE#{id}", sk: "META") { id: ID! name: String! }
      type Query { agent(id: ID!): Agent @get }`);
    expect(problems).toEqual([
      'Agent.queues @edges: reads the index GSI1 on GSI1PK/GSI1SK, which the model does not declare: add @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])',
    ]);
  });

  it('serves a table keyed on attributes of other names: keys, items and reads use the declared names', () => {
    expect(problemsOf(`extend schema @table(pk: "pk", sk: "sk") ${TYPES}`)).toEqual([]);
    const plan = compilePlan(buildModel(`extend schema @table(pk: "pk", sk: "sk") ${TYPES}`, 'helpdesk.graphql'));
    expect(tableDefinition('T', plan.table).KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect([plan.keys.pk, plan.keys.sk]).toEqual(['pk', 'sk']);
    const ticket = plan.item('Ticket');
    expect(plan.keys.key(ticket.key('t1'))).toEqual({ pk: 'TICKET#t1', sk: 'META' });
    expect(ticket.ids({ pk: 'TICKET#t1', sk: 'META' })).toEqual({ id: 't1', parentId: null });
    expect(ticket.ids({ PK: 'TICKET#t1', SK: 'META' })).toBeNull();
    expect(ticket.map({ pk: 'TICKET#t1', sk: 'META', subject: 's', priority: 1 })).toMatchObject({ id: 't1', subject: 's' });
    const messages = plan.relation('Ticket.messages').collection('t1');
    expect(messages).toMatchObject({ pkAttr: 'pk', skAttr: 'sk', pk: 'TICKET#t1', prefix: 'MSG#', table: { pk: 'pk', sk: 'sk' } });
  });

  it('refuses __proto__ as a key attribute', () => {
    expect(problemsOf(`extend schema @table(pk: "__proto__", sk: "sk") ${TYPES}`)).toContain('schema @table(pk): "__proto__" cannot name a key attribute');
  });

  it('refuses a table without a sort key, naming @table', () => {
    expect(problemsOf(`extend schema @table(pk: "pk", sk: null) ${TYPES}`)).toContain(
      'schema @table: keys the table on pk alone: this gateway serves tables with a sort key (add sk)',
    );
  });

  it('refuses a field stored under a declared table key', () => {
    expect(problemsOf(`extend schema @table(pk: "pk", sk: "subject") ${TYPES}`)).toContain(
      'Ticket.subject: the field Ticket.subject is stored under subject, an attribute the gateway keeps (a key): name it otherwise',
    );
  });

  it('refuses a key attribute that holds a number for one type and text for another', () => {
    const problems = problemsOf(`extend schema @index(name: "byRank", pk: ["rank"])
      ${TYPES.replace('body: String!', 'body: String! rank: String')}
      extend type Ticket { rank: Int }`);
    expect(problems).toEqual(['key attribute rank: holds a number in one type and text in another: a key attribute has one type']);
  });
});

describe('the table definition of a declared layout', () => {
  const model = buildModel(`extend schema @index(name: "byStatus", pk: ["status", "subject"], sk: ["priority", "id"]) ${TYPES}`, 'helpdesk.graphql');
  const definition = tableDefinition('Helpdesk', tableShapeOf(model));

  it('creates every declared index with its multi-attribute keys, numbers where the field is a number', () => {
    expect(definition.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(definition.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'byStatus',
        KeySchema: [
          { AttributeName: 'status', KeyType: 'HASH' },
          { AttributeName: 'subject', KeyType: 'HASH' },
          { AttributeName: 'priority', KeyType: 'RANGE' },
          { AttributeName: 'id', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
    expect(definition.AttributeDefinitions).toEqual([
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'SK', AttributeType: 'S' },
      { AttributeName: 'status', AttributeType: 'S' },
      { AttributeName: 'subject', AttributeType: 'S' },
      { AttributeName: 'priority', AttributeType: 'N' },
      { AttributeName: 'id', AttributeType: 'S' },
    ]);
  });

  it('finds nothing to object to in the table it defines', () => {
    expect(tableContradictions(definition as never, tableShapeOf(model))).toEqual([]);
  });

  it('names the table key, the index and the attribute type an existing table contradicts, one line each', () => {
    const existing = {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' },
        { AttributeName: 'priority', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byStatus',
          KeySchema: [
            { AttributeName: 'status', KeyType: 'HASH' },
            { AttributeName: 'priority', KeyType: 'RANGE' },
          ],
        },
      ],
    };
    expect(tableContradictions(existing as never, tableShapeOf(model))).toEqual([
      'the table is keyed on pk pk, sk sk, the model declares pk PK, sk SK (@table)',
      'index byStatus is keyed on pk status, sk priority, the model declares pk status, pk subject, sk priority, sk id (@index)',
      'key attribute priority is of type S in the table, N in the model',
    ]);
  });

  it('does not count an index the table lacks as a contradiction (npm run migrate adds it)', () => {
    const { GlobalSecondaryIndexes: _, ...withoutIndexes } = definition;
    expect(tableContradictions(withoutIndexes as never, tableShapeOf(model))).toEqual([]);
  });
});

describe('declarations over the declared indexes', () => {
  const MODEL = (extra: string, ticket = '', message = '') => `
    extend schema @index(name: "byStatus", pk: ["status"], sk: ["openedAt"]) @index(name: "byTicket", pk: ["ticketKey"], sk: ["sentKey"])
    scalar DateTime
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Ticket @item(pk: "TICKET#{id}", sk: "META") ${ticket} {
      id: ID!
      subject: String!
      status: String
      openedAt: String!
      messages(first: Int, after: String, last: Int, before: String): MessageConnection! @query(index: "byTicket")
    }
    type TicketConnection { edges: [TicketEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type TicketEdge { cursor: String! node: Ticket! }
    type Message @item(pk: "MSG#{id}", sk: "T#{ticket}") ${message || '@indexed(index: "byTicket", pk: ["T#{ticket}"], sk: ["m#{sentAt}#{id}"])'} {
      id: ID!
      body: String!
      sentAt: String!
      ticket: Ticket! @parent
    }
    type MessageConnection { edges: [MessageEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type MessageEdge { cursor: String! node: Message! }
    ${extra}`;

  it('reads an @indexed type with templates and one with the attributes it stores', () => {
    const model = buildModel(MODEL('type Query { ticket(id: ID!): Ticket @get }', '@indexed(index: "byStatus")'), 'helpdesk.graphql');
    const ticket = model.items.get('Ticket')!.indexed[0]!;
    expect({
      index: ticket.index,
      pk: ticket.pk.map((p) => [p.attribute, p.template.source, p.written]),
      sk: ticket.sk.map((p) => [p.attribute, p.template.source, p.written]),
    }).toEqual({
      index: 'byStatus',
      pk: [['status', '{status}', false]],
      sk: [['openedAt', '{openedAt}', false]],
    });
    const message = model.items.get('Message')!.indexed[0]!;
    expect(message.sk.map((p) => [p.attribute, p.template.source, p.written])).toEqual([['sentKey', 'm#{sentAt}#{id}', true]]);
  });

  it('refuses, naming each, an @indexed of an undeclared index, a template count unlike the key, a placeholder naming no field, and an index attribute the type does not store', () => {
    const problems = problemsOf(
      MODEL(
        'type Query { ticket(id: ID!): Ticket @get }',
        '@indexed(index: "nowhere") @indexed(index: "byTicket", pk: ["T#{id}"])',
        '@indexed(index: "byTicket", pk: ["T#{ticket}"], sk: ["m#{sentOn}#{id}"]) @indexed(index: "byStatus")',
      ),
    );
    expect(problems).toEqual([
      'Ticket @indexed(index: "nowhere"): names no index the model declares (byStatus, byTicket)',
      'Ticket @indexed(index: "byTicket")(sk): Ticket stores no attribute sentKey (no field stored under that name, no table key): give the template',
      'Message @indexed(index: "byTicket")(sk): placeholder {sentOn} names no field of Message (id, its @parent field or a stored field)',
      'Message @indexed(index: "byStatus")(pk): Message stores no attribute status (no field stored under that name, no table key): give the template',
      'Message @indexed(index: "byStatus")(sk): Message stores no attribute openedAt (no field stored under that name, no table key): give the template',
    ]);
  });

  it('serves an update input holding a field a written index key is built from, when it can give every field that key holds', () => {
    const update = `
        input UpdateMessageInput { body: String sentAt: String }
        type Query { ticket(id: ID!): Ticket @get }
        type Mutation { updateMessage(ticketId: ID!, id: ID!, input: UpdateMessageInput!): Message! @update(parent: "ticketId") }`;
    // m#{sentAt}#{id}: the id finds the item, the input gives sentAt.
    expect(problemsOf(MODEL(update))).toEqual([]);
    // m#{sentAt}#{body}: body is in the input too (a request then gives both or neither).
    expect(problemsOf(MODEL(update, '', '@indexed(index: "byTicket", pk: ["T#{ticket}"], sk: ["m#{sentAt}#{body}"])'))).toEqual([]);
  });

  it('refuses an update input holding a field of a written index key whose other fields the input cannot give', () => {
    const problems = problemsOf(
      MODEL(
        `
        input UpdateMessageInput { sentAt: String }
        type Query { ticket(id: ID!): Ticket @get }
        type Mutation { updateMessage(ticketId: ID!, id: ID!, input: UpdateMessageInput!): Message! @update(parent: "ticketId") }`,
        '',
        '@indexed(index: "byTicket", pk: ["T#{ticket}"], sk: ["m#{sentAt}#{body}"])',
      ),
    );
    expect(problems).toEqual([
      'UpdateMessageInput.sentAt: Message.sentAt is in Message\'s key in the index byTicket ("m#{sentAt}#{body}"), which also holds {body}: an update writes sentKey whole, from values it is given, so the input needs body too (or leave sentAt out of it)',
    ]);
  });

  it('refuses a root @query naming an undeclared index, one whose arguments fill no placeholder, and a range over a sort key without a placeholder', () => {
    const problems = problemsOf(
      MODEL(`
        type Query {
          ticket(id: ID!): Ticket @get
          lost(first: Int, after: String, last: Int, before: String): TicketConnection! @query(index: "nowhere")
          byStatus(state: String, first: Int, after: String, last: Int, before: String): TicketConnection! @query(index: "byStatus")
          all(since: String, first: Int, after: String, last: Int, before: String): TicketConnection! @query(from: "since")
        }`),
    );
    expect(problems).toEqual([
      'Query.lost @query(index: "nowhere"): names no index the model declares (byStatus, byTicket)',
      'Query.byStatus @query(index: "byStatus"): Ticket has no key with a sort attribute in byStatus (declare it with @indexed)',
      'Query.all @query: no argument fills {id} of Ticket\'s partition key "TICKET#{id}" (expected id or idId)',
      'Query.all @query: from/until narrow the sort key from its first placeholder on; "META" has none',
    ]);
  });
});

describe('a root @query whose partition key holds an Int', () => {
  const MODEL = `
    extend schema @index(name: "byShelf", pk: ["shelfKey", "shelfRow"], sk: ["title"])
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Book @item(pk: "BOOK#{id}", sk: "META") @indexed(index: "byShelf", pk: ["S#{shelf}", "row-{row}"], sk: ["{title}"]) {
      id: ID!  title: String!  shelf: String!  row: Int!
    }
    type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type BookEdge { cursor: String! node: Book! }
    type Query { book(id: ID!): Book @get  shelved(shelf: String!, row: Int!, first: Int, after: String, last: Int, before: String): BookConnection! @query(index: "byShelf") }`;

  it('names the partition by the Int argument written as the template writes it, and refuses a non-integer before any request', () => {
    const shelved = compilePlan(buildModel(MODEL, 'shelves.graphql')).queries.find((q) => q.path === 'Query.shelved')!;
    expect(shelved.collection({ shelf: 'a', row: 12 })).toMatchObject({ pk: 'S#a', pkMore: [{ attr: 'shelfRow', value: 'row-12' }] });
    expect(() => shelved.collection({ shelf: 'a', row: 1.5 })).toThrow('row must be');
  });

  it('accepts one whose partition attribute holds the Int itself (typed N), and reads that partition with the number', () => {
    const natural = MODEL.replace('@index(name: "byShelf", pk: ["shelfKey", "shelfRow"]', '@index(name: "byShelf", pk: ["shelfKey", "row"]').replace(
      '"row-{row}"',
      '"{row}"',
    );
    expect(problemsOf(natural)).toEqual([]);
    const model = buildModel(natural, 'shelves.graphql');
    expect(tableShapeOf(model).types.get('row')).toBe('N');
    const shelved = compilePlan(model).queries.find((q) => q.path === 'Query.shelved')!;
    expect(shelved.collection({ shelf: 'a', row: 12 })).toMatchObject({ pk: 'S#a', pkMore: [{ attr: 'row', value: '12' }], numbers: ['row'] });
    expect(partitionCondition('shelfKey', 'S#a', [{ attr: 'row', value: '12' }], ['row']).values).toEqual({ ':pk': 'S#a', ':pk1': 12 });
    expect(() => shelved.collection({ shelf: 'a', row: 1.5 })).toThrow('row must be an integer');
  });
});

describe('a connection over an index whose one sort attribute holds numbers', () => {
  const PAGE = 'first: Int, after: String, last: Int, before: String';
  const MODEL = (sk: string, year: string, range = '') => `
    extend schema @index(name: "byYear", pk: "shelf", sk: "${sk}")
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Shelf @item(pk: "SHELF#{id}", sk: "META") { id: ID!  books(${PAGE}): BookConnection! @query(index: "byYear") }
    type Book @item(pk: "BOOK#{id}", sk: "META") @indexed(index: "byYear"${sk === 'year' ? '' : ', pk: ["{shelf}"], sk: ["y{year}#{id}"]'}) {
      id: ID!  shelf: Shelf!  ${year}
    }
    type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type BookEdge { cursor: String! node: Book! }
    type Query { book(id: ID!): Book @get  byYear(shelf: ID!, ${range}${PAGE}): BookConnection! @query(index: "byYear"${range ? ', from: "from"' : ''}) }`;

  it('reads it in number order: the sort attribute is among the numbers sent as numbers, on a root @query and a type field', () => {
    const plan = compilePlan(buildModel(MODEL('year', 'year: Int!'), 'years.graphql'));
    expect(plan.queries.find((q) => q.path === 'Query.byYear')!.collection({ shelf: 's1' })).toMatchObject({
      pk: 's1',
      skAttr: 'year',
      prefix: '',
      numbers: ['year'],
    });
    const floats = compilePlan(buildModel(MODEL('year', 'published: Float! @attribute(name: "year")'), 'years.graphql'));
    expect(floats.queries.find((q) => q.path === 'Query.byYear')!.collection({ shelf: 's1' })).toMatchObject({ numbers: ['year'] });
    const text = compilePlan(buildModel(MODEL('yearKey', 'year: Int!'), 'years.graphql'));
    expect(text.queries.find((q) => q.path === 'Query.byYear')!.collection({ shelf: 's1' })).not.toHaveProperty('numbers');
  });

  it('refuses from/until over it, one line naming the field, the index and the number field', () => {
    expect(problemsOf(MODEL('year', 'year: Int!', 'from: String, '))).toEqual([
      `Query.byYear @query(index: "byYear"): the sort attribute year of Book's sort key in byYear holds numbers (Book.year): from/until range text sort keys; leave them out, or write the number through a template on another attribute`,
    ]);
  });
});

describe('connections over an index sort key of several attributes', () => {
  const MODEL = (fields: string, teamFields = '') => `
    extend schema
      @index(name: "byRank", pk: ["status"], sk: ["team", "level", "openedAt"])
      @index(name: "byScore", pk: ["status"], sk: ["score", "openedAt"])
      @index(name: "byTag", pk: ["status"], sk: ["tagKey", "openedAt"])
      @index(name: "byKind", pk: ["status"], sk: ["kindKey", "openedAt"])
      @index(name: "byTeam", pk: ["team"], sk: ["level", "openedAt"])
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Team @item(pk: "TEAM#{id}", sk: "META") { id: ID! ${teamFields} }
    type Ticket @item(pk: "TICKET#{id}", sk: "META")
      @indexed(index: "byRank") @indexed(index: "byScore") @indexed(index: "byTeam")
      @indexed(index: "byTag", sk: ["t#{team}#{level}", "{openedAt}"])
      @indexed(index: "byKind", sk: ["ticket", "{openedAt}"]) {
      id: ID!
      status: String!
      team: Team!
      level: String!
      score: Int!
      openedAt: String!
    }
    type TicketConnection { edges: [TicketEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type TicketEdge { cursor: String! node: Ticket! }
    type Query { ticket(id: ID!): Ticket @get ${fields} }`;
  const PAGE = 'first: Int, after: String, last: Int, before: String';

  it('serves arguments fixing leading sort attributes, and from/until over the next', () => {
    expect(
      problemsOf(
        MODEL(
          `ranked(status: String!, team: ID, level: String, from: String, until: String, ${PAGE}): TicketConnection! @query(index: "byRank", from: "from", until: "until")`,
          `tickets(level: String, ${PAGE}): TicketConnection! @query(index: "byTeam", order: DESCENDING)`,
        ),
      ),
    ).toEqual([]);
  });

  it('refuses, one line each naming the field and the index, an argument skipping a sort attribute, one fixing the last, one fixing part of a template, numbers, and a range over a template without a placeholder', () => {
    const problems = problemsOf(
      MODEL(
        `
        skipping(status: String!, level: String, ${PAGE}): TicketConnection! @query(index: "byRank")
        last(status: String!, team: ID, level: String, openedAt: String, ${PAGE}): TicketConnection! @query(index: "byRank")
        part(status: String!, team: ID, ${PAGE}): TicketConnection! @query(index: "byTag")
        scored(status: String!, ${PAGE}): TicketConnection! @query(index: "byScore")
        kinds(status: String!, from: String, ${PAGE}): TicketConnection! @query(index: "byKind", from: "from")`,
        `tickets(openedAt: String, ${PAGE}): TicketConnection! @query(index: "byTeam")`,
      ),
    );
    expect(problems).toEqual([
      `Team.tickets @query(index: "byTeam"): openedAt would fix openedAt, the last attribute of Ticket's sort key in byTeam (level, openedAt): the connection is ordered by it, so arguments fix only the attributes before it`,
      `Query.skipping @query(index: "byRank"): level fix level of Ticket's sort key in byRank, but no argument fixes team before it: DynamoDB conditions sort attributes left to right`,
      `Query.last @query(index: "byRank"): openedAt would fix openedAt, the last attribute of Ticket's sort key in byRank (team, level, openedAt): the connection is ordered by it, so arguments fix only the attributes before it`,
      `Query.part @query(index: "byTag"): team fix part of tagKey ("t#{team}#{level}") in Ticket's sort key in byTag: give an argument for {level} too, or none`,
      `Query.scored @query(index: "byScore"): the sort attribute score of Ticket's sort key in byScore holds numbers (Ticket.score): a connection over several sort attributes orders and ranges text ones`,
      `Query.kinds @query(index: "byKind"): from/until may range over kindKey of Ticket's sort key in byKind, whose template "ticket" has no placeholder to compare from`,
    ]);
  });

  it('fixes the sort attributes the arguments give, left to right, and refuses a later one without the earlier as BAD_USER_INPUT', () => {
    const plan = compilePlan(
      buildModel(
        MODEL(`ranked(status: String!, team: ID, level: String, from: String, ${PAGE}): TicketConnection! @query(index: "byRank", from: "from")`),
        'ranked.graphql',
      ),
    );
    const ranked = plan.queries.find((q) => q.path === 'Query.ranked')!;
    expect(ranked.collection({ status: 'OPEN' })).toMatchObject({
      pk: 'OPEN',
      skAttr: 'team',
      sortKey: { fixed: [], after: ['level', 'openedAt'], binding: '' },
    });
    expect(ranked.collection({ status: 'OPEN', team: 't1', from: '3' })).toMatchObject({
      skAttr: 'level',
      sortKey: { fixed: [{ attr: 'team', value: 't1' }], after: ['openedAt'], binding: JSON.stringify([['t1'], JSON.stringify(['3', null])]) },
      range: { lo: '3' },
    });
    expect(ranked.collection({ status: 'OPEN', team: 't1', level: '2' })).toMatchObject({
      skAttr: 'openedAt',
      sortKey: {
        fixed: [
          { attr: 'team', value: 't1' },
          { attr: 'level', value: '2' },
        ],
        after: [],
      },
    });
    expect(() => ranked.collection({ status: 'OPEN', level: '2' })).toThrow('level fixes level, a sort attribute after the one team fixes: give team too');
    try {
      ranked.collection({ status: 'OPEN', level: '2' });
    } catch (error) {
      expect((error as { extensions?: { code?: string } }).extensions?.code).toBe('BAD_USER_INPUT');
    }
  });
});
