/**
 * Which pieces of the samples' keys are values (ids) and which literal
 * text, read from the export's own hints, never from what a piece looks
 * like alone.
 *
 * In:  the table read by read.ts. Out: each sample's PK and SK shape.
 *
 * A piece is a value when, strongest hint first:
 * 1. the facet's key alias names it: `PartitionKeyAlias: restaurantId`
 *    with the item's `restaurantId` holding the piece, an id-like alias
 *    (`playerID`) for the last piece, or an alias of as many pieces
 *    (`ITEMS#ItemID`) naming it where the key has other text;
 * 2. an attribute of the same item holds its text (`tableId: "window"`
 *    beside `TABLE#window`); for the first piece of a key of several, only
 *    an attribute named like an id (`entity: "REST"` is no id);
 * 3. it follows a literal piece that other keys show followed by other
 *    text (`REST#tasca-lx`, `REST#mar-azul`), unless it is itself followed
 *    by varying text, never ends a key, and items of its kind (the same
 *    attributes) hold no other text there (`ORDER#ITEM#i1` beside
 *    `ORDER#PAYMENT#p1`: ITEM is text);
 * 4. it is a whole key, and items with the same attributes, keyed alike by
 *    their other key, hold other text there (the comments' timestamps
 *    under `User:*`, the complaint ids beside `metadata`);
 *    A piece written as a placeholder (`<sub_feature>`) is a value too;
 * 5. after a literal piece always followed by the same text, in a key of
 *    one piece, or (in a second pass) after a value: its text is a value
 *    elsewhere, or an attribute's value in any item; and, the last resort
 *    where no hint applies and the samples show one text, it holds a digit;
 * 6. keys of one facet alike up to a literal piece that differs in three
 *    ways or more with hardly any text repeated, or in two or more with none
 *    repeated: that piece is a value (ids the items do not store), read
 *    left to right.
 * Other pieces are literal, and so are empty ones and the first piece of a
 * key of several unless 1 or 2 say otherwise. Everything here is one pass
 * over the samples, or a few: time linear in their number.
 */
import { plainValue } from './demo.js';
import { ID_ATTRIBUTE } from './keyFields.js';
import { PLACEHOLDER, piecesOf, shapeOf, type KeyShape, type Piece } from './keys.js';
import type { Facet, RawItem, WorkbenchTable } from './read.js';

export interface SampleKeys {
  pk: KeyShape;
  sk: KeyShape;
  /** Some piece was read as a value by the last resort (hint 5), not by a hint the samples confirm. */
  guessed: boolean;
}

type KeyName = 'pk' | 'sk';
const KEYS: readonly KeyName[] = ['pk', 'sk'];

interface Sample {
  item: RawItem;
  facet: Facet | null;
  pk: Piece[];
  sk: Piece[];
  /** The item's attribute names, sorted: items of one kind share it. */
  signature: string;
  values: Record<KeyName, boolean[]>;
  guessed: Record<KeyName, boolean>;
  /** Where its key of one piece is compared (hint 4), fixed in the first pass. */
  place: Partial<Record<KeyName, string>>;
}

interface Follow {
  /** The first text seen after it, and whether another was. */
  first: string;
  many: boolean;
}

interface Evidence {
  table: WorkbenchTable;
  samples: Sample[];
  /** What follows each piece's text in any key (PK, SK, index keys). */
  followers: Map<string, Follow>;
  /** What follows a piece's text at one place of one key in items of one signature: `${key}\0${at}\0${text}\0${signature}`. */
  kindFollowers: Map<string, Follow>;
  /** Texts that end some key. */
  ends: Set<string>;
  /** Every attribute text of every sample. */
  attributeTexts: Set<string>;
  /** Texts classed as values by hints 1–4 in the first pass. */
  strong: Set<string>;
  /** Whole-key texts per (where, signature): one text, or several. */
  wholeKeys: Map<string, Follow>;
}

const MAX_TEXT = 1024;
const text = (value: unknown): string | null => {
  const v = plainValue(value);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
};

const isKey = (table: WorkbenchTable, name: string) => name === table.pk.name || name === table.sk!.name;

// What follows runs once per sample or piece: plain loops, no closures made per call.

/** The attributes of a sample (keys left out) holding `t`. */
function holdersOf(table: WorkbenchTable, item: RawItem, t: string): string[] {
  const holders: string[] = [];
  for (const name in item) if (!isKey(table, name) && text(item[name]) === t) holders.push(name);
  return holders;
}

function sampleOf(table: WorkbenchTable, item: RawItem, facet: Facet | null): Sample {
  const names: string[] = [];
  for (const name in item) if (!isKey(table, name)) names.push(name);
  return {
    item,
    facet,
    pk: piecesOf(text(item[table.pk.name]) ?? ''),
    sk: piecesOf(text(item[table.sk!.name]) ?? ''),
    signature: names.sort().join('\u0000'),
    values: { pk: [], sk: [] },
    guessed: { pk: false, sk: false },
    place: {},
  };
}

