/**
 * The cursor codec: the one format of every connection's cursors, and the
 * one path that writes and reads them (the signature around the payload is
 * cursorSigning.ts's). Format (version 2), fields in this order:
 *
 *   { "v": 2, "c": <connection>, "p": <partition or group>, "i": <index>,
 *     "a": <arguments bound>, "k": <position> }   (CursorPayload below)
 *
 * Not bound to a direction: any edge's cursor is a valid `after` or
 * `before`. Each cursor string is verified and parsed once per request
 * (`cursorReader`); one that does not verify or decode, or was issued for
 * another connection, parent, index or arguments, is BAD_USER_INPUT before
 * any DynamoDB request.
 */
import { badUserInput } from '../errors.js';
import type { CursorCodec } from './cursorSigning.js';

export const CURSOR_VERSION = 2;
const MAX_CURSOR_LENGTH = 2048;
const MAX_KEY_VALUE_LENGTH = 1024;

/** An edge's place in its connection's order: attribute → stored key value. */
export type Position = Record<string, string>;

export interface CursorPayload {
  v: number;
  /** connection name */
  c: string;
  /** partition (or group) of the connection */
  p: string;
  /** index read (`GSI1`), or `table` */
  i: string;
  /** the arguments bound, when the connection binds any */
  a?: string;
  /** position */
  k: unknown;
}

/** What a connection's cursors are bound to (`c`, `p`, `i`, `a` of the payload). */
export interface CursorBinding {
  name: string;
  partition: string;
  index: string;
  /** The narrowing arguments in canonical form; undefined for a connection that binds none (no `a` written or checked). */
  args?: string;
}

/** What a position of a connection looks like, and what it must hold to belong to it. */
export interface PositionShape {
  /** Its attributes, in the order positions are written; each a non-empty string of at most 1024 characters. */
  attrs: readonly string[];
  /** The sort-key attribute and the prefix its value starts with in this connection ('' for any). */
  skAttr: string;
  prefix: string;
  /** An attribute the position holds with exactly this value (one collection: its partition). */
  partition?: { attr: string; value: string };
  /**
   * An attribute a cursor may carry besides `attrs`, whose value is the
   * group or one of its shards (`<group>#<k>`): a merged connection accepts
   * the start keys its unsharded form issued. It is dropped from the position.
   */
  group?: { attr: string; value: string };
  /** Attributes holding numbers (typed N): their values are a number's text, as the position was written. */
  numbers?: readonly string[];
}

/** The signed cursor of `position` in the connection `binding` describes. */
export function encodeCursor(codec: CursorCodec, binding: CursorBinding, position: Position): string {
  // `a: undefined` is left out by JSON.stringify: connections without arguments write v, c, p, i, k.
  const payload: CursorPayload = { v: CURSOR_VERSION, c: binding.name, p: binding.partition, i: binding.index, a: binding.args, k: position };
  return codec.seal(JSON.stringify(payload));
}

/** The error of a refused cursor: which argument, which connection, why. */
export const cursorRefusal = (connection: string, argumentName: string, why: string) =>
  badUserInput(`"${argumentName}" is not a valid cursor for ${connection}: ${why}`, argumentName);

/** A codec that also reads cursors: verified and parsed once per cursor string for as long as it lives (one request). */
export interface CursorReader extends CursorCodec {
  /** The payload of a cursor whose signature verifies and whose format is ours, or why not. */
  read(cursor: string): CursorPayload | { refused: string };
}

function openPayload(codec: CursorCodec, cursor: string): CursorPayload | { refused: string } {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return { refused: 'wrong length' };
  const opened = codec.open(cursor);
  if ('error' in opened) return { refused: opened.error };
  let payload: CursorPayload;
  try {
    payload = JSON.parse(opened.payload);
  } catch {
    return { refused: 'it does not decode' };
  }
  if (!payload || typeof payload !== 'object' || payload.v !== CURSOR_VERSION) return { refused: 'unknown format' };
  return payload;
}

/** The per-request reader around the server's codec (made with the request's context). */
export function cursorReader(codec: CursorCodec): CursorReader {
  const read = new Map<string, CursorPayload | { refused: string }>();
  return {
    seal: (payload) => codec.seal(payload),
    open: (token) => codec.open(token),
    read(cursor) {
      let result = read.get(cursor);
      if (result === undefined) read.set(cursor, (result = openPayload(codec, cursor)));
      return result;
    },
  };
}

/**
 * The checks a cursor passes knowing only the connection's name (the field,
 * e.g. `Team.players`): its signature verifies, it decodes, has our format,
 * and was issued by that field. The argument check runs it for every cursor
 * argument before execution starts.
 */
export function readCursor(reader: CursorReader, connection: string, cursor: string, argumentName: string): CursorPayload {
  const read = reader.read(cursor);
  if ('refused' in read) throw cursorRefusal(connection, argumentName, read.refused);
  if (read.c !== connection) throw cursorRefusal(connection, argumentName, 'it was issued by another connection');
  return read;
}

const isKeyValue = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_KEY_VALUE_LENGTH;

/**
 * The position inside a cursor, checked against the connection it is used
 * on, in this order: the payload (readCursor), the partition and index, the
 * arguments bound, the position's attributes (nothing else but the group
 * attribute, each a key value), and that the position lies inside the
 * connection (partition value, sort-key prefix).
 */
export function decodeCursor(reader: CursorReader, binding: CursorBinding, shape: PositionShape, cursor: string, argumentName: string): Position {
  const refuse = (why: string) => cursorRefusal(binding.name, argumentName, why);
  const payload = readCursor(reader, binding.name, cursor, argumentName);
  if (payload.p !== binding.partition || payload.i !== binding.index) throw refuse('it was issued by another connection');
  if (binding.args !== undefined && (payload.a ?? '') !== binding.args) throw refuse('it was issued for other arguments');
  const key = payload.k as Record<string, unknown> | null;
  if (!key || typeof key !== 'object' || Array.isArray(key)) throw refuse('malformed key');
  const { attrs, group } = shape;
  let extra = false;
  for (const attr in key) {
    if (attrs.includes(attr)) continue;
    if (group === undefined || attr !== group.attr || extra) throw refuse('malformed key');
    extra = true;
  }
  if (extra) {
    const value = key[group!.attr];
    if (typeof value !== 'string' || (value !== group!.value && !value.startsWith(`${group!.value}#`))) {
      throw refuse('it was issued by another connection');
    }
  }
  for (const attr of attrs) if (!isKeyValue(key[attr])) throw refuse('malformed key');
  const position = key as Position;
  // DynamoDB refuses a start key whose number attribute is not a number: refused here, as our error.
  for (const attr of shape.numbers ?? []) if (String(Number(position[attr])) !== position[attr]) throw refuse('malformed key');
  if (shape.partition !== undefined && position[shape.partition.attr] !== shape.partition.value) {
    throw refuse('it was issued by another connection');
  }
  if (!position[shape.skAttr].startsWith(shape.prefix)) throw refuse('it was issued by another connection');
  if (!extra) return position;
  const own: Position = {};
  for (const attr of attrs) own[attr] = position[attr];
  return own;
}
