/**
 * The byte limit on responses (`MAX_RESPONSE_BYTES`), and repeated errors
 * collapsed (docs/limits.md).
 *
 * Before execution, `minimalResponseBytes` adds up what the response must
 * hold if every page is full (each key and its punctuation, the least each
 * leaf can be); over the limit, the operation is refused like the cost
 * limit. After execution the response as sent is measured in UTF-8 bytes
 * (stored names' lengths are unknown before): over the limit, a query's
 * answer becomes one BAD_USER_INPUT (`RESPONSE_TOO_LARGE`); a mutation's
 * says it ran. Of identical errors (paths aside) the first
 * MAX_REPEATED_ERRORS are sent, the last with `extensions.repeated`.
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import {
  getNamedType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ErrorCode } from '../../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../connections/args.js';

/** Shorter than any cursor connections/cursor.ts issues (payload, key id and a 43-character MAC). */
export const MIN_CURSOR_BYTES = 80;

/** The least a leaf's value takes, quoted where it is a string. */
function leafBytes(fieldName: string, type: GraphQLNamedType, nullable: boolean): number {
  if (nullable) return 2; // "" or null's shortest rival
  if (fieldName === 'cursor') return MIN_CURSOR_BYTES;
  switch (type.name) {
    case 'DateTime':
      return 26;
    case 'Boolean':
      return 4;
    case 'ID':
      return 3;
    case 'Int':
    case 'Float':
      return 1;
    default:
      return 2;
  }
}

function pageSize(args: readonly import('graphql').ArgumentNode[], variables: Record<string, unknown>, used: Set<string> | undefined): number {
  let size: number | undefined;
  for (const arg of args) {
    if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
    if (arg.value.kind === Kind.VARIABLE) used?.add(arg.value.name.value);
    const value = arg.value.kind === Kind.VARIABLE ? variables[arg.value.name.value] : valueFromASTUntyped(arg.value);
    if (typeof value === 'number' && Number.isFinite(value)) size = Math.max(size ?? 0, value);
  }
  return Math.min(MAX_PAGE_SIZE, Math.max(0, Math.floor(size ?? DEFAULT_PAGE_SIZE)));
}

/**
 * The fewest bytes the response's `data` can take if every page is full
 * (see the module comment). Fragments are weighed once each; `@skip` and
 * `@include` are ignored (counted as included). `used` collects the
 * variables whose values the figure depends on (page sizes): which ones is
 * a matter of the document alone.
 */
export function minimalResponseBytes(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown> | undefined,
  used?: Set<string>,
): number {
  const values: Record<string, unknown> = { ...variables };
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (values[name] === undefined && def.defaultValue) values[name] = valueFromASTUntyped(def.defaultValue);
  }
  const memo = new Map<string, number>();

  // Bytes of one object's selection on `type`; `items`: how many items the page holding this object has.
  const selection = (set: SelectionSetNode, type: GraphQLNamedType, items: number): number => {
    let bytes = 0;
    for (const node of set.selections) {
      if (node.kind === Kind.FIELD) {
        if (!isObjectType(type) && !isInterfaceType(type)) continue;
        const key = (node.alias ?? node.name).value;
        const field = type.getFields()[node.name.value];
        if (!field) {
          bytes += key.length + 6 + (node.name.value === '__typename' ? type.name.length : 0);
          continue;
        }
        const named = getNamedType(field.type) as GraphQLNamedType;
        const nullable = !isNonNullType(field.type);
        bytes += key.length + 4; // "key": and a comma
        if (!isCompositeType(named) || !node.selectionSet) {
          bytes += leafBytes(node.name.value, named, nullable);
          continue;
        }
        const isConnection = field.args.some((a) => a.name === 'first' || a.name === 'last') && isObjectType(named) && 'edges' in named.getFields();
        const inner = selection(node.selectionSet, named, isConnection ? pageSize(node.arguments ?? [], values, used) : items);
        const list = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
        // Full pages, entities present (as the cost limit assumes); a page's edges hold `items` objects.
        if (list) bytes += 2 + (node.name.value === 'edges' ? items * (inner + 1) : 0);
        else bytes += inner + 2;
      } else if (node.kind === Kind.INLINE_FRAGMENT) {
        const on = node.typeCondition ? schema.getType(node.typeCondition.name.value) : type;
        if (on) bytes += selection(node.selectionSet, on, items);
      } else {
        const name = node.name.value;
        const memoKey = `${name}:${items}`;
        if (!memo.has(memoKey)) {
          memo.set(memoKey, 0); // a cycle (refused by validation) counts 0
          const fragment = fragments.get(name);
          const on = fragment && schema.getType(fragment.typeCondition.name.value);
          memo.set(memoKey, fragment && on ? selection(fragment.selectionSet, on, items) : 0);
        }
        bytes += memo.get(memoKey)!;
      }
    }
    return bytes;
  };

  const root = schema.getRootType(operation.operation);
  return root ? selection(operation.selectionSet, root, 1) + 12 : 0; // {"data":{…}}
}

/** How many of one identical error are sent with their own paths; the rest are counted on the last of them. */
export const MAX_REPEATED_ERRORS = 10;

/**
 * Identical errors (message and extensions; not the path, locations or, outside
 * prod, the stack trace or its location): the first MAX_REPEATED_ERRORS are sent with
 * their paths, the last of them saying in `extensions.repeated` how many
 * more there were.
 */