function follow(map: Map<string, Follow>, key: string, next: string): void {
  const f = map.get(key);
  if (!f) map.set(key, { first: next, many: false });
  else if (!f.many && f.first !== next) f.many = true;
}

const kindPlace = (key: string, at: number, text: string, signature: string) => `${key}\u0000${at}\u0000${text}\u0000${signature}`;

function read(ev: Evidence, pieces: readonly Piece[], key: string, signature: string): void {
  for (let i = 1; i < pieces.length; i++) {
    follow(ev.followers, pieces[i - 1]!.text, pieces[i]!.text);
    follow(ev.kindFollowers, kindPlace(key, i, pieces[i - 1]!.text, signature), pieces[i]!.text);
  }
  if (pieces.length > 1) ev.ends.add(pieces[pieces.length - 1]!.text);
}

/** The followers of every text, the texts ending a key, every attribute text. */
function gather(table: WorkbenchTable, samples: Sample[]): Evidence {
  const ev: Evidence = {
    table,
    samples,
    followers: new Map(),
    kindFollowers: new Map(),
    ends: new Set(),
    attributeTexts: new Set(),
    strong: new Set(),
    wholeKeys: new Map(),
  };
  const indexAttributes = [...new Set(table.indexes.flatMap((i) => [i.pk.name, ...(i.sk ? [i.sk.name] : [])]))];
  for (const s of samples) {
    read(ev, s.pk, 'pk', s.signature);
    read(ev, s.sk, 'sk', s.signature);
    for (const a of indexAttributes) {
      const t = s.item[a] === undefined ? null : text(s.item[a]);
      if (t !== null && t.includes('#')) read(ev, piecesOf(t), a, s.signature);
    }
    for (const name in s.item) {
      const t = isKey(table, name) ? null : text(s.item[name]);
      if (t !== null && t.length <= MAX_TEXT) ev.attributeTexts.add(t);
    }
  }
  return ev;
}

/** Hint 1: what the facet's alias for this key says of each piece. */
function aliasHints(ev: Evidence, s: Sample, key: KeyName): Map<number, boolean> {
  const hints = new Map<number, boolean>();
  const alias = s.facet ? (key === 'pk' ? s.facet.pkAlias : s.facet.skAlias) : null;
  const keyName = key === 'pk' ? ev.table.pk.name : ev.table.sk!.name;
  const pieces = s[key];
  if (!alias || alias === keyName) return hints;
  const parts = piecesOf(alias);
  if (parts.length === pieces.length) {
    for (let i = 0; i < parts.length; i++) {
      if (parts[i]!.text === pieces[i]!.text) hints.set(i, false);
      else if (ID_ATTRIBUTE.test(parts[i]!.text) || text(s.item[parts[i]!.text]) === pieces[i]!.text) hints.set(i, true);
    }
    return hints;
  }
  for (const part of parts) {
    const held = text(s.item[part.text]);
    for (let i = 0; held !== null && i < pieces.length; i++) {
      if (pieces[i]!.text !== '' && pieces[i]!.text === held) {
        hints.set(i, true);
        break;
      }
    }
  }
  if (hints.size === 0 && parts.length === 1 && ID_ATTRIBUTE.test(alias) && pieces[pieces.length - 1]!.text !== '') hints.set(pieces.length - 1, true);
  return hints;
}

/** Where a whole key is compared with others (hint 4): the other key's shape, as far as known. */
function wholeKeyPlace(s: Sample, key: KeyName): string {
  if (key === 'sk') return `sk\u0000${shapeOf(s.pk, s.values.pk).pattern}`;
  return `pk\u0000${s.sk.length}\u0000${s.sk.length > 1 ? s.sk[0]!.text : ''}`;
}

function gatherWholeKeys(ev: Evidence, key: KeyName): void {
  for (const s of ev.samples) {
    if (s[key].length !== 1) continue;
    s.place[key] = `${wholeKeyPlace(s, key)}\u0000${s.signature}`;
    follow(ev.wholeKeys, s.place[key], s[key][0]!.text);
  }
}

const hasDigit = (t: string) => /\d/.test(t);
const STRONG_VALUE = { value: true, strong: true };
const WEAK_VALUE = { value: true, strong: false };
const LITERAL = { value: false, strong: false };
const weak = (value: boolean) => (value ? WEAK_VALUE : LITERAL);
/** Hint 5: a value elsewhere (an attribute's text, or in the second pass a value by a stronger hint). */
const elsewhere = (ev: Evidence, t: string, pass: 1 | 2) => ev.attributeTexts.has(t) || (pass === 2 && ev.strong.has(t));
const idNamed = (names: readonly string[]) => names.some((h) => ID_ATTRIBUTE.test(h));

