/**
 * Trusted documents (`TRUSTED_DOCUMENTS=<manifest file>`): the gateway runs
 * only the operations a client build produced, and refuses every other
 * document before it is parsed (docs/clients.md, "Trusted documents", has the
 * manifest formats and the ways a request names its operation).
 *
 * A known id (`documentId`, `extensions.persistedQuery.sha256Hash`) or text
 * becomes the manifest's text, which Apollo parses once; anything else is
 * answered here without parsing: an unknown id with
 * `PERSISTED_QUERY_NOT_FOUND`, other text with `PERSISTED_QUERY_NOT_IN_LIST`.
 * Hashing a text is a SHA-256 over its bytes: linear, no parser involved.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { responseMediaType } from '../graphql/plugins/httpStatus.js';

export interface TrustedDocuments {
  /** How many operations the manifest lists. */
  readonly size: number;
  /** The operation text for an id (with or without `sha256:`), or undefined. */
  byId(id: string): string | undefined;
  /** Is this exact text a manifest entry? */
  hasText(text: string): boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const bareId = (id: string) => (id.startsWith('sha256:') ? id.slice('sha256:'.length) : id);

/** Reads a manifest's JSON; throws an Error naming what is wrong (start-up reports it). */
export function parseManifest(json: unknown): TrustedDocuments {
  const entries: [string, string][] = [];
  if (json && typeof json === 'object' && !Array.isArray(json) && (json as { format?: unknown }).format === 'apollo-persisted-query-manifest') {
    const manifest = json as { version?: unknown; operations?: unknown };
    if (manifest.version !== 1) throw new Error(`an Apollo persisted query manifest of version ${String(manifest.version)}; version 1 is supported`);
    if (!Array.isArray(manifest.operations)) throw new Error('an Apollo persisted query manifest without an operations array');
    for (const [i, op] of manifest.operations.entries()) {
      const { id, body } = (op ?? {}) as { id?: unknown; body?: unknown };
      if (typeof id !== 'string' || !id || typeof body !== 'string' || !body) throw new Error(`operations[${i}] needs a string id and body`);
      entries.push([id, body]);
    }
  } else if (json && typeof json === 'object' && !Array.isArray(json)) {
    for (const [id, body] of Object.entries(json)) {
      if (typeof body !== 'string' || !body) throw new Error(`the entry ${JSON.stringify(id)} is not a document text`);
      entries.push([id, body]);
    }
  } else {
    throw new Error('not a manifest: expected an object of id → document, or an Apollo persisted query manifest');
  }
  if (entries.length === 0) throw new Error('the manifest lists no operation');
  const ids = new Map(entries.map(([id, body]) => [bareId(id), body]));
  const texts = new Set(entries.map(([, body]) => sha256(body)));
  return {
    size: ids.size,
    byId: (id) => ids.get(bareId(id)),
    hasText: (text) => texts.has(sha256(text)),
  };
}

export function loadManifest(path: string): TrustedDocuments {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`TRUSTED_DOCUMENTS: cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    return parseManifest(JSON.parse(text));
  } catch (err) {
    throw new Error(`TRUSTED_DOCUMENTS: ${path} is ${err instanceof SyntaxError ? 'not JSON' : (err as Error).message}`);
  }
}

export interface Refusal {
  code: 'PERSISTED_QUERY_NOT_FOUND' | 'PERSISTED_QUERY_NOT_IN_LIST';
  message: string;
}

export type Checked = { params: Record<string, unknown> } | { refusal: Refusal };

const NOT_IN_LIST: Refusal = {
  code: 'PERSISTED_QUERY_NOT_IN_LIST',
  message: "This gateway runs trusted documents only: send the id of an operation from the client build's manifest",
};

/**
 * One GraphQL request's parameters (a POST body, or GET's parameters with
 * `extensions` already parsed) → the parameters Apollo runs (the manifest's
 * text, no persisted-query extension), or the refusal. Parameters that are
 * not a GraphQL request are passed on unchanged: Apollo refuses them itself.
 */
export function checkTrusted(trusted: TrustedDocuments, params: unknown): Checked {
  if (!params || typeof params !== 'object' || Array.isArray(params)) return { params: params as Record<string, unknown> };
  const { documentId, query, extensions, ...rest } = params as Record<string, unknown>;
  const persisted = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery;
  const id = typeof documentId === 'string' ? documentId : typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash : undefined;
  let text: string | undefined;
  if (id !== undefined) {
    text = trusted.byId(id);
    if (text === undefined) {
      return { refusal: { code: 'PERSISTED_QUERY_NOT_FOUND', message: `No trusted document has the id ${JSON.stringify(id.slice(0, 80))}` } };
    }
  } else if (typeof query === 'string' && trusted.hasText(query)) {
    text = query;
  } else if (query === undefined) {
    return { params: params as Record<string, unknown> }; // no operation at all: Apollo answers 400 BAD_REQUEST
  } else {
    return { refusal: NOT_IN_LIST };
  }
  const { persistedQuery: _, ...otherExtensions } = (extensions ?? {}) as Record<string, unknown>;
  return { params: { ...rest, query: text, ...(Object.keys(otherExtensions).length ? { extensions: otherExtensions } : {}) } };
}

/** The same check over GET's search parameters (`extensions` is JSON there); the search Apollo is given. */
export function checkTrustedSearch(trusted: TrustedDocuments, search: string): { search: string } | { refusal: Refusal } {
  const input = new URLSearchParams(search);
  const params: Record<string, unknown> = {};
  for (const [key, value] of input) params[key] = value;
  if (typeof params.extensions === 'string') {
    try {
      params.extensions = JSON.parse(params.extensions);
    } catch {
      return { search }; // not a GraphQL request: Apollo answers it
    }
  }
  const checked = checkTrusted(trusted, params);
  if ('refusal' in checked) return checked;
  if (checked.params === params) return { search }; // no operation named: passed on as it came
  const output = new URLSearchParams();
  for (const [key, value] of Object.entries(checked.params)) {
    output.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return { search: `?${output}` };
}

/** How a refusal is answered: a refused operation of a well-formed request (graphql/plugins/httpStatus.ts). */
export function refusalResponse(refusal: Refusal, accept: string | undefined): { status: number; contentType: string; body: string } {
  const type = responseMediaType(accept) === 'application/graphql-response+json' ? 'application/graphql-response+json' : 'application/json';
  return {
    status: type === 'application/json' ? 200 : 400,
    contentType: `${type}; charset=utf-8`,
    body: JSON.stringify({ errors: [{ message: refusal.message, extensions: { code: refusal.code } }] }),
  };
}

/** A POST body (one operation or a batch) checked: what Apollo runs, or the first refusal. */
export function checkTrustedBody(trusted: TrustedDocuments, body: unknown): { body: unknown } | { refusal: Refusal } {
  if (!Array.isArray(body)) {
    const checked = checkTrusted(trusted, body);
    return 'refusal' in checked ? checked : { body: checked.params };
  }
  const out: unknown[] = [];
  for (const params of body) {
    const checked = checkTrusted(trusted, params);
    if ('refusal' in checked) return checked;
    out.push(checked.params);
  }
  return { body: out };
}
