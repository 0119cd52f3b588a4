import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { loadModel } from '../../src/declaration/loadModel.js';
import { PREAMBLE, VALID } from '../support/teamsModel.js';
import { numberedProblemsOf } from '../support/problems.js';

describe('the model declaration', () => {
  it('reads the default model: six item types, both directions of the enrollment edges, every root field and mutation bound', () => {
    const model = loadModel();
    expect([...model.items.keys()].sort()).toEqual(['Course', 'Customer', 'Order', 'Part', 'Product', 'Student']);
    const courses = model.relations.get('Student.courses');
    const students = model.relations.get('Course.students');
    expect(courses).toMatchObject({
      kind: 'edges',
      direction: 'base',
      node: 'Course',
      counter: 'courseCount',
      copies: [{ field: 'title', attribute: 'courseTitle' }],
    });
    expect(students).toMatchObject({ kind: 'edges', direction: 'inverted', inverse: 'courses', sharded: { count: 'shards', max: 64, copy: 'courseShards' } });
    expect(model.relations.get('Customer.orders')).toMatchObject({
      kind: 'children',
      counter: 'orderCount',
      range: { after: 'placedAfter', before: 'placedBefore', where: [{ argument: 'status', field: 'status' }] },
    });
    expect(model.items.get('Order')).toMatchObject({ inverted: true, parent: { field: 'customer', type: 'Customer' } });
    expect(model.queries.map((q) => `${q.kind}:${q.field}`).sort()).toEqual([
      'catalog:courses',
      'catalog:students',
      'get:course',
      'get:customer',
      'get:order',
      'get:product',
      'get:student',
      'me:me',
      'node:node',
    ]);
    expect(model.mutations).toHaveLength(20);
    expect([...model.items.values()].map((i) => i.globalId)).toEqual(Array(6).fill('globalId'));
    expect(model.queries.find((q) => q.kind === 'me')).toMatchObject({
      type: 'Me',
      owners: [
        { field: 'student', type: 'Student' },
        { field: 'customer', type: 'Customer' },
      ],
    });
    expect(
      model.mutations
        .filter((m) => m.kind === 'update' || m.kind === 'delete')
        .map((m) => `${m.field}:${m.type}:${(m as { parentArgument: string | null }).parentArgument}`),
    ).toEqual([
      'updateStudent:Student:null',
      'deleteStudent:Student:null',
      'updateCourse:Course:null',
      'deleteCourse:Course:null',
      'updateCustomer:Customer:null',
      'deleteCustomer:Customer:null',
      'updateOrder:Order:null',
      'deleteOrder:Order:null',
      'updateProduct:Product:null',
      'deleteProduct:Product:null',
      'updatePart:Part:productId',
      'deletePart:Part:productId',
    ]);
  });

  describe('@get(by: NODE) and @get(by: CALLER)', () => {
    const NODE = VALID.replace('type Team @item', 'interface Node { globalId: ID! }\ntype Team implements Node @item')
      .replace('type Player @item', 'type Player implements Node @item')
      .replace('type Season @item', 'type Season implements Node @item')
      .replace(/(type (Team|Player|Season) implements Node.*\) \{)/g, '$1 globalId: ID!')
      .replace('  team(id: ID!): Team @get', '  team(id: ID!): Team @get\n  node(id: ID!): Node @get(by: NODE)');

    it('reads a model whose item types implement the node interface: the global id field is no stored attribute', () => {
      expect(numberedProblemsOf(NODE)).toEqual([]);
      const model = buildModel(NODE, 'model.graphql');
      expect(model.items.get('Team')).toMatchObject({ globalId: 'globalId', attributes: [{ name: 'name' }] });
      expect(model.queries.find((q) => q.kind === 'node')).toMatchObject({ field: 'node', interface: 'Node', idField: 'globalId' });
    });

    it('refuses an item type that does not implement the node interface', () => {
      const sdl = NODE.replace('type Season implements Node @item', 'type Season @item').replace(/(type Season.*\) \{) globalId: ID!/, '$1');
      expect(numberedProblemsOf(sdl)).toEqual([expect.stringMatching(/: Season: implement Node \(the model declares a @get\(by: NODE\) root field/)]);
    });

    it.each([
      [
        'an interface with more than one field',
        (s: string) => s.replace('interface Node { globalId: ID! }', 'interface Node { globalId: ID! name: String }'),
        /Node must have exactly one field, of type ID!/,
      ],
      [
        'the global id named id',
        (s: string) => s.replace('interface Node { globalId: ID! }', 'interface Node { id: ID! }').replace(/ globalId: ID!/g, ''),
        /Node\.id would replace every item type's own id/,
      ],
      [
        'a node field returning an item type',
        (s: string) => s.replace('node(id: ID!): Node @get(by: NODE)', 'node(id: ID!): Team @get(by: NODE)'),
        /@get\(by: NODE\) returns an interface/,
      ],
      [
        'a node field with an @access',
        (s: string) => s.replace('node(id: ID!): Node @get(by: NODE)', 'node(id: ID!): Node @get(by: NODE) @access(rule: ANYONE)'),
        /takes no @access of its own/,
      ],
    ])('refuses %s', (_, change, message) => {
      expect(numberedProblemsOf(change(NODE))).toContainEqual(expect.stringMatching(message));
    });

    const ME = VALID.replace('type Team @item(pk: "TEAM#{id}", sk: "META")', 'type Team @item(pk: "TEAM#{id}", sk: "META", claim: "team_id")').replace(
      'type Query {',
      'type Me { team: Team }\ntype Query {\n  me: Me @get(by: CALLER)',
    );

    it('reads a caller type of owner types', () => {
      expect(numberedProblemsOf(ME)).toEqual([]);
      expect(buildModel(ME, 'model.graphql').queries.find((q) => q.kind === 'me')).toMatchObject({ type: 'Me', owners: [{ field: 'team', type: 'Team' }] });
    });

    it.each([
      ['a field of a type without a claim', 'type Me { team: Team player: Player }', /Me\.player: Player has no @item\(claim:\)/],
      ['a non-null field', 'type Me { team: Team! }', /Me\.team: a field of the @get\(by: CALLER\) type Me returns one item type with a claim, nullable/],
      ['a field of a plain type', 'type Me { team: Team count: Int }', /Me\.count: a field of the @get\(by: CALLER\) type Me/],
    ])('refuses %s', (_, me, message) => {
      expect(numberedProblemsOf(ME.replace('type Me { team: Team }', me))).toContainEqual(expect.stringMatching(message));
    });
  });

  describe('@update and @delete of a child type', () => {
    const CHILD = VALID.replace(
      'type Season @item(pk: "TEAM#{team}", sk: "SEASON#{id}", inverted: true)',
      'type Season @item(pk: "TEAM#{team}", sk: "SEASON#{id}")',
    )
      .replace('input AddSeasonInput', 'input UpdateSeasonInput { year: Int }\ninput AddSeasonInput')
      .replace('  season(id: ID!): Season @get', '  season(teamId: ID!, id: ID!): Season @get');

    it("takes the parent's id in the argument named by parent", () => {
      const sdl = CHILD.replace(
        'type Mutation {',
        'type Mutation {\n  updateSeason(teamId: ID!, id: ID!, input: UpdateSeasonInput!): Season! @update(parent: "teamId")\n  deleteSeason(teamId: ID!, id: ID!): ID! @delete(type: "Season", parent: "teamId")',
      );
      expect(numberedProblemsOf(sdl)).toEqual([]);
    });

    it('refuses a child delete without it (unless the type is inverted), and parent on a top-level type', () => {
      const sdl = CHILD.replace(
        'type Mutation {',
        'type Mutation {\n  deleteSeason(id: ID!): ID! @delete(type: "Season")\n  removeTeam(id: ID!): ID! @delete(type: "Team", parent: "id")',
      );
      expect(numberedProblemsOf(sdl)).toEqual([
        expect.stringMatching(/Mutation\.deleteSeason @delete: Season is a child of Team: name the argument holding its id in parent/),
        expect.stringMatching(/Mutation\.removeTeam @delete\(parent\): Team has no @parent field/),
      ]);
      expect(numberedProblemsOf(VALID.replace('type Mutation {', 'type Mutation {\n  deleteSeason(id: ID!): ID! @delete(type: "Season")'))).toEqual([]);
    });
  });

  it('reads a valid model of its own: key templates, relations, inverse sides and mutations', () => {
    expect(numberedProblemsOf(VALID)).toEqual([]);
    const model = buildModel(VALID, 'model.graphql');
    const team = model.items.get('Team')!;
    expect(team.pk.fill({ id: 't1' })).toBe('TEAM#t1');
    expect(model.items.get('Season')!.pk.match('TEAM#t1')).toEqual({ team: 't1' });
    expect(model.relations.get('Team.players')).toMatchObject({ edgeAttributes: [{ name: 'joinedAt', createdAt: true }, { name: 'number' }] });
    expect(model.mutations.find((m) => m.field === 'join')).toMatchObject({ kind: 'link', edges: 'Team.players', from: 'teamId', to: 'playerId' });
    expect(model.queries.find((q) => q.field === 'season')).toMatchObject({ kind: 'get', arguments: { id: 'id' } });
  });

  it('keeps no source locations once a model passes (they hold every token of the file), and still names lines in refusals', () => {
    const model = buildModel(VALID, 'model.graphql');
    const located: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      if ((node as { loc?: unknown }).loc !== undefined) located.push(String((node as { kind?: string }).kind));
      Object.values(node).forEach(walk);
    };
    walk(model.document);
    walk(model.typeDefs);
    walk(model.schema.getType('Team')!.astNode);
    expect(located).toEqual([]);
    expect(model.schema.getType('Team')!.astNode?.name.value).toBe('Team');
    expect(numberedProblemsOf(VALID.replace('year: Int!', 'year: Year!'))).toEqual([expect.stringMatching(/^\d+: Season\.year: unknown type Year$/)]);
  });

  it('refuses a model that names an unknown type, with its line', () => {
    const problems = numberedProblemsOf(VALID.replace('year: Int!', 'year: Year!'));
    expect(problems).toEqual([expect.stringMatching(/^\d+: Season\.year: unknown type Year$/)]);
    expect(problems[0].startsWith(`${VALID.split('\n').findIndex((l) => l.includes('year: Int!')) + 1}:`)).toBe(true);
  });

  it('refuses a model whose placeholder names no field', () => {
    expect(numberedProblemsOf(VALID.replace('sk: "SEASON#{id}"', 'sk: "SEASON#{id}#{club}"'))).toContainEqual(
      expect.stringContaining('Season @item(sk): placeholder {club} names no field'),
    );
  });

  it('refuses two child types whose sort-key prefixes overlap in one partition', () => {
    const sdl = VALID.replace(
      'type SeasonConnection',
      'type Match @item(pk: "TEAM#{team}", sk: "SEASON#X{id}") { id: ID! team: Team! @parent }\ntype SeasonConnection',
    );
    expect(numberedProblemsOf(sdl)).toContainEqual(expect.stringMatching(/Match: its sort-key prefix "SEASON#X" overlaps "SEASON#" of Season items/));
  });

  it('refuses a child type whose prefix overlaps the edges kept in the same partition', () => {
    const sdl = VALID.replace('sk: "SEASON#{id}"', 'sk: "PLAYER#{id}"');
    expect(numberedProblemsOf(sdl)).toContainEqual(expect.stringContaining('overlaps'));
  });

  it("refuses @children on a child type found only with its parent's id, and @edges on a child type (an edge holds its owner's partition)", () => {
    const child = (inverted: string) =>
      VALID.replace(
        'type Season @item(pk: "TEAM#{team}", sk: "SEASON#{id}", inverted: true) { id: ID! year: Int! team: Team! @parent }',
        `type Season @item(pk: "TEAM#{team}", sk: "SEASON#{id}"${inverted}) { id: ID! year: Int! team: Team! @parent
        games(first: Int, after: String, last: Int, before: String): GameConnection! @children
        fans(first: Int, after: String, last: Int, before: String): SeasonFanConnection! @edges }
      type Game @item(pk: "TEAM#{season}", sk: "GAME#{id}") { id: ID! season: Season! @parent }
      type GameConnection { edges: [GameEdge!]! pageInfo: PageInfo! totalCount: Int! }
      type GameEdge { cursor: String! node: Game! }
      type SeasonFanConnection { edges: [SeasonFanEdge!]! pageInfo: PageInfo! totalCount: Int! }
      type SeasonFanEdge { cursor: String! node: Player! }`,
      );
    const problems = numberedProblemsOf(child(''));
    expect(
      problems.some((p) =>
        p.includes("Season.games @children: Season is a child type found only with its parent's id: make it inverted: true to give it children"),
      ),
    ).toBe(true);
    expect(
      problems.some((p) => p.includes("Season.fans @edges: edges live in Season's partition, so its pk must hold {id} and Season cannot be a child type")),
    ).toBe(true);
    // Inverted, its children are served (their delete follows them); its edges are not yet.
    expect(numberedProblemsOf(child(', inverted: true')).filter((p) => p.includes('Season.games'))).toEqual([]);
  });

  it('refuses a connection field that no directive binds', () => {
    expect(numberedProblemsOf(VALID.replace('@children(counter: "seasonCount")', ''))).toEqual([
      expect.stringContaining('Team.seasons: no directive binds this connection field'),
    ]);
  });

  it('refuses a root field that no directive binds', () => {
    expect(numberedProblemsOf(VALID.replace('player(id: ID!): Player @get', 'player(id: ID!): Player'))).toEqual([
      expect.stringContaining('Query.player: no directive binds this field'),
    ]);
  });

  it('refuses directives on the wrong kind of field', () => {
    const sdl = VALID.replace('name: String!\n  players', 'name: String! @children\n  players')
      .replace('year: Int! team: Team! @parent', 'year: Int! @parent team: Team! @parent')
      .replace('createTeam(input: CreateTeamInput!): Team! @create', 'createTeam(input: CreateTeamInput!): Team! @get');
    const problems = numberedProblemsOf(sdl);
    expect(problems).toContainEqual(expect.stringContaining('Team.name @children: belongs on a connection field'));
    expect(problems).toContainEqual(expect.stringContaining("Season.year @parent: the field's type Int is not an @item type"));
    expect(problems).toContainEqual(expect.stringContaining('Mutation.createTeam @get: belongs on a field of Query'));
  });

  it('refuses an inverse side that names no @edges field, and a copy of a field the node lacks', () => {
    const problems = numberedProblemsOf(
      VALID.replace('@edges(inverseOf: "players")', '@edges(inverseOf: "roster")').replace('field: "nick"', 'field: "nickname"'),
    );
    expect(problems).toContainEqual(expect.stringContaining('Player.teams @edges(inverseOf): names no @edges field of Team: roster'));
    expect(problems).toContainEqual(expect.stringContaining('Team.players @edges(copy): copies nickname, which is no stored field of Player'));
  });

  it('refuses a child created without naming its parent argument, and link arguments that are no edge fields', () => {
    const problems = numberedProblemsOf(
      VALID.replace('@create(parent: "teamId")', '@create').replace('number: Int): TeamPlayerEdge!', 'shirt: Int): TeamPlayerEdge!'),
    );
    expect(problems).toContainEqual(expect.stringContaining('Mutation.addSeason @create: Season is a child of Team'));
    expect(problems).toContainEqual(expect.stringContaining('Mutation.join(shirt): is no edge field of TeamPlayerEdge'));
  });

  it('refuses templates that cannot be read back: two placeholders side by side', () => {
    expect(numberedProblemsOf(VALID.replace('sk: "SEASON#{id}"', 'sk: "SEASON#{team}{id}"'))).toContainEqual(
      expect.stringContaining('has two placeholders side by side'),
    );
  });

  it('refuses a model that redefines a supplied directive', () => {
    expect(numberedProblemsOf(`directive @item(pk: String!) on OBJECT\n${VALID}`)).toEqual([expect.stringContaining('@item: is supplied by the gateway')]);
  });
});

