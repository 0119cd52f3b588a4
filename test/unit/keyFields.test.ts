/**
 * Table keys that hold stored fields (`msg#{sentAt}#{id}`): which fields a
 * key may hold, and what needs an item found by its id alone.
 */
import { describe, expect, it } from 'vitest';
import { problemsOf } from '../support/problems.js';

const model = (message: string, extra = '') => `
scalar DateTime
type Ticket @item(pk: "T#{id}", sk: "meta") {
  id: ID!
  messages(first: Int, after: String, last: Int, before: String): MessageConnection! @children
}
${message}
type MessageConnection { edges: [MessageEdge!]! pageInfo: PageInfo! }
type MessageEdge { cursor: String! node: Message! }
${extra}
type Query { ticket(id: ID!): Ticket @get }
`;

describe('a table key holding fields', () => {
  it('is served for a required text, enum or DateTime field and a @createdAt time', () => {
    expect(
      problemsOf(
        model(
          'enum Kind { NOTE MAIL } type Message @item(pk: "T#{ticket}", sk: "msg#{kind}#{sentAt}#{author}#{id}") { id: ID! kind: Kind! sentAt: DateTime! @createdAt author: String! ticket: Ticket! @parent }',
        ),
      ),
    ).toEqual([]);
  });

  it('refuses an optional field, a Float and a Boolean, naming each placeholder', () => {
    const problems = problemsOf(
      model(
        'type Message @item(pk: "T#{ticket}", sk: "m#{note}#{score}#{read}#{id}") { id: ID! note: String score: Float! read: Boolean! ticket: Ticket! @parent }',
      ),
    );
    expect(problems).toEqual([
      expect.stringContaining('Message @item(sk): placeholder {note} names note, which is optional'),
      expect.stringContaining('Message @item(sk): placeholder {score} names score, a Float'),
      expect.stringContaining('Message @item(sk): placeholder {read} names read, a Boolean'),
    ]);
  });

  it('refuses what would find such an item by its id alone: inverted, children of its own, a child of it', () => {
    const problems = problemsOf(
      model(
        `type Message @item(pk: "T#{ticket}", sk: "m#{sentAt}#{id}", inverted: true) { id: ID! sentAt: DateTime! @createdAt ticket: Ticket! @parent
          replies(first: Int, after: String, last: Int, before: String): ReplyConnection! @children }`,
        `type Reply @item(pk: "R#{message}", sk: "r#{id}") { id: ID! message: Message! @parent }
         type ReplyConnection { edges: [ReplyEdge!]! pageInfo: PageInfo! }
         type ReplyEdge { cursor: String! node: Reply! }`,
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Message @item(inverted): Message cannot be inverted: its key holds {sentAt}, so its id alone does not find it'),
        expect.stringContaining('Message.replies @children: Message cannot own connections: its key holds {sentAt}'),
        expect.stringContaining("Reply.message @parent: Message's key holds {sentAt}: a child's parent is found by its id alone"),
      ]),
    );
  });
});
