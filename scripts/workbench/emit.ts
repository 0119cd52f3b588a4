/**
 * A Draft (infer.ts) → the model file's SDL text, in the vocabulary of
 * docs/model.md: `extend schema @table @index`, one `@item` type per
 * inferred type, PageInfo and a connection per listed type, and a Query of
 * `@get`, `@query` and nothing else (the draft declares no mutations: what a
 * design writes is not in its export). Every TODO of the draft becomes a
 * `# TODO:` comment where it applies.
 */
import type { Draft, DraftType } from './infer.js';

const str = (s: string) => JSON.stringify(s);
const PAGE_ARGS = 'first: Int, after: String, last: Int, before: String';
const todoLines = (todos: readonly string[], indent = '') => todos.map((t) => `${indent}# TODO: ${t}`);

/** The count of TODO comments in a draft's text. */
export const todoCount = (sdl: string): number => sdl.split('\n').filter((l) => /^\s*# TODO/.test(l)).length;

function typeBlock(type: DraftType): string[] {
  if (type.standIn) {
    // No item of its own: a keyless type, known by the ids in its children's keys, listing them.
    const lines = [str(type.about), ...todoLines(type.todos), `type ${type.name} {`, '  id: ID!'];
    for (const c of type.children) lines.push(`  ${c.field}(${PAGE_ARGS}): ${c.type}Connection! @children`);
    lines.push('}');
    return lines;
  }
  const directives = [`@item(pk: ${str(type.pk)}, sk: ${str(type.sk)})`, ...type.indexed.map((i) => `@indexed(index: ${str(i)})`)];
  const lines = [str(type.about), ...todoLines(type.todos), `type ${type.name} ${directives.join(' ')} {`, '  id: ID!'];
  if (type.parent) lines.push(`  ${type.parent.field}: ${type.parent.type}! @parent`);
  // An attribute whose name is no GraphQL name is a field of a GraphQL name stored under it.
  for (const f of type.fields) lines.push(`  ${f.name}: ${f.kind}${f.required ? '!' : ''}${f.name === f.attribute ? '' : ` @attribute(name: ${str(f.attribute)})`}`);
  for (const c of type.children) lines.push(`  ${c.field}(${PAGE_ARGS}): ${c.type}Connection! @children`);
  lines.push('}');
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

export function emitDraft(draft: Draft): string {
  const out: string[] = [
    `# A draft model of the NoSQL Workbench model ${str(draft.modelName)} (table ${draft.tableName}),`,
    '# written by `npm run import`. Every "# TODO" marks a guess, or what the design',
    '# wants and the gateway cannot serve yet: edit the draft, then serve it with',
    `# SCHEMA_FILE=<this file> TABLE_NAME=${draft.tableName} npm start (its demo data is the file beside it).`,
    '# The directives are supplied by the gateway: see docs/model.md.',
    ...todoLines(draft.todos),
    '',
  ];
  const schema = [`@table(pk: ${str(draft.pk)}, sk: ${str(draft.sk)})`, ...draft.indexes.map((i) => `@index(name: ${str(i.name)}, pk: [${i.pk.map(str).join(', ')}]${i.sk.length > 0 ? `, sk: [${i.sk.map(str).join(', ')}]` : ''})`)];
  out.push('extend schema', ...schema.map((d) => `  ${d}`), '');
  const listed = [...new Set(draft.types.flatMap((t) => [...t.children.map((c) => c.type), ...(t.queries.length > 0 ? [t.name] : [])]))];
  // Declared in the draft, though the gateway would write PageInfo and plain connections: the draft is there to be edited.
  {
    out.push(
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
    );
  }
  for (const type of draft.types) out.push(...typeBlock(type), '');
  for (const node of listed) out.push(...connection(node), '');

  out.push('type Query {');
  for (const type of draft.types) {
    // A derived id alone finds its item; an id beside key fields needs their values too (docs/model.md).
    const keyArgs = type.keyFields.map((k) => `${k}: ${type.fields.find((f) => f.name === k)!.kind}!`);
    const args = (type.derivedId ? ['id: ID!'] : [...(type.parent ? [`${type.parent.field}Id: ID!`] : []), ...keyArgs, 'id: ID!']).join(', ');
    out.push(`  ${type.get}(${args}): ${type.name} @get`);
  }
  for (const type of draft.types) {
    for (const q of type.queries) {
      const args = [...q.args.map((a) => `${a.name}: ${a.type}`), PAGE_ARGS].join(', ');
      out.push(`  "${type.name} items of one partition of ${q.index ?? 'the table'}."`);
      out.push(`  ${q.name}(${args}): ${type.name}Connection! @query${q.index === null ? '' : `(index: ${str(q.index)})`}`);
    }
  }
  out.push('}', '');
  return out.join('\n');
}