describe('one meaning per stored attribute', () => {
  it("refuses a counter stored under a field of the same item, a key, or another relation's counter", () => {
    expect(numberedProblemsOf(VALID.replace('counter: "seasonCount"', 'counter: "name"'))).toEqual([
      expect.stringMatching(
        /^\d+: Team\.seasons @children\(counter\): the counter of Team\.seasons is stored under name, which already holds the field Team\.name: name it otherwise$/,
      ),
    ]);
    expect(numberedProblemsOf(VALID.replace('counter: "seasonCount"', 'counter: "SK"'))).toEqual([
      expect.stringContaining('Team.seasons @children(counter): the counter of Team.seasons is stored under SK, an attribute the gateway keeps (a key)'),
    ]);
    expect(numberedProblemsOf(VALID.replace('counter: "seasonCount"', 'counter: "playerCount"'))).toEqual([
      expect.stringContaining('the counter of Team.seasons is stored under playerCount, which already holds the counter of Team.players'),
    ]);
  });

  it("refuses a field named like an attribute the gateway keeps: a key, a cascade's mark, the time to live", () => {
    for (const name of ['GSI1PK', 'deletingAt', 'propagatingSince', 'expiresAt']) {
      expect(numberedProblemsOf(VALID.replace('nick: String!', `nick: String!\n  ${name}: String`))).toEqual([
        expect.stringContaining(`Player.${name}: the field Player.${name} is stored under ${name}, an attribute the gateway keeps`),
      ]);
    }
  });

  it('refuses a field named like the version of a copied field', () => {
    expect(numberedProblemsOf(VALID.replace('nick: String!', 'nick: String!\n  nickVersion: Int'))).toEqual([
      expect.stringContaining(
        'Team.players @edges(copy): the version of Player.nick is stored under nickVersion, which already holds the field Player.nickVersion',
      ),
    ]);
  });

  it("refuses a copy stored under an edge field, a key, or the other side's copy", () => {
    expect(numberedProblemsOf(VALID.replace('attribute: "playerNick"', 'attribute: "joinedAt"'))).toEqual([
      expect.stringContaining(
        'Team.players @edges(copy): the copy of Player.nick (Team.players) is stored under joinedAt, which already holds the edge field TeamPlayerEdge.joinedAt',
      ),
    ]);
    expect(numberedProblemsOf(VALID.replace('attribute: "playerNick"', 'attribute: "GSI1SK"'))).toEqual([
      expect.stringContaining('stored under GSI1SK, an attribute the gateway keeps (a key)'),
    ]);
    const bothSides = VALID.replace('@edges(inverseOf: "players")', '@edges(inverseOf: "players", copy: [{ field: "name", attribute: "playerNick" }])');
    expect(numberedProblemsOf(bothSides)).toEqual([
      expect.stringContaining(
        'Player.teams @edges(copy): the copy of Team.name (Player.teams) is stored under playerNick, which already holds the copy of Player.nick (Team.players)',
      ),
    ]);
  });

  it('accepts one field copied by two relations (one version) and counters of the same name on different items', () => {
    const sdl = VALID.replace(
      '@edges(inverseOf: "players")',
      '@edges(inverseOf: "players", copy: [{ field: "name", attribute: "teamName" }], counter: "playerCount")',
    );
    expect(numberedProblemsOf(sdl)).toEqual([]);
  });

  it('lists the bookkeeping attributes the writes and the plan use', async () => {
    const { BOOKKEEPING_ATTRIBUTES } = await import('../../src/declaration/storedNames.js');
    const { COUNTING_ATTR, DELETING_ATTR, PROPAGATING_ATTR } = await import('../../src/writes/conditions.js');
    const { RESHARD_FROM_ATTR, RESHARD_MOVES_ATTR, RESHARD_TO_ATTR, RESTORING_ATTR } = await import('../../src/plan/sharding.js');
    const { TTL_ATTRIBUTE } = await import('../../src/dynamo/table.js');
    for (const name of [
      COUNTING_ATTR,
      DELETING_ATTR,
      PROPAGATING_ATTR,
      RESHARD_FROM_ATTR,
      RESHARD_MOVES_ATTR,
      RESHARD_TO_ATTR,
      RESTORING_ATTR,
      TTL_ATTRIBUTE,
    ]) {
      expect(BOOKKEEPING_ATTRIBUTES).toContain(name);
    }
  });
});

