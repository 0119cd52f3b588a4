/**
 * A model's link to Apollo Federation 2: `extend schema @link(url:
 * "https://specs.apollo.dev/federation/v2.x", import: [...])`, and the
 * definitions of Federation's directives that link brings into the model
 * (docs/federation.md). Federation's directives are Federation's, not the
 * gateway's vocabulary: they are defined here from the linked version,
 * under the names the model uses (imported as written, renamed with
 * `{ name, as }`, or `@federation__<name>` when not imported).
 *
 * In: the parsed model. Out: the link (null for a model that links no
 * Federation), the definitions to add before the schema is built, and a
 * problem per mistake in the link itself.
 */
import { Kind, parse, type ConstValueNode, type DefinitionNode, type DocumentNode } from 'graphql';
import { linkUses } from './annotations.js';
import type { Problems } from './problems.js';

export const FEDERATION_URL = 'https://specs.apollo.dev/federation/';
/** The newest Federation 2 minor version the gateway (and the Apollo tools it ships with) know. */
export const NEWEST_MINOR = 14;

/** Federation's own types and the minor version that brought each. */
const TYPES: Readonly<Record<string, number>> = { FieldSet: 0, Scope: 5, Policy: 6, ContextFieldValue: 8 };

/**
 * Federation's directives: the minor version that brought each, and its
 * definition after the name (`T:` marks one of Federation's own types;
 * one without arguments starts with a space).
 * `@tag` takes SCHEMA from 2.3, `@shareable` is repeatable from 2.2,
 * `@override` takes a label from 2.7 (what the Apollo tools define).
 */
const DIRECTIVES: Readonly<Record<string, { since: number; definition: (minor: number) => string }>> = {
  key: { since: 0, definition: () => '(fields: T:FieldSet!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE' },
  requires: { since: 0, definition: () => '(fields: T:FieldSet!) on FIELD_DEFINITION' },
  provides: { since: 0, definition: () => '(fields: T:FieldSet!) on FIELD_DEFINITION' },
  external: { since: 0, definition: () => '(reason: String) on OBJECT | FIELD_DEFINITION' },
  tag: {
    since: 0,
    definition: (m) =>
      `(name: String!) repeatable on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION${m >= 3 ? ' | SCHEMA' : ''}`,
  },
  extends: { since: 0, definition: () => ' on OBJECT | INTERFACE' },
  shareable: { since: 0, definition: (m) => ` ${m >= 2 ? 'repeatable ' : ''}on OBJECT | FIELD_DEFINITION` },
  inaccessible: {
    since: 0,
    definition: () =>
      ' on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION',
  },
  override: { since: 0, definition: (m) => `(from: String!${m >= 7 ? ', label: String' : ''}) on FIELD_DEFINITION` },
  composeDirective: { since: 1, definition: () => '(name: String) repeatable on SCHEMA' },
  interfaceObject: { since: 3, definition: () => ' on OBJECT' },
  authenticated: { since: 5, definition: () => ' on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM' },
  requiresScopes: { since: 5, definition: () => '(scopes: [[T:Scope!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM' },
  policy: { since: 6, definition: () => '(policies: [[T:Policy!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM' },
  context: { since: 8, definition: () => '(name: String!) repeatable on INTERFACE | OBJECT | UNION' },
  fromContext: { since: 8, definition: () => '(field: T:ContextFieldValue) on ARGUMENT_DEFINITION' },
  cost: { since: 9, definition: () => '(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR' },
  listSize: {
    since: 9,
    definition: () => '(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION',
  },
  cacheTag: { since: 12, definition: () => '(format: String!) repeatable on OBJECT | FIELD_DEFINITION' },
};

/** Federation's directive names (without `@`), for checks that tell them from the model's vocabulary. */
export const FEDERATION_DIRECTIVES: readonly string[] = Object.keys(DIRECTIVES);

/** The definitions of Federation's @link itself. */
const LINK_DEFINITIONS = `
directive @link(url: String, as: String, for: link__Purpose, import: [link__Import]) repeatable on SCHEMA
scalar link__Import
enum link__Purpose { SECURITY EXECUTION }
`;

export interface FederationLink {
  /** The linked version, `2.<minor>`. */
  minor: number;
  /** Federation's directive (canonical name, no `@`) → the name the model uses for it. */
  names: Readonly<Record<string, string>>;
  /** Federation's types (FieldSet, …) → the names the model uses. */
  types: Readonly<Record<string, string>>;
}

