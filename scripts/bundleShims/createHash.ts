/**
 * Stands in for `@apollo/utils.createhash` in bundles (scripts/bundle.ts).
 *
 * That package hashes with Node's crypto only when `module.require` exists,
 * which is not the case inside an ES module bundle, and otherwise falls back
 * to sha.js, a SHA-256 written in JavaScript. Apollo hashes every query's
 * text with it (the document store's key), so a bundle would pay a
 * JavaScript SHA-256 of the whole query on every request. Same digests,
 * from Node's native implementation.
 */
import { createHash as nodeCreateHash, type Hash } from 'node:crypto';

export function createHash(kind: string): Hash {
  return nodeCreateHash(kind);
}