describe('where children live', () => {
  it('serves children in a partition of their own that the parent id names', () => {
    expect(numberedProblemsOf(VALID.replace('pk: "TEAM#{team}", sk: "SEASON#{id}"', 'pk: "LEAGUE#{team}#seasons", sk: "SEASON#{id}"'))).toEqual([]);
  });

  it("refuses a child whose partition needs more than its parent's id, and one whose keys do not hold its parent", () => {
    expect(numberedProblemsOf(VALID.replace('pk: "TEAM#{team}", sk: "SEASON#{id}"', 'pk: "TEAM#{team}#{id}", sk: "SEASON#{id}"'))).toEqual([
      '-: Team.seasons @children: nothing fills {id} of Season\'s partition key there, "TEAM#{team}#{id}": the Team\'s id fills {team}',
    ]);
    expect(numberedProblemsOf(VALID.replace('pk: "TEAM#{team}", sk: "SEASON#{id}"', 'pk: "SEASON#{id}", sk: "META"'))).toContainEqual(
      expect.stringContaining("Season @item: a child's key holds its parent's id: pk or sk must hold {team}"),
    );
  });

  it('refuses a child of a child type that cannot be found by its id alone', () => {
    const sdl = VALID.replace('sk: "SEASON#{id}", inverted: true)', 'sk: "SEASON#{id}")').replace(
      'type SeasonConnection',
      'type Game @item(pk: "SEASON#{season}", sk: "GAME#{id}") { id: ID! season: Season! @parent }\ntype SeasonConnection',
    );
    expect(numberedProblemsOf(sdl)).toContainEqual(
      expect.stringContaining(
        "Game.season @parent: Season is a child type found only with its own parent's id: make it inverted: true, so Game can load it by id",
      ),
    );
  });
});