export function collapseErrors(errors: readonly GraphQLFormattedError[]): GraphQLFormattedError[] {
  const seen = new Map<string, { index: number; kept: number; repeated: number }>();
  const out: GraphQLFormattedError[] = [];
  for (const error of errors) {
    const { stacktrace: _, location: __, ...extensions } = error.extensions ?? {};
    const key = JSON.stringify([error.message, extensions]);
    const same = seen.get(key) ?? { index: -1, kept: 0, repeated: 0 };
    seen.set(key, same);
    if (same.kept === MAX_REPEATED_ERRORS) {
      same.repeated += 1;
      continue;
    }
    same.kept += 1;
    same.index = out.length;
    out.push(error);
  }
  for (const { index, repeated } of seen.values()) {
    if (repeated > 0) out[index] = { ...out[index]!, extensions: { ...out[index]!.extensions, repeated } };
  }
  return out;
}

const refusal = (message: string) => new GraphQLError(message, { extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED, http: { status: 400 } } });

/**
 * What the figure of a page-size variable's value is keyed by: only finite
 * numbers count (anything else is the default page size), and an absent
 * variable takes the operation's default value.
 */
const variableKey = (value: unknown): string => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value === undefined ? 'u' : 'x');

/** Figures kept per operation and page-size values: at most this many per operation. */
const FIGURES_PER_OPERATION = 32;

interface Weighed {
  /** The variables the figure depends on (none: one figure for every request). */
  used: readonly string[];
  figures: Map<string, number>;
}

/**
 * The text measured for a response's data, with the errors and extensions it
 * was measured with: kept on the data object itself under a symbol, not
 * enumerable (JSON, Object.keys and deep equality do not see it), so that
 * nothing outlives the response (a WeakMap entry per response costs the
 * garbage collector more than the entry is worth).
 */
const MEASURED = Symbol('measured response text');
interface Measured {
  errors: unknown;
  extensions: unknown;
  text: string;
}

/**
 * Apollo's `stringifyResult`: the text the byte limit measured when the
 * errors and extensions are still those it was measured with (a later
 * plugin may have replaced them), else the result serialized anew.
 */
export function stringifyResult(value: { errors?: unknown; data?: unknown; extensions?: unknown }): string {
  const known = typeof value.data === 'object' && value.data !== null ? (value.data as { [MEASURED]?: Measured })[MEASURED] : undefined;
  if (known !== undefined && known.errors === value.errors && known.extensions === value.extensions) return `${known.text}\n`;
  return `${JSON.stringify(value)}\n`;
}

/** The figure of a weighed operation for these variables' page-size values. */
function figureKey(w: Weighed, variables: Record<string, unknown> | undefined): string {
  if (w.used.length === 0) return '';
  let key = variableKey(variables?.[w.used[0]!]);
  for (let i = 1; i < w.used.length; i++) key += `,${variableKey(variables?.[w.used[i]!])}`;
  return key;
}

const fragmentsOf = (document: DocumentNode) => {
  const map = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) map.set(def.name.value, def);
  return map;
};

export function responseSizePlugin(maxBytes: number): GatewayPlugin {
  // Per parsed operation (documents are parsed once and kept by Apollo's cache): its figure for each page-size value.
  const weighed = new WeakMap<OperationDefinitionNode, Weighed>();
  const hooks: RequestHooks = {
    didResolveOperation({ schema, document, operation, request }) {
      if (!operation) return;
      const variables = request.variables;
      let known = weighed.get(operation);
      let bytes = known?.figures.get(figureKey(known, variables));
      if (bytes === undefined) {
        const used = new Set<string>();
        bytes = minimalResponseBytes(schema, operation, fragmentsOf(document), variables, used);
        if (!known) {
          known = { used: [...used], figures: new Map() };
          weighed.set(operation, known);
        }
        if (known.figures.size < FIGURES_PER_OPERATION) known.figures.set(figureKey(known, variables), bytes);
      }
      if (bytes > maxBytes) {
        throw refusal(
          `Response byte limit of ${maxBytes} exceeded: with full pages the response would hold at least ${bytes} bytes. Ask for smaller pages, fewer aliases or fewer fields.`,
        );
      }
    },
    willSendResponse({ response, operation }) {
      if (response.body.kind !== 'single') return;
      const result = response.body.singleResult;
      if (result.errors && result.errors.length > 1) result.errors = collapseErrors(result.errors);
      if (!result.data) return;
      // Serialized as Apollo sends it (errors, data, extensions); stringifyResult above sends this very text.
      const text = JSON.stringify({ errors: result.errors, data: result.data, extensions: result.extensions });
      // UTF-8 takes at most 3 bytes per UTF-16 unit: most responses need no byte count.
      const size = text.length * 3 <= maxBytes ? text.length : Buffer.byteLength(text, 'utf8');
      if (size <= maxBytes) {
        const measured: Measured = { errors: result.errors, extensions: result.extensions, text };
        Object.defineProperty(result.data, MEASURED, { value: measured, configurable: true });
        return;
      }
      const ran = operation?.operation === 'mutation' ? 'The mutation ran, but its' : 'The';
      response.body = {
        kind: 'single',
        singleResult: {
          data: null,
          errors: [
            {
              message: `${ran} response of ${size} bytes exceeds the response byte limit of ${maxBytes}. Ask for smaller pages or fewer fields.`,
              extensions: { code: ErrorCode.BAD_USER_INPUT, reason: 'RESPONSE_TOO_LARGE', bytes: size, limit: maxBytes },
            },
          ],
        },
      };
    },
  };
  return { requestDidStart: () => hooks };
}
