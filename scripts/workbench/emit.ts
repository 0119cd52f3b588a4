/**
 * A Draft (infer.ts) → the model file's SDL text, in the vocabulary of
 * docs/model.md: `extend schema @table @index`, one `@item` type per
 * inferred type, PageInfo and a connection per listed type, and a Query of
 * `@get`, `@query` and nothing else (the draft declares no mutations: what a
 * design writes is not in its export). Every TODO of the draft becomes a
 * `# TODO:` comment where it applies.
 *
 * Text from the export (names, sample keys and values) reaches the draft
 * only as GraphQL names (names.ts), inside strings (`str`), or escaped in
 * comments (`comment`): a newline in a table name or a sample key cannot
 * end a comment and start live SDL.
 */
import type { Draft, DraftField, DraftType } from './draft.js';

/** Lone surrogates (which no GraphQL escape writes) as U+FFFD. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
/** A GraphQL string literal: JSON's escapes, which GraphQL reads alike. */
export const str = (s: string) => JSON.stringify(wellFormed(s));
const escapeOne = (c: string) => {
  const json = JSON.stringify(c).slice(1, -1);
  return json.length > 1 ? json : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
};
/** Comment text: every control character, line or paragraph separator written as its escape, so the comment stays one line. */
export const comment = (s: string) => wellFormed(s).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, escapeOne);
const PAGE_ARGS = 'first: Int, after: String, last: Int, before: String';
const todoLines = (todos: readonly string[], indent = '') => todos.map((t) => `${indent}# TODO: ${comment(t)}`);

/** The count of TODO comments in a draft's text. */
export const todoCount = (sdl: string): number => sdl.split('\n').filter((l) => /^\s*# TODO/.test(l)).length;

const typeOf = (f: DraftField) => `${f.reference ?? f.kind}${f.required ? '!' : ''}`;
const list = (templates: readonly string[]) => `[${templates.map(str).join(', ')}]`;

function directivesOf(type: DraftType): string[] {
  const indexed = type.indexed.map((i) => `@indexed(index: ${str(i.index)}${i.pk ? `, pk: ${list(i.pk)}` : ''}${i.sk ? `, sk: ${list(i.sk)}` : ''})`);
  return [`@item(pk: ${str(type.pk)}, sk: ${str(type.sk)})`, ...indexed];
}

/** The connection fields of a type: its children, its edges, the items of other types listed by a reference to it. */
function connectionFields(type: DraftType): string[] {
  return [
    ...type.children.map((c) => `  ${c.field}(${PAGE_ARGS}): ${c.type}Connection! @children`),
    ...type.edges.map(
      (e) =>
        `  ${e.field}(${PAGE_ARGS}): ${e.type}Connection! @edges(${e.inverseOf ? `inverseOf: ${str(e.inverseOf)}, ` : ''}${e.index ? `index: ${str(e.index)}, ` : ''}pk: ${str(e.pk)}, sk: ${str(e.sk)})`,
    ),
    ...type.fieldQueries.map((q) => `  ${q.field}(${PAGE_ARGS}): ${q.type}Connection! @query(index: ${str(q.index)})`),
  ];
}

function typeBlock(type: DraftType): string[] {
  if (type.standIn) {
    // No item of its own: a keyless type, known by the ids in its children's keys, listing them.
    return [str(type.about), ...todoLines(type.todos), `type ${type.name} {`, '  id: ID!', ...connectionFields(type), '}'];
  }
  const lines = [str(type.about), ...todoLines(type.todos), `type ${type.name} ${directivesOf(type).join(' ')} {`, '  id: ID!'];
  if (type.parent) lines.push(`  ${type.parent.field}: ${type.parent.type}! @parent`);
  // An attribute whose name is no GraphQL name is a field of a GraphQL name stored under it.
  for (const f of type.fields) lines.push(`  ${f.name}: ${typeOf(f)}${f.name === f.attribute ? '' : ` @attribute(name: ${str(f.attribute)})`}`);
  lines.push(...connectionFields(type), '}');
  return lines;
}

const connection = (node: string) => [
  `type ${node}Connection {`,
  `  edges: [${node}Edge!]!`,
  '  pageInfo: PageInfo!',
  '  totalCount: Int!',
  '}',
  '',
  `type ${node}Edge {`,
  '  cursor: String!',
  `  node: ${node}!`,
  '}',
];

const PRELUDE = [
  '"An ISO-8601 UTC timestamp, e.g. 2026-07-03T09:15:00.000Z."',
  'scalar DateTime',
  '',
  '"Relay PageInfo."',
  'type PageInfo {',
  '  hasNextPage: Boolean!',
  '  hasPreviousPage: Boolean!',
  '  startCursor: String',
  '  endCursor: String',
  '}',
  '',
];

function queryBlock(draft: Draft): string[] {
  const out = ['type Query {'];
  for (const type of draft.types) {
    // A derived id alone finds its item; an id beside key fields needs their values too (docs/model.md).
    const keyArgs = type.keyFields.map((k) => `${k}: ${type.fields.find((f) => f.name === k)!.kind}!`);
    const args = (type.derivedId ? ['id: ID!'] : [...(type.parent ? [`${type.parent.field}Id: ID!`] : []), ...keyArgs, 'id: ID!']).join(', ');
    out.push(`  ${type.get}(${args}): ${type.name} @get`);
  }
  for (const type of draft.types) {
    for (const q of type.queries) {
      const args = [...q.args.map((a) => `${a.name}: ${a.type}`), PAGE_ARGS].join(', ');
      out.push(`  ${str(`${type.name} items of one partition of ${q.index ?? 'the table'}.`)}`);
      out.push(`  ${q.name}(${args}): ${type.name}Connection! @query${q.index === null ? '' : `(index: ${str(q.index)})`}`);
    }
  }
  out.push('}', '');
  return out;
}

export function emitDraft(draft: Draft): string {
  const out: string[] = [
    comment(`# A draft model of the NoSQL Workbench model ${str(draft.modelName)} (table ${draft.tableName}),`),
    '# written by `npm run import`. Every "# TODO" marks a guess, or what the design',
    '# wants and the gateway cannot serve yet: edit the draft, then serve it with',
    comment(`# SCHEMA_FILE=<this file> TABLE_NAME=${draft.tableName} npm start (its demo data is the file beside it).`),
    '# The directives are supplied by the gateway: see docs/model.md.',
    ...todoLines(draft.todos),
    '',
  ];
  const schema = [
    `@table(pk: ${str(draft.pk)}, sk: ${str(draft.sk)})`,
    ...draft.indexes.map((i) => `@index(name: ${str(i.name)}, pk: ${list(i.pk)}${i.sk.length > 0 ? `, sk: ${list(i.sk)}` : ''})`),
  ];
  out.push('extend schema', ...schema.map((d) => `  ${d}`), '');
  const listed = new Set<string>();
  for (const t of draft.types) {
    for (const c of [...t.children, ...t.edges, ...t.fieldQueries]) listed.add(c.type);
    if (t.queries.length > 0) listed.add(t.name);
  }
  // Declared in the draft, though the gateway would write PageInfo and plain connections: the draft is there to be edited.
  out.push(...PRELUDE);
  for (const type of draft.types) out.push(...typeBlock(type), '');
  for (const node of listed) out.push(...connection(node), '');
  out.push(...queryBlock(draft));
  return out.join('\n');
}