describe('mutations that could not write what the model reads back', () => {
  it('refuses a create input without a required stored field, or with it nullable', () => {
    expect(numberedProblemsOf(VALID.replace('input CreateTeamInput { id: ID name: String! }', 'input CreateTeamInput { id: ID }'))).toEqual([
      expect.stringMatching(/^\d+: CreateTeamInput: has no field name: every Team needs it \(Team\.name is required\)$/),
    ]);
    expect(numberedProblemsOf(VALID.replace('input CreateTeamInput { id: ID name: String! }', 'input CreateTeamInput { id: ID name: String }'))).toEqual([
      expect.stringContaining('CreateTeamInput.name: must be non-null: Team.name is required'),
    ]);
  });

  it("refuses an input field whose type is not the stored field's", () => {
    expect(numberedProblemsOf(VALID.replace('input UpdateTeamInput { name: String }', 'input UpdateTeamInput { name: Int }'))).toEqual([
      expect.stringContaining('UpdateTeamInput.name: takes Int, but Team.name is String'),
    ]);
    expect(numberedProblemsOf(VALID.replace('input AddSeasonInput { id: ID year: Int! }', 'input AddSeasonInput { id: ID year: [Int!]! }'))).toEqual([
      expect.stringContaining('AddSeasonInput.year: takes [Int], but Season.year is Int'),
    ]);
  });

  it('refuses a link that cannot set a required edge field, or sets it from a nullable or mistyped argument', () => {
    const required = VALID.replace(/number: Int node/g, 'number: Int! node');
    expect(numberedProblemsOf(required.replace('join(teamId: ID!, playerId: ID!, number: Int)', 'join(teamId: ID!, playerId: ID!)'))).toEqual([
      expect.stringContaining('Mutation.join @addEdge: takes no argument number, so its edges would lack the required edge field TeamPlayerEdge.number'),
    ]);
    expect(numberedProblemsOf(required)).toEqual([
      expect.stringContaining('Mutation.join(number): must be non-null: the edge field TeamPlayerEdge.number is required'),
    ]);
    expect(numberedProblemsOf(VALID.replace('playerId: ID!, number: Int)', 'playerId: ID!, number: String)'))).toEqual([
      expect.stringContaining('Mutation.join(number): takes String, but the edge field TeamPlayerEdge.number is Int'),
    ]);
  });

  it('refuses a link or unlink whose answer is not what it returns', () => {
    expect(numberedProblemsOf(VALID.replace('number: Int): TeamPlayerEdge!', 'number: Int): Team!'))).toEqual([
      expect.stringContaining('Mutation.join @addEdge: returns Team!; it answers the new edge: return TeamPlayerEdge!'),
    ]);
    expect(numberedProblemsOf(VALID.replace('leave(teamId: ID!, playerId: ID!): Boolean!', 'leave(teamId: ID!, playerId: ID!): ID!'))).toEqual([
      expect.stringContaining('Mutation.leave @removeEdge: returns ID!; it answers true: return Boolean!'),
    ]);
  });

  it('refuses @createdAt on an edge field that cannot hold a time', () => {
    expect(numberedProblemsOf(VALID.replace(/joinedAt: DateTime!/g, 'joinedAt: Int!'))).toContainEqual(
      expect.stringContaining('TeamPlayerEdge.joinedAt @createdAt: belongs on a DateTime or String field'),
    );
  });
});