/** One import of the link: `"@key"`, `"FieldSet"` or `{ name: "@key", as: "@primaryKey" }`; null when it is neither. */
function importOf(value: ConstValueNode): { name: string; as: string } | null {
  if (value.kind === Kind.STRING) return { name: value.value, as: value.value };
  if (value.kind !== Kind.OBJECT) return null;
  const field = (n: string) => value.fields.find((f) => f.name.value === n)?.value;
  const name = field('name');
  const as = field('as');
  if (name?.kind !== Kind.STRING) return null;
  return { name: name.value, as: as?.kind === Kind.STRING ? as.value : name.value };
}

/**
 * The model's link to Federation 2, or null when it has none. A second
 * Federation link, a version other than 2.0–2.<NEWEST_MINOR>, or an import
 * Federation does not define at that version is a problem.
 */
export function readFederationLink(document: DocumentNode, problems: Problems): FederationLink | null {
  const found = linkUses(document).filter(({ url }) => url?.kind === Kind.STRING && url.value.startsWith(FEDERATION_URL));
  if (found.length === 0) return null;
  if (found.length > 1) problems.add('schema @link', 'links Federation more than once: link one version', found[1]!.node);
  const { node } = found[0]!;
  const url = (found[0]!.url as { value: string }).value;
  const version = /^v2\.(\d+)$/.exec(url.slice(FEDERATION_URL.length));
  const minor = version ? Number(version[1]) : NaN;
  if (!(minor >= 0 && minor <= NEWEST_MINOR)) {
    problems.add('schema @link(url)', `"${url}": the gateway serves Federation 2, versions v2.0 to v2.${NEWEST_MINOR}`, node);
    return null;
  }
  const names: Record<string, string> = {};
  const types: Record<string, string> = {};
  for (const [name, { since }] of Object.entries(DIRECTIVES)) if (since <= minor) names[name] = `federation__${name}`;
  for (const [name, since] of Object.entries(TYPES)) if (since <= minor) types[name] = `federation__${name}`;
  const imports = found[0]!.import;
  for (const value of imports?.kind === Kind.LIST ? imports.values : []) {
    const imported = importOf(value);
    if (!imported) {
      problems.add('schema @link(import)', 'an import is "@<directive>", "<Type>" or { name: "@<directive>", as: "@<name>" }', node);
      continue;
    }
    const directive = imported.name.startsWith('@');
    const bare = directive ? imported.name.slice(1) : imported.name;
    const known = directive ? DIRECTIVES[bare] : TYPES[bare] === undefined ? undefined : { since: TYPES[bare]! };
    if (!known || known.since > minor) {
      const later = known ? ` (it came in v2.${known.since})` : '';
      problems.add('schema @link(import)', `${imported.name} is not part of Federation v2.${minor}${later}`, node);
      continue;
    }
    if (directive !== imported.as.startsWith('@')) {
      problems.add('schema @link(import)', `${imported.name} is imported as ${imported.as}: a directive keeps its @, a type has none`, node);
      continue;
    }
    (directive ? names : types)[bare] = directive ? imported.as.slice(1) : imported.as;
  }
  return { minor, names, types };
}

/**
 * The definitions a linked model needs to be built (Federation's
 * directives and types under the model's names, and @link's own), leaving
 * out any the model defines itself.
 */
export function federationDefinitions(link: FederationLink, document: DocumentNode): DefinitionNode[] {
  const own = new Set(document.definitions.flatMap((d) => ('name' in d && d.name ? [d.name.value] : [])));
  const text: string[] = [];
  for (const [name, spec] of Object.entries(DIRECTIVES)) {
    const used = link.names[name];
    if (used === undefined || own.has(used)) continue;
    text.push(`directive @${used}${spec.definition(link.minor).replace(/T:(\w+)/g, (_, t: string) => link.types[t]!)}`);
  }
  for (const used of Object.values(link.types)) if (!own.has(used)) text.push(`scalar ${used}`);
  const linkOwn = LINK_DEFINITIONS.split('\n').filter((line) => line && !own.has(/^(?:directive @|scalar |enum )(\w+)/.exec(line)![1]!));
  return [...parse([...linkOwn, ...text].join('\n'), { noLocation: true }).definitions];
}
