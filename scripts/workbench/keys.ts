/**
 * Key values → pieces, and pieces with their kinds → key shapes.
 *
 * A key is read as pieces between `#` (the separator single-table designs
 * use); a piece opening with a name and a colon (`User:UserA`) is two: the
 * name with its colon, then the rest. Which pieces are values (ids) and
 * which literal text is decided elsewhere (hints.ts, from the export's own
 * hints); here a key and that decision become a shape: the literal text with
 * each value blanked. Items of one type share a shape.
 */
export type Token = { literal: string } | { value: string };

export interface KeyShape {
  tokens: Token[];
  /** The literal text with each value as `*`: items of one type share it. */
  pattern: string;
}

export interface Piece {
  text: string;
  /** The separator after it: `#`, '' (after `Name:`, or the key's last piece). */
  sep: string;
}

/** A piece the designer wrote as a placeholder (`<sub_feature>`): a value of that name. */
export const PLACEHOLDER = /^<([A-Za-z_][0-9A-Za-z_]*)>\s*$/;

const LABELLED = /^([A-Za-z_][0-9A-Za-z_]*:)(.+)$/s;

// Run once per sample key: plain loops, no closures made per call.

/** The pieces of a key value, in order; joined with their separators they are the value again. */
export function piecesOf(key: string): Piece[] {
  const segments = key.split('#');
  const pieces: Piece[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const sep = i < segments.length - 1 ? '#' : '';
    const labelled = LABELLED.exec(segment);
    if (labelled) pieces.push({ text: labelled[1]!, sep: '' }, { text: labelled[2]!, sep });
    else pieces.push({ text: segment, sep });
  }
  return pieces;
}

function pushLiteral(tokens: Token[], text: string): void {
  if (text === '') return;
  const last = tokens[tokens.length - 1];
  if (last && 'literal' in last) tokens[tokens.length - 1] = { literal: last.literal + text };
  else tokens.push({ literal: text });
}

/** A key's shape: `values[i]` says whether piece i is a value. */
export function shapeOf(pieces: readonly Piece[], values: readonly boolean[]): KeyShape {
  const tokens: Token[] = [];
  for (let i = 0; i < pieces.length; i++) {
    if (values[i]) tokens.push({ value: pieces[i]!.text });
    else pushLiteral(tokens, pieces[i]!.text);
    pushLiteral(tokens, pieces[i]!.sep);
  }
  let pattern = '';
  for (const t of tokens) pattern += 'literal' in t ? t.literal : '*';
  return { tokens, pattern };
}