describe('constraints on values, declared with @attribute', () => {
  it('reads @attribute(name:) as the attribute the field is stored under', () => {
    const sdl = VALID.replace('nick: String!', 'nick: String! @attribute(name: "player#nick")');
    expect(numberedProblemsOf(sdl)).toEqual([]);
    expect(
      buildModel(sdl, 'model.graphql')
        .items.get('Player')!
        .attributes.find((a) => a.name === 'nick'),
    ).toMatchObject({ storedAs: 'player#nick' });
  });

  it('refuses an empty @attribute(name:), naming the field', () => {
    expect(numberedProblemsOf(VALID.replace('nick: String!', 'nick: String! @attribute(name: "")'))).toEqual([
      expect.stringContaining('Player.nick @attribute(name): is empty'),
    ]);
  });

  it('reads min, max and format into the model; a field without @attribute is unconstrained', () => {
    const sdl = VALID.replace('nick: String!', 'nick: String!\n  mail: String @attribute(format: EMAIL, name: "mail")').replace(
      'year: Int!',
      'year: Int! @attribute(min: 1900, max: 2100)',
    );
    expect(numberedProblemsOf(sdl)).toEqual([]);
    const model = buildModel(sdl, 'model.graphql');
    const attribute = (type: string, name: string) => model.items.get(type)!.attributes.find((a) => a.name === name);
    expect(attribute('Season', 'year')).toMatchObject({ storedAs: 'year', constraints: { min: 1900, max: 2100, format: null } });
    expect(attribute('Player', 'mail')).toMatchObject({ storedAs: 'mail', constraints: { min: null, max: null, format: 'EMAIL' } });
    expect(attribute('Team', 'name')).toMatchObject({ storedAs: 'name', constraints: { min: null, max: null, format: null } });
  });

  it("reads the default model's rules from schema.graphql: non-negative totals and quantities, email addresses", () => {
    const model = loadModel();
    const constraints = (type: string, name: string) => model.items.get(type)!.attributes.find((a) => a.name === name)!.constraints;
    expect(constraints('Order', 'total')).toEqual({ min: 0, max: null, format: null });
    expect(constraints('Part', 'quantity')).toEqual({ min: 0, max: null, format: null });
    expect(constraints('Student', 'email')).toEqual({ min: null, max: null, format: 'EMAIL' });
    expect(constraints('Customer', 'email')).toEqual({ min: null, max: null, format: 'EMAIL' });
  });

  it('refuses min or max on a field that is no number, and format on a field that is no text, naming the field', () => {
    const problems = numberedProblemsOf(
      VALID.replace('nick: String!', 'nick: String! @attribute(min: 0)')
        .replace('year: Int!', 'year: Int! @attribute(format: EMAIL)')
        .replace('joinedAt: DateTime! @createdAt', 'joinedAt: DateTime! @createdAt @attribute(max: 3)'),
    );
    expect(problems).toContainEqual(expect.stringContaining('Player.nick @attribute(min): applies to Int and Float fields; Player.nick is String'));
    expect(problems).toContainEqual(expect.stringContaining('Season.year @attribute(format): applies to String and ID fields; Season.year is Int'));
    expect(problems).toContainEqual(expect.stringContaining('TeamPlayerEdge.joinedAt @attribute(max): applies to Int and Float fields'));
  });

  it('refuses bounds that no value meets, and @attribute where nothing is stored', () => {
    const problems = numberedProblemsOf(
      VALID.replace('year: Int!', 'year: Int! @attribute(min: 5, max: 1)').replace(
        '  id: ID!\n  name: String!',
        '  id: ID! @attribute(format: EMAIL)\n  name: String!',
      ),
    );
    expect(problems).toContainEqual(expect.stringContaining('Season.year @attribute: min 5 is above max 1'));
    expect(problems).toContainEqual(expect.stringContaining('Team.id @attribute(format): applies to stored fields; the id takes name alone'));
  });

  it('refuses edge types of one relation that declare different constraints for the edge items they both read', () => {
    const problems = numberedProblemsOf(
      VALID.replace('joinedAt: DateTime! @createdAt number: Int node', 'joinedAt: DateTime! @createdAt number: Int @attribute(min: 0) node'),
    );
    expect(problems).toContainEqual(
      expect.stringContaining('Player.teams @edges(inverseOf): the edge types PlayerTeamEdge and TeamPlayerEdge must have the same edge fields'),
    );
  });
});

