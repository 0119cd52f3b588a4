/**
 * Key values → key shapes: which parts of a sample's PK and SK are literal
 * text and which are values (ids).
 *
 * A key is read as segments between `#` (the separator single-table designs
 * use); a segment holding a digit is a value (`USER#u1`, `Complaint123`,
 * `2023-04-01T12:00:00Z`), as is the text after a `:` (`User:UserA`); other
 * segments are literal (`PROFILE`, `meta`, `#META#`). Items of one type
 * share a shape: the literal text with the values blanked. Literal last
 * segments that differ between otherwise equal shapes are values too
 * (`FEATURE#CAMERAS`, `FEATURE#MIRRORS` → `FEATURE#<value>`): a guess,
 * which the draft says in a TODO.
 */
export type Token = { literal: string } | { value: string };

export interface KeyShape {
  tokens: Token[];
  /** The literal text with each value as `*`: items of one type share it. */
  pattern: string;
}

const segmentTokens = (segment: string, forceValue: boolean): Token[] => {
  if (segment === '') return [];
  if (forceValue || /\d/.test(segment)) return [{ value: segment }];
  const colon = segment.lastIndexOf(':');
  if (colon >= 0 && colon < segment.length - 1) return [{ literal: segment.slice(0, colon + 1) }, { value: segment.slice(colon + 1) }];
  return [{ literal: segment }];
};

/** The shape of a key value; `valueSegments` are segment positions read as values whatever their text. */
export function keyShape(value: string, valueSegments: ReadonlySet<number> = new Set()): KeyShape {
  const tokens: Token[] = [];
  value.split('#').forEach((segment, i) => {
    if (i > 0) tokens.push({ literal: '#' });
    tokens.push(...segmentTokens(segment, valueSegments.has(i)));
  });
  // Adjacent literal text is one literal.
  const merged: Token[] = [];
  for (const t of tokens) {
    const last = merged[merged.length - 1];
    if ('literal' in t && last && 'literal' in last) merged[merged.length - 1] = { literal: last.literal + t.literal };
    else merged.push(t);
  }
  return { tokens: merged, pattern: merged.map((t) => ('literal' in t ? t.literal : '*')).join('') };
}

/**
 * The segment position to read as a value when literal last segments differ
 * between keys of one partition shape (`FEATURE#CAMERAS`, `FEATURE#SEATS`):
 * keys whose segments agree but for a literal last one, at least two
 * segments long, group as one. Returns, per key, the positions to force.
 */
export function varyingLastSegments(keys: readonly string[]): Map<string, Set<number>> {
  const byStem = new Map<string, Set<string>>();
  const stemOf = (key: string): string | null => {
    const segments = key.split('#');
    const last = segments[segments.length - 1]!;
    if (segments.length < 2 || last === '' || /\d/.test(last) || last.includes(':')) return null;
    const head = segments.slice(0, -1).map((s) => keyShape(s).pattern);
    return head.join('#');
  };
  for (const key of keys) {
    const stem = stemOf(key);
    if (stem === null) continue;
    byStem.set(stem, (byStem.get(stem) ?? new Set()).add(key.split('#').at(-1)!));
  }
  const out = new Map<string, Set<number>>();
  for (const key of keys) {
    const stem = stemOf(key);
    if (stem !== null && (byStem.get(stem)?.size ?? 0) >= 2) out.set(key, new Set([key.split('#').length - 1]));
  }
  return out;
}