/** Whether piece i of a sample's key is a value (hints 1–5). */
function decide(ev: Evidence, s: Sample, key: KeyName, i: number, alias: Map<number, boolean>, pass: 1 | 2): { value: boolean; strong: boolean } {
  const pieces = s[key];
  const t = pieces[i]!.text;
  if (t === '') return LITERAL;
  if (alias.has(i)) return alias.get(i) ? STRONG_VALUE : LITERAL;
  if (PLACEHOLDER.test(t)) return STRONG_VALUE;
  const startsKey = i === 0 || (pieces[i - 1]!.text === '' && i === 1);
  const holders = holdersOf(ev.table, s.item, t);
  if (holders.length > 0 && (!startsKey || pieces.length === 1 || idNamed(holders))) return STRONG_VALUE;
  if (pieces.length === 1) {
    if (ev.wholeKeys.get(s.place[key]!)?.many) return STRONG_VALUE;
    return weak(elsewhere(ev, t, pass) || hasDigit(t));
  }
  if (startsKey) return LITERAL;
  if (s.values[key][i - 1]) return weak(elsewhere(ev, t, pass));
  const after = ev.followers.get(pieces[i - 1]!.text);
  const itself = ev.followers.get(t);
  // A label under a label (`ORDER#ITEM#i1`): followed by varying text, never ending a key, and not one of several
  // texts items of its kind hold there (dates before ids, `RES#2026-05-01#r1`, are).
  const label = itself?.many === true && !ev.ends.has(t) && !ev.kindFollowers.get(kindPlace(key, i, pieces[i - 1]!.text, s.signature))?.many;
  if (after?.many && !label) return STRONG_VALUE;
  return weak(elsewhere(ev, t, pass) || (!label && hasDigit(t)));
}

function classify(ev: Evidence, s: Sample, key: KeyName, pass: 1 | 2): void {
  const alias = aliasHints(ev, s, key);
  const values: boolean[] = [];
  s.values[key] = values;
  s.guessed[key] = false;
  const pieces = s[key];
  for (let i = 0; i < pieces.length; i++) {
    const d = decide(ev, s, key, i, alias, pass);
    values.push(d.value);
    if (d.value && !d.strong) s.guessed[key] = true;
    if (pass === 1 && d.value && d.strong) ev.strong.add(pieces[i]!.text);
  }
}

/**
 * Hint 6: per facet (or the whole table), a literal piece in which keys alike up to it (of as many pieces, beside
 * one shape of the other key) differ in three ways or more, with no more samples than twice its texts, or in two or
 * more, each text in one sample, is a value.
 */
function repeatedShapes(ev: Evidence): void {
  const longest = ev.samples.reduce((n, s) => Math.max(n, s.pk.length, s.sk.length), 0);
  // Left to right: once a piece is read as a value, the pieces after it are compared under it.
  for (let at = 1; at < longest; at++) {
    const groups = new Map<string, { texts: Set<string>; samples: Sample[]; key: KeyName }>();
    for (const s of ev.samples) {
      for (const key of KEYS) {
        const pieces = s[key];
        if (at >= pieces.length || s.values[key][at] || pieces[at]!.text === '' || pieces[at - 1]!.text === '') continue;
        // The key up to this piece (blanked), how many pieces follow, and the other key.
        const head = s.values[key].slice(0, at + 1);
        head[at] = true;
        const other = key === 'pk' ? 'sk' : 'pk';
        const place = `${s.facet?.name ?? ''}\u0000${key}\u0000${pieces.length}\u0000${shapeOf(pieces.slice(0, at + 1), head).pattern}\u0000${shapeOf(s[other], s.values[other]).pattern}`;
        let group = groups.get(place);
        if (!group) groups.set(place, (group = { texts: new Set(), samples: [], key }));
        group.texts.add(pieces[at]!.text);
        group.samples.push(s);
      }
    }
    for (const g of groups.values()) {
      const ids = g.texts.size >= 2 && g.samples.length === g.texts.size;
      if (!ids && (g.texts.size < 3 || g.samples.length > 2 * g.texts.size)) continue;
      for (const s of g.samples) s.values[g.key][at] = true;
    }
  }
}

/** Each sample's key shapes, by the hints above. */
export function classifyKeys(table: WorkbenchTable): Map<RawItem, SampleKeys> {
  const samples = [...table.facets.flatMap((f) => f.items.map((item) => sampleOf(table, item, f))), ...table.items.map((item) => sampleOf(table, item, null))];
  const ev = gather(table, samples);
  gatherWholeKeys(ev, 'pk');
  for (const s of samples) classify(ev, s, 'pk', 1);
  gatherWholeKeys(ev, 'sk');
  for (const s of samples) classify(ev, s, 'sk', 1);
  for (const s of samples) {
    classify(ev, s, 'pk', 2);
    classify(ev, s, 'sk', 2);
  }
  repeatedShapes(ev);
  return new Map(samples.map((s) => [s.item, { pk: shapeOf(s.pk, s.values.pk), sk: shapeOf(s.sk, s.values.sk), guessed: s.guessed.pk || s.guessed.sk }]));
}