describe('copies that renames can keep current', () => {
  it('refuses a copy of an optional field (clearing it would leave the old copy on every edge) or of a number', () => {
    expect(numberedProblemsOf(VALID.replace('nick: String!', 'nick: String'))).toContainEqual(
      expect.stringContaining('Team.players @edges(copy): copies Player.nick, which is optional: a copy is of a required text field'),
    );
    expect(numberedProblemsOf(VALID.replace('nick: String!', 'nick: Int!'))).toContainEqual(
      expect.stringContaining('Team.players @edges(copy): copies Player.nick, which is Int: a copy is of a required text field'),
    );
  });
});

describe('edges whose node changes need the way back', () => {
  const oneWay = VALID.replace('  teams(first: Int, after: String, last: Int, before: String): PlayerTeamConnection! @edges(inverseOf: "players")\n', '');

  it('refuses edges copying fields of a node type that declares no inverse side (renames could not reach the copies)', () => {
    expect(oneWay).not.toBe(VALID);
    expect(numberedProblemsOf(oneWay)).toEqual([
      expect.stringMatching(
        /^\d+: Team\.players @edges: Player declares no inverse side \(an @edges field with inverseOf: "players"\), through which renames of Player reach its copies$/,
      ),
    ]);
  });

  it('refuses edges to a node type that a mutation deletes but that declares no inverse side (the edges would outlive it)', () => {
    const sdl = oneWay
      .replace('@edges(copy: [{ field: "nick", attribute: "playerNick" }], counter: "playerCount")', '@edges(counter: "playerCount")')
      .replace('  leave(', '  deletePlayer(id: ID!): ID! @delete(type: "Player")\n  leave(');
    expect(numberedProblemsOf(sdl)).toEqual([
      expect.stringContaining(
        'Team.players @edges: Player declares no inverse side (an @edges field with inverseOf: "players"), through which a delete of Player removes these edges',
      ),
    ]);
  });

  it('accepts one-way edges to a node type that is neither copied nor deleted', () => {
    expect(
      numberedProblemsOf(
        oneWay.replace('@edges(copy: [{ field: "nick", attribute: "playerNick" }], counter: "playerCount")', '@edges(counter: "playerCount")'),
      ),
    ).toEqual([]);
  });
});

