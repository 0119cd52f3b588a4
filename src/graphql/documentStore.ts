/**
 * The store of parsed and validated documents (Apollo's `documentStore`),
 * bounded by an estimate of the memory a document really holds.
 *
 * Apollo's default store is bounded at 30 MiB of `JSON.stringify(document)`,
 * which leaves out what a parsed document keeps alive: the source text and
 * the lexer's token list (comments included) behind every node's location.
 * Documents that differ only by a comment are distinct entries, so a client
 * could fill that store with several times its nominal size. Here a
 * document is charged for its source (two bytes a character) and for every
 * token (an estimated 200 bytes with its AST node and location), and the
 * store holds at most `maxBytes` (default 8 MiB), least recently used out.
 */
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { DocumentNode } from 'graphql';

export const DOCUMENT_STORE_BYTES = 8 * 2 ** 20;
const BYTES_PER_TOKEN = 200;

/** Estimated heap bytes a parsed document keeps alive. */
export function documentBytes(document: DocumentNode): number {
  const loc = document.loc;
  if (!loc) return JSON.stringify(document).length * 2;
  let tokens = 0;
  for (let token = loc.startToken; token; token = token.next!) tokens += 1;
  return loc.source.body.length * 2 + tokens * BYTES_PER_TOKEN;
}

export function createDocumentStore(maxBytes = DOCUMENT_STORE_BYTES): InMemoryLRUCache<DocumentNode> {
  return new InMemoryLRUCache<DocumentNode>({ maxSize: maxBytes, sizeCalculation: (document) => Math.max(1, documentBytes(document)) });
}