describe("write sharding within the layout's range", () => {
  it('refuses @edges(maxShards) outside 1–64: a create puts every counter item in one transaction, a page reads every shard', async () => {
    const { readFileSync } = await import('node:fs');
    const model = readFileSync('schema.graphql', 'utf8');
    expect(model).toContain('shards: "shards", shardsCopy');
    for (const max of ['1000', '0']) {
      expect(numberedProblemsOf(model.replace('shards: "shards", shardsCopy', `shards: "shards", maxShards: ${max}, shardsCopy`))).toEqual([
        expect.stringContaining(`Course.students @edges(maxShards): must be a whole number 1–64 (got ${max})`),
      ]);
    }
  });

  it('refuses write sharding on the side that owns the edges, and maxShards or shardsCopy without shards', async () => {
    const { readFileSync } = await import('node:fs');
    const model = readFileSync('schema.graphql', 'utf8');
    const base = '@edges(copy: [{ field: "title", attribute: "courseTitle" }], counter: "courseCount"';
    expect(model).toContain(base);
    expect(numberedProblemsOf(model.replace(base, `${base}, shards: "shards"`))).toContainEqual(
      expect.stringContaining('Student.courses @edges(shards): belongs on the inverse side'),
    );
    expect(numberedProblemsOf(model.replace(base, `${base}, maxShards: 8`))).toEqual([
      expect.stringContaining('Student.courses @edges: maxShards and shardsCopy belong with shards'),
    ]);
  });
});

describe('children narrowed by an instant (@query beside @children)', () => {
  const KEY = '@indexed(index: "GSI2", pk: ["ORDERS#{customer}"], sk: ["{placedAt}#{id}"])';
  const READ = '@query(index: "GSI2", from: "placedAfter", until: "placedBefore", filter: ["status"])';

  it("reads the default model's orders by date: the instant key of Order and the narrowing arguments of Customer.orders", () => {
    const model = loadModel();
    expect(model.items.get('Order')).toMatchObject({ byInstant: { by: 'placedAt', pk: { source: 'ORDERS#{customer}' } }, indexed: [] });
    expect(model.relations.get('Customer.orders')).toMatchObject({
      kind: 'children',
      owned: true,
      index: null,
      range: { after: 'placedAfter', before: 'placedBefore', where: [{ argument: 'status', field: 'status' }] },
    });
  });

  it("refuses a narrowed read whose node has no key by instant there: a pk without the parent (every parent's children in one range read), with {id}, or an sk that is no instant", async () => {
    const { readFileSync } = await import('node:fs');
    const model = readFileSync('schema.graphql', 'utf8');
    expect(model).toContain(KEY);
    for (const key of [
      '@indexed(index: "GSI2", pk: ["ORDERS"], sk: ["{placedAt}#{id}"])',
      '@indexed(index: "GSI2", pk: ["ORDERS#{customer}#{id}"], sk: ["{placedAt}#{id}"])',
      '@indexed(index: "GSI2", pk: ["ORDERS#{customer}"], sk: ["{status}#{id}"])',
    ]) {
      expect(numberedProblemsOf(model.replace(KEY, key))).toContainEqual(
        expect.stringContaining(
          'Customer.orders @query: Order has no key by instant in GSI2: declare @indexed(index: "GSI2", pk: ["<prefix>{customer}"], sk: ["{<DateTime field>}#{id}"]) on Order',
        ),
      );
    }
  });

  it("refuses filter on a @query that stands alone (on a root field or a type's field), where nothing would apply it", () => {
    const root = VALID.replace(
      'type Query {',
      'type Query {\n  teamSeasons(team: ID!, first: Int, after: String, last: Int, before: String, year: Int): SeasonConnection! @query(filter: ["year"])',
    );
    expect(numberedProblemsOf(root)).toContainEqual(
      expect.stringContaining('Query.teamSeasons @query(filter): filters a narrowed read of @children: use it on a field with @children beside @query'),
    );
    const onType = VALID.replace('@children(counter: "seasonCount")', '@query(filter: ["year"])').replace(
      'seasons(first: Int, after: String, last: Int, before: String)',
      'seasons(first: Int, after: String, last: Int, before: String, year: Int)',
    );
    expect(numberedProblemsOf(onType)).toContainEqual(expect.stringContaining('Team.seasons @query(filter): filters a narrowed read of @children'));
  });

  it('refuses a narrowed read of another index, without until, or naming arguments and fields that do not exist', async () => {
    const { readFileSync } = await import('node:fs');
    const model = readFileSync('schema.graphql', 'utf8');
    expect(model).toContain(READ);
    expect(numberedProblemsOf(model.replace(READ, READ.replace('"GSI2"', '"GSI1"')))).toContainEqual(
      expect.stringContaining('Customer.orders @query(index): beside @children reads the children by instant in GSI2 (index: "GSI2"); got "GSI1"'),
    );
    expect(numberedProblemsOf(model.replace(READ, READ.replace(', until: "placedBefore"', '')))).toContainEqual(
      expect.stringContaining('Customer.orders @query: beside @children names both from and until'),
    );
    expect(numberedProblemsOf(model.replace(READ, READ.replace('filter: ["status"]', 'filter: ["status", "total"]')))).toEqual([
      expect.stringContaining('Customer.orders @query(filter): names no argument of the field: total'),
    ]);
    expect(numberedProblemsOf(model.replace(READ, READ.replace('filter: ["status"]', 'filter: ["first"]')))).toContainEqual(
      expect.stringContaining('Customer.orders @query(filter): names no stored field of Order: first'),
    );
  });
});

describe('GSI2 partitions of one meaning', () => {
  it("refuses two catalogs with one key (shared entries and counters) and an instant-key partition that can be a catalog's", async () => {
    const { readFileSync } = await import('node:fs');
    const model = readFileSync('schema.graphql', 'utf8');
    expect(numberedProblemsOf(model.replace('key: "CATALOG#STUDENT"', 'key: "CATALOG#COURSE"'))).toEqual([
      expect.stringContaining("Query.students @catalog(key): CATALOG#COURSE is already the key of Query.courses's catalog"),
    ]);
    expect(numberedProblemsOf(model.replace('pk: ["ORDERS#{customer}"]', 'pk: ["CATALOG#STUDENT#{customer}"]'))).toEqual([
      expect.stringContaining(
        'Order @indexed(index: "GSI2", pk): "CATALOG#STUDENT#{customer}" can name "CATALOG#STUDENT#0", a partition of Query.students\'s catalog in GSI2',
      ),
    ]);
  });
});
