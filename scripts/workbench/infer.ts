/**
 * An export's table → a draft model: item types with key templates, stored
 * fields, index memberships, connections and root fields, each guess or
 * refusal noted as a TODO.
 *
 * In:  the table read by read.ts. Out: a Draft for emit.ts.
 *
 * Types come from the samples' key shapes (keys.ts), grouped per facet when
 * the export has facets (one type per facet, plus one per other key shape
 * its samples show) or over the whole table when it has none. A shape's
 * values become: one value → `{id}`; a value in the PK and one in the SK →
 * a child (`{parent}` in the PK, `{id}` in the SK) of the type keyed by that
 * PK, declared as a stand-in when no sample shows it; a value equal to the
 * PK's in every sample → the same placeholder; further values → required
 * key fields (keyFields.ts), `{id}` staying on the value an id-named
 * attribute holds, else none: the id is derived from the key's values.
 */
import { parseTemplate, prefixesOverlap } from '../../src/declaration/template.js';
import { plainValue, typeOf } from './demo.js';
import { holds, ID_ATTRIBUTE, nameKeyFields, type KeyField, type KeyValue } from './keyFields.js';
import { keyShape, varyingLastSegments, type Token } from './keys.js';
import type { RawItem, WorkbenchTable } from './read.js';

export type FieldKind = 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime';

export interface DraftField {
  name: string;
  /** The stored attribute's name (differs from name when that is no GraphQL name). */
  attribute: string;
  kind: FieldKind;
  /** A key field: set at create, so required. */
  required?: boolean;
}

export interface DraftQuery {
  name: string;
  /** The index read, or null for the table. */
  index: string | null;
  args: { name: string; type: string }[];
}

export interface DraftType {
  name: string;
  /** Its @get root field. */
  get: string;
  pk: string;
  sk: string;
  parent: { field: string; type: string } | null;
  /** Fields the key templates name besides {id} and the parent (in `fields` too, required). */
  keyFields: string[];
  /** No {id} in the keys: the id is derived from the key's values (@get by id alone). */
  derivedId: boolean;
  fields: DraftField[];
  /** Declared indexes the type's items are in, by their own attributes. */
  indexed: string[];
  children: { field: string; type: string }[];
  queries: DraftQuery[];
  todos: string[];
  /** What the type is, for its description. */
  about: string;
  /** The sample items of this type (plain values). */
  samples: Record<string, unknown>[];
  /** Declared only as the parent of others: no sample item has its key. */
  standIn: boolean;
}

export interface Draft {
  modelName: string;
  tableName: string;
  pk: string;
  sk: string;
  indexes: { name: string; pk: string[]; sk: string[] }[];
  types: DraftType[];
  /** TODOs of the whole model (shapes not served, attributes no sample carries). */
  todos: string[];
  /** Samples left out of the demo data: keyed under a declared type's sort-key prefix without matching its template. */
  excluded: Set<RawItem>;
}

/** Names a model may not give a stored field: the keys, the item's id and what the gateway keeps on items. */
const RESERVED_FIELDS = new Set([
  'id', 'PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK',
  'deletingAt', 'propagatingSince', 'countingSince', 'reshardFrom', 'reshardMoves', 'reshardTo', 'reshardCopies', 'expiresAt',
]);
/** Type names the model's own declarations or GraphQL already use. */
const RESERVED_TYPES = new Set(['Query', 'Mutation', 'Subscription', 'PageInfo', 'DateTime', 'Node', 'String', 'Int', 'Float', 'Boolean', 'ID']);
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const INT_MAX = 2 ** 31 - 1;

const words = (text: string): string[] => text.split(/[^0-9A-Za-z]+/).filter(Boolean);
const pascalWord = (w: string) => (w === w.toUpperCase() ? w.charAt(0) + w.slice(1).toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1));
const pascal = (ws: readonly string[]): string => {
  const name = ws.map(pascalWord).join('');
  return /^[0-9]/.test(name) ? `T${name}` : name;
};
const camel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
const plural = (name: string) => (/s$/.test(name) ? name : /(x|ch|sh)$/.test(name) ? `${name}es` : /[^aeiou]y$/.test(name) ? `${name.slice(0, -1)}ies` : `${name}s`);

interface Shape {
  facet: string | null;
  pk: Token[];
  sk: Token[];
  items: RawItem[];
  /** Each item's key tokens (aligned with the shape's: same literals, its own values). */
  keys: { pk: Token[]; sk: Token[] }[];
}

interface Placed {
  shape: Shape;
  pk: string;
  sk: string;
  /** The parent's PK: the child's PK up to the parent's placeholder, as {id}. */
  parentPk: string | null;
  /** The samples' ids (none for a derived id). */
  idValues: string[];
  /** The key's values beyond the id and the parent, as fields. */
  keyFields: KeyField[];
  todos: string[];
}

const stringKey = (item: RawItem, attribute: string): string => {
  const v = plainValue(item[attribute]);
  return typeof v === 'string' ? v : String(v);
};

/** Groups samples by facet and key shape. */
function shapesOf(table: WorkbenchTable): Shape[] {
  const groups: { facet: string | null; items: RawItem[] }[] = table.facets.length > 0 ? table.facets.map((f) => ({ facet: f.name, items: f.items })) : [];
  if (table.items.length > 0) groups.push({ facet: null, items: table.items });
  const shapes: Shape[] = [];
  for (const group of groups) {
    const skName = table.sk!.name;
    // Varying literal last segments are read per partition shape.
    const byPartition = new Map<string, RawItem[]>();
    for (const item of group.items) {
      const p = keyShape(stringKey(item, table.pk.name)).pattern;
      byPartition.set(p, [...(byPartition.get(p) ?? []), item]);
    }
    const forced = new Map<RawItem, Set<number>>();
    for (const items of byPartition.values()) {
      const varying = varyingLastSegments(items.map((i) => stringKey(i, skName)));
      for (const item of items) forced.set(item, varying.get(stringKey(item, skName)) ?? new Set());
    }
    const byShape = new Map<string, Shape>();
    for (const item of group.items) {
      const pk = keyShape(stringKey(item, table.pk.name));
      const sk = keyShape(stringKey(item, skName), forced.get(item));
      const key = `${pk.pattern}\u0000${sk.pattern}`;
      const shape = byShape.get(key);
      if (shape) {
        shape.items.push(item);
        shape.keys.push({ pk: pk.tokens, sk: sk.tokens });
      } else byShape.set(key, { facet: group.facet, pk: pk.tokens, sk: sk.tokens, items: [item], keys: [{ pk: pk.tokens, sk: sk.tokens }] });
    }
    shapes.push(...byShape.values());
  }
  return shapes;
}

/** The values of a shape's keys → templates, or the reason the shape cannot be served. */
function place(shape: Shape, table: WorkbenchTable): Placed | { unserved: string } {
  const values: KeyValue[] = [];
  for (const key of ['pk', 'sk'] as const) {
    shape[key].forEach((t, at) => {
      if ('value' in t) values.push({ key, at, values: shape.keys.map((k) => (k[key][at] as { value: string }).value) });
    });
  }
  const same = (a: KeyValue, b: KeyValue) => a.values.every((v, i) => v === b.values[i]);
  const pkValues = values.filter((v) => v.key === 'pk');
  // A value the SK repeats from the PK in every sample is the same placeholder (`{id}`, `#METADATA#{id}`).
  const aliasOf = new Map<KeyValue, KeyValue>();
  for (const v of values) {
    if (v.key !== 'sk') continue;
    const twin = pkValues.find((p) => same(p, v));
    if (twin) aliasOf.set(v, twin);
  }
  const roots = values.filter((v) => !aliasOf.has(v));
  const todos: string[] = [];
  const sample = `${stringKey(shape.items[0]!, table.pk.name)} / ${stringKey(shape.items[0]!, table.sk!.name)}`;
  if (roots.length === 0) return { unserved: `items keyed like ${sample} hold no value in their keys (no id): every such item would have one key` };
  const skRoots = roots.filter((v) => v.key === 'sk');
  const pkRoots = roots.filter((v) => v.key === 'pk');
  // A parent lists its children by its id alone: a PK holding more values than that names no parent's partition.
  const parent = skRoots.length > 0 && pkRoots.length === 1 ? pkRoots[0]! : null;
  const own = roots.filter((v) => v !== parent);
  // One value of its own is the id; of several, the one an id-named attribute holds in every sample, else none (a derived id).
  const named = own.filter((v) => Object.keys(shape.items[0]!).some((a) => ID_ATTRIBUTE.test(a) && holds(shape.items, a, v.values)));
  const id = own.length === 1 ? own[0]! : named.length === 1 ? named[0]! : null;
  const names = new Map<KeyValue, string>();
  if (id) names.set(id, '{id}');
  if (parent) names.set(parent, '{parent}');
  const rest = own.filter((v) => v !== id);
  const keyFields = nameKeyFields(rest, shape, shape.items, new Set([...RESERVED_FIELDS, 'parent']), new Set([table.pk.name, table.sk!.name]));
  rest.forEach((v, i) => names.set(v, `{${keyFields[i]!.name}}`));
  const guessed = keyFields.filter((f) => f.guess !== null);
  if (guessed.length > 0) {
    const one = guessed.length === 1;
    todos.push(`the key's value${one ? '' : 's'} ${guessed.map((f) => `{${f.name}} (${f.guess})`).join(', ')} ${one ? 'is' : 'are'} named by guess: no attribute of the samples holds ${one ? 'it' : 'them'}; rename ${one ? 'it' : 'them'} in the keys and the fields`);
  }
  rest.forEach((v, i) => {
    if (shape.items.length > 1 && v.values.every((x) => x === v.values[0])) todos.push(`every sample holds "${v.values[0]}" at {${keyFields[i]!.name}}: if it is literal text, write it into the key instead`);
  });
  if (skRoots.length > 0 && pkRoots.length > 1) {
    todos.push(`its PK holds ${pkRoots.length} values: no parent's id alone names its partition, so it has no parent; a root @query over its partition lists it`);
  }
  if (rest.length > 0 && !id) todos.push(`no value of the key is the item's own id (no attribute named like an id holds one): its id is derived from the key's values (docs/model.md, derived ids)`);
  for (const [v, twin] of aliasOf) {
    names.set(v, names.get(twin)!);
    if (shape.items.length === 1) todos.push(`the value "${v.values[0]}" is in both keys of the one sample: read as the same ${names.get(twin)}`);
  }
  const render = (key: 'pk' | 'sk', tokens: Token[]) =>
    tokens.map((t, at) => ('literal' in t ? t.literal : names.get(values.find((v) => v.key === key && v.at === at)!)!)).join('');
  const pk = render('pk', shape.pk);
  const sk = render('sk', shape.sk);
  for (const t of [pk, sk]) {
    try {
      parseTemplate(t.replaceAll('{parent}', '{p}'));
    } catch (error) {
      return { unserved: `items keyed like ${sample}: template "${t}" ${(error as Error).message}` };
    }
  }
  if (shape.items.length === 1) todos.push(`one sample (${sample}): which parts of its keys are ids is a guess`);
  // The parent's partition: the child's PK up to the parent's id (`u#{parent}#follower` lives under `u#{id}`).
  const parentPk = parent ? pk.slice(0, pk.indexOf('{parent}')) + '{id}' : null;
  return { shape, pk, sk, parentPk, idValues: id?.values ?? [], keyFields, todos };
}

function fieldKind(attribute: string, declared: string | undefined, samples: readonly RawItem[]): FieldKind | string {
  const seen = samples.map((s) => typeOf(s[attribute])).filter((t): t is string => t !== null);
  const type = declared ?? seen[0] ?? 'S';
  if (type === 'S') return 'String';
  if (type === 'BOOL') return 'Boolean';
  if (type === 'N') {
    const numbers = samples.map((s) => plainValue(s[attribute])).filter((n): n is number => typeof n === 'number');
    return numbers.some((n) => !Number.isInteger(n) || Math.abs(n) > INT_MAX) ? 'Float' : 'Int';
  }
  return type;
}

const KIND_NAMES: Record<string, string> = { M: 'a map', L: 'a list', SS: 'a string set', NS: 'a number set', BS: 'a binary set', B: 'binary', NULL: 'null' };

/** Is a sort-key member of an index partition read by another's begins_with? (partitions.ts's rule) */
function overlaps(a: { prefix: string; exact: boolean }, b: { prefix: string; exact: boolean }): boolean {
  if (a.exact && b.exact) return a.prefix === b.prefix;
  if (a.exact) return a.prefix.startsWith(b.prefix);
  if (b.exact) return b.prefix.startsWith(a.prefix);
  return prefixesOverlap(a.prefix, b.prefix);
}
const partitionShape = (template: string) => template.replace(/\{[^}]*\}/g, '{}');
const member = (template: string) => {
  const t = parseTemplate(template.replaceAll('{parent}', '{p}'));
  return { prefix: t.prefix, exact: t.placeholders.length === 0 };
};

type PartitionMember = { prefix: string; exact: boolean; name: string };

/** One inference under way: the table, the shapes placed so far, the types declared, the draft's to-dos. */
interface Inference {
  table: WorkbenchTable;
  todos: string[];
  keyNames: Set<string>;
  /** Type names given (with their Connection and Edge types). */
  taken: Set<string>;
  placed: Placed[];
  unserved: Shape[];
  unservedAttributes: Set<string>;
  mainOfFacet: Map<string, Placed>;
  /** Sort-key members of each partition shape: shapes that share a partition must differ in their sort-key prefixes. */
  inPartition: Map<string, PartitionMember[]>;
  types: DraftType[];
  byPlaced: Map<Placed, DraftType>;
}

function uniqueType(inf: Inference, name: string): string {
  let n = RESERVED_TYPES.has(name) ? `${name}Item` : name || 'Item';
  for (let i = 2; inf.taken.has(n) || inf.taken.has(`${n}Connection`) || inf.taken.has(`${n}Edge`); i++) n = `${name}${i}`;
  inf.taken.add(n);
  return n;
}

/** Adds a sort-key member to its partition; the name of the member it clashes with (then it is not added), or null. */
function admit(inf: Inference, pk: string, sk: string, what: string): string | null {
  const key = partitionShape(pk);
  const m = member(sk);
  const clash = (inf.inPartition.get(key) ?? []).find((o) => overlaps(o, m));
  if (clash) return clash.name;
  inf.inPartition.set(key, [...(inf.inPartition.get(key) ?? []), { ...m, name: what }]);
  return null;
}

/** Shapes → templates; a facet's type is its first top-level shape (else its most sampled). */
function placeShapes(inf: Inference): void {
  const { table } = inf;
  for (const shape of shapesOf(table)) {
    const p = place(shape, table);
    if ('unserved' in p) {
      inf.unserved.push(shape);
      const carried = [...new Set(shape.items.flatMap((i) => Object.keys(i)).filter((a) => a !== table.pk.name && a !== table.sk!.name))];
      inf.todos.push(`${shape.facet ? `facet ${shape.facet}: ` : ''}${p.unserved}; not declared (${shape.items.length} sample${shape.items.length === 1 ? '' : 's'}${carried.length > 0 ? ` carrying ${carried.join(', ')}` : ''}, kept in the demo data)`);
      for (const a of carried) inf.unservedAttributes.add(a);
    } else inf.placed.push(p);
  }
  for (const facet of table.facets) {
    const own = inf.placed.filter((p) => p.shape.facet === facet.name);
    const main = own.find((p) => p.parentPk === null) ?? [...own].sort((a, b) => b.shape.items.length - a.shape.items.length)[0];
    if (main) inf.mainOfFacet.set(facet.name, main);
  }
}

/** The name a placed shape's type is given before it is made unique. */
function baseName(inf: Inference, p: Placed): string {
  const facet = p.shape.facet;
  const pkT = parseTemplate(p.pk.replaceAll('{parent}', '{p}'));
  const skWords = words(parseTemplate(p.sk.replaceAll('{parent}', '{p}')).parts.flatMap((x) => ('literal' in x ? [x.literal] : [])).join(' '));
  const pkWords = words(pkT.parts.flatMap((x) => ('literal' in x ? [x.literal] : [])).join(' '));
  if (facet !== null) return inf.mainOfFacet.get(facet) === p ? pascal(words(facet)) : pascal([...words(facet), ...skWords]);
  if (p.parentPk === null) {
    // An attribute holding the id in every sample names the type (`complaint_id` → Complaint), else the keys' text.
    const named = Object.keys(p.shape.items[0]!).find((a) => /.(_id|Id|ID)$/.test(a) && p.shape.items.every((item, i) => plainValue(item[a]) === p.idValues[i]));
    const fromKeys = pascal(pkWords).length > 0 && !inf.taken.has(pascal(pkWords)) ? pascal(pkWords) : pascal([...pkWords, ...skWords]);
    return named ? pascal(words(named.replace(/(_id|Id|ID)$/, ''))) : fromKeys;
  }
  // A child is named by the PK's text after the parent's id (`u#{u}#follower`), else by its SK's text, else by its PK's.
  const after = p.pk.split('{parent}')[1] ?? '';
  return pascal(words(after).length > 0 ? words(after) : skWords.length > 0 ? skWords : [...pkWords, 'Item']);
}

const emptyType = (name: string, pk: string, sk: string): DraftType => ({
  name,
  get: '',
  pk,
  sk,
  parent: null,
  keyFields: [],
  derivedId: false,
  fields: [],
  indexed: [],
  children: [],
  queries: [],
  todos: [],
  about: '',
  samples: [],
  standIn: false,
});

/** A type per placed shape whose sort keys its partition can tell apart; top-level types first (children name their parents). */
function declareTypes(inf: Inference, ordered: Placed[]): void {
  const { table } = inf;
  for (const p of ordered) {
    const facet = p.shape.facet;
    const base = baseName(inf, p);
    const clash = admit(inf, p.pk, p.sk, base);
    if (clash) {
      const sample = `${stringKey(p.shape.items[0]!, table.pk.name)} / ${stringKey(p.shape.items[0]!, table.sk!.name)}`;
      inf.todos.push(`items keyed like ${sample} (${p.shape.items.length} sample${p.shape.items.length === 1 ? '' : 's'}) share their partition with ${clash}, whose sort-key prefix overlaps theirs: not declared`);
      inf.unserved.push(p.shape);
      continue;
    }
    const type: DraftType = {
      ...emptyType(uniqueType(inf, base || 'Item'), p.pk, p.sk),
      keyFields: p.keyFields.map((f) => f.name),
      derivedId: !`${p.pk}${p.sk}`.includes('{id}'),
      todos: [...p.todos],
      about: `Items keyed PK ${p.pk.replaceAll('{', '<').replaceAll('}', '>')}, SK ${p.sk.replaceAll('{', '<').replaceAll('}', '>')}: ${p.shape.items.length} sample${p.shape.items.length === 1 ? '' : 's'}${facet ? ` of the facet ${facet}` : ''}.`,
      samples: p.shape.items.map((i) => Object.fromEntries(Object.entries(i).map(([k, v]) => [k, plainValue(v)]))),
    };
    if (facet !== null && inf.mainOfFacet.get(facet) !== p) type.todos.push(`a key shape of the facet ${facet} other than its main one: named by guess`);
    if (facet !== null) {
      const f = table.facets.find((x) => x.name === facet)!;
      type.todos.push(`the facet's keys are named ${f.pkAlias} / ${f.skAlias ?? '(none)'} in the export`);
    }
    inf.types.push(type);
    inf.byPlaced.set(p, type);
  }
}

/** Children: the parent is the top-level type keyed by the child's PK with {id}; a stand-in when no sample shows it. */
function attachChildren(inf: Inference, ordered: Placed[]): void {
  for (const p of ordered) {
    const child = inf.byPlaced.get(p);
    if (!child || p.parentPk === null) continue;
    const candidates = inf.types.filter((t) => t.parent === null && t.pk === p.parentPk);
    const rank = (t: DraftType) => (!t.sk.includes('{') ? 0 : /meta|profile|info/i.test(t.sk) ? 1 : 2) + (t.standIn ? 3 : 0);
    let parent = [...candidates].sort((a, b) => rank(a) - rank(b))[0];
    if (!parent) {
      parent = standInParent(inf, p.parentPk, child);
      inf.types.push(parent);
    } else if (candidates.length > 1) {
      child.todos.push(`its parent could be any of ${candidates.map((c) => c.name).join(', ')} (all keyed ${p.parentPk}): ${parent.name} chosen`);
    }
    const field = camel(parent.name);
    // A key field the parent's field would shadow is renamed, in the keys too.
    if (child.keyFields.includes(field)) {
      let name = `${field}_`;
      while (child.keyFields.includes(name) || p.shape.items.some((i) => name in i)) name = `${name}_`;
      child.keyFields = child.keyFields.map((k) => (k === field ? name : k));
      p.keyFields = p.keyFields.map((k) => (k.name === field ? { ...k, name } : k));
      child.pk = child.pk.replaceAll(`{${field}}`, `{${name}}`);
      child.sk = child.sk.replaceAll(`{${field}}`, `{${name}}`);
      child.todos = child.todos.map((t) => t.replaceAll(`{${field}}`, `{${name}}`));
      child.about = child.about.replaceAll(`<${field}>`, `<${name}>`);
    }
    child.parent = { field, type: parent.name };
    child.pk = child.pk.replaceAll('{parent}', `{${field}}`);
    child.sk = child.sk.replaceAll('{parent}', `{${field}}`);
    child.about = child.about.replaceAll('<parent>', `<${field}>`);
    parent.children.push({ field: camel(plural(child.name)), type: child.name });
  }
}

/** A keyless parent for children whose parent no sample shows. */
function standInParent(inf: Inference, parentPk: string, child: DraftType): DraftType {
  const pkWords = words(parentPk.split('{id}')[0] ?? '');
  // The stand-in's own items need a sort key no child's prefix overlaps: its partition is apart when the children's SK could be anything.
  let pk = parentPk;
  const sk = 'META';
  if (admit(inf, pk, sk, 'stand-in') !== null) {
    pk = `${parentPk}#PARENT`;
    admit(inf, pk, sk, 'stand-in');
  }
  return {
    ...emptyType(uniqueType(inf, pascal(pkWords) || `${child.name}Parent`), pk, sk),
    todos: [`no sample item is keyed ${parentPk}: declared keyless (no item of its own), known by the ids in its ${child.name} items' keys; give it an @item if such items exist`],
    about: `The parent of ${child.name} items (their PK holds its id); keyless.`,
    standIn: true,
  };
}

/** Stored fields: what the type's samples carry (a facet's main type also the facet's attributes no sample shows). */
function declareFields(inf: Inference): void {
  const { table, keyNames } = inf;
  const declaredType = new Map(table.attributes.map((a) => [a.name, a.type]));
  const order = (attribute: string): number => {
    const i = table.attributes.findIndex((a) => a.name === attribute);
    return i < 0 ? table.attributes.length : i;
  };
  const seenAnywhere = new Set<string>();
  for (const type of inf.types) {
    const p = [...inf.byPlaced].find(([, t]) => t === type)?.[0];
    const samples = p?.shape.items ?? [];
    const names: string[] = [];
    for (const s of samples) for (const a of Object.keys(s)) if (!names.includes(a) && !keyNames.has(a)) names.push(a);
    if (p && p.shape.facet !== null && inf.mainOfFacet.get(p.shape.facet) === p) {
      const f = table.facets.find((x) => x.name === p.shape.facet)!;
      const inFacet = new Set(inf.placed.filter((q) => q.shape.facet === f.name).flatMap((q) => q.shape.items.flatMap((i) => Object.keys(i))));
      const unseen = f.attributes.filter((a) => !inFacet.has(a) && !names.includes(a));
      if (unseen.length > 0) type.todos.push(`the facet's attributes ${unseen.join(', ')} are in no sample: declared here, nullable; move them to their type`);
      names.push(...unseen);
    }
    names.sort((a, b) => order(a) - order(b));
    const used = new Set<string>([...(type.parent ? [type.parent.field] : []), ...type.children.map((c) => c.field), 'id']);
    // Key fields first, required: the key holds them, so every item has them (one without the attribute reads it from its key).
    const inKey = new Set<string>();
    for (const k of p?.keyFields ?? []) {
      used.add(k.name);
      if (k.attribute !== null) {
        inKey.add(k.attribute);
        seenAnywhere.add(k.attribute);
      }
      type.fields.push({ name: k.name, attribute: k.attribute ?? k.name, kind: k.kind, required: true });
    }
    for (const attribute of names.filter((a) => !inKey.has(a))) {
      seenAnywhere.add(attribute);
      const kind = fieldKind(attribute, declaredType.get(attribute), samples);
      if (kind !== 'String' && kind !== 'Int' && kind !== 'Float' && kind !== 'Boolean') {
        type.todos.push(`${attribute} holds ${KIND_NAMES[kind] ?? kind}: left out (declare it as a map type or a list with its max, docs/model.md)`);
        continue;
      }
      if (RESERVED_FIELDS.has(attribute)) {
        type.todos.push(`${attribute} is a name the gateway keeps for itself: left out`);
        continue;
      }
      let name = NAME.test(attribute) && !attribute.startsWith('__') ? attribute : attribute.replace(/[^_0-9A-Za-z]/g, '_').replace(/^(?=[0-9])/, '_').replace(/_+$/, '') || 'value';
      while (used.has(name)) name = `${name}_`;
      used.add(name);
      // An attribute with no GraphQL name gets a field of a GraphQL name stored under it (emit.ts: @attribute(name:)).
      type.fields.push({ name, attribute, kind });
    }
  }
  const unseen = table.attributes.map((a) => a.name).filter((a) => !seenAnywhere.has(a) && !inf.unservedAttributes.has(a) && !keyNames.has(a));
  if (unseen.length > 0) inf.todos.push(`the table's attributes ${unseen.join(', ')} are in no sample: no type declares them`);
}

/** Indexes: a type is in an index when its samples carry the index's key attributes (its own: no templates). */
function declareIndexed(inf: Inference): void {
  const { table, keyNames } = inf;
  for (const index of table.indexes) {
    const attributes = [index.pk, ...(index.sk ? [index.sk] : [])];
    const inIndex = new Map<string, PartitionMember[]>();
    for (const type of inf.types) {
      if (type.standIn) continue;
      const fieldOf = (a: string) => type.fields.find((f) => f.attribute === a && f.name === a && f.kind !== 'Boolean');
      const carried = attributes.every((a) => keyNames.has(a.name) || (fieldOf(a.name) && type.samples.some((s) => s[a.name] !== undefined)));
      if (!carried) continue;
      const templateOf = (a: string) => (a === table.pk.name ? type.pk : a === table.sk!.name ? type.sk : `{${a}}`);
      const pkT = templateOf(index.pk.name);
      const skT = index.sk ? templateOf(index.sk.name) : '';
      const key = partitionShape(pkT);
      // An index without a sort key holds one item per partition value: any literal stands for its (absent) sort key.
      const m = member(skT || 'X');
      const clash = (inIndex.get(key) ?? []).find((o) => overlaps(o, m));
      if (clash) {
        type.todos.push(`its samples carry the keys of ${index.name}, but there its items could not be told from ${clash.name}'s: not declared @indexed`);
        continue;
      }
      inIndex.set(key, [...(inIndex.get(key) ?? []), { ...m, name: type.name }]);
      type.indexed.push(index.name);
      const placeholders = [...pkT.matchAll(/\{([^}]*)\}/g)].map((x) => x[1]!);
      const args = placeholders.map((ph) => {
        const field = type.fields.find((f) => f.name === ph);
        if (field) return { name: ph, type: `${field.kind}!` };
        return { name: ph === 'id' ? 'id' : `${ph}Id`, type: 'ID!' };
      });
      type.queries.push({ name: `${camel(plural(type.name))}By${pascal(words(index.name))}`, index: index.name, args });
    }
  }
}

/** Root fields: children of a stand-in are read by their partition in the table (it has no items); names unique on Query. */
function nameRootFields(types: DraftType[]): void {
  for (const type of types) {
    if (type.standIn) continue;
    if (type.parent && types.find((t) => t.name === type.parent!.type)!.standIn) {
      type.queries.unshift({ name: `${camel(plural(type.name))}Of${type.parent.type}`, index: null, args: [{ name: `${type.parent.field}Id`, type: 'ID!' }] });
      continue;
    }
    // A partition of several items named by several values (no parent lists it): read by each value.
    const inPk = parseTemplate(type.pk).placeholders;
    if (type.parent || inPk.length < 2 || parseTemplate(type.sk).placeholders.length === 0) continue;
    const args = inPk.map((ph) => (ph === 'id' ? { name: 'id', type: 'ID!' } : { name: ph, type: `${type.fields.find((f) => f.name === ph)!.kind}!` }));
    type.queries.unshift({ name: `${camel(plural(type.name))}Of${pascal(inPk)}`, index: null, args });
  }
  const rootNames = new Set<string>();
  const unique = (name: string) => {
    let n = name;
    for (let i = 2; rootNames.has(n); i++) n = `${name}${i}`;
    rootNames.add(n);
    return n;
  };
  for (const type of types) type.get = unique(camel(type.name));
  for (const type of types) for (const q of type.queries) q.name = unique(q.name);
}

/**
 * Samples no type declares that sit under a type's sort-key prefix in that type's partition: they would be read as
 * its items and fail the read (they do not match the type's template), so they stay out of the demo data.
 */
function excludedSamples(inf: Inference): Set<RawItem> {
  const { table } = inf;
  const excluded = new Set<RawItem>();
  for (const shape of inf.unserved) {
    for (const item of shape.items) {
      const pkValue = stringKey(item, table.pk.name);
      const skValue = stringKey(item, table.sk!.name);
      const under = inf.types.find((t) => parseTemplate(t.pk).match(pkValue) !== null && skValue.startsWith(parseTemplate(t.sk).prefix) && parseTemplate(t.sk).placeholders.length > 0);
      if (!under) continue;
      excluded.add(item);
      inf.todos.push(`the sample ${pkValue} / ${skValue} is left out of the demo data: it is under the sort-key prefix of ${under.name} without matching ${under.sk}, so a read of ${under.name} items would fail on it`);
    }
  }
  return excluded;
}

export function inferDraft(table: WorkbenchTable): Draft {
  const inf: Inference = {
    table,
    todos: [],
    keyNames: new Set([table.pk.name, table.sk!.name]),
    taken: new Set<string>(RESERVED_TYPES),
    placed: [],
    unserved: [],
    unservedAttributes: new Set(),
    mainOfFacet: new Map(),
    inPartition: new Map(),
    types: [],
    byPlaced: new Map(),
  };
  if (table.otherTables.length > 0) inf.todos.push(`the export holds more tables (${table.otherTables.join(', ')}): the gateway serves one, the first`);
  placeShapes(inf);
  const ordered = [...inf.placed.filter((p) => p.parentPk === null), ...inf.placed.filter((p) => p.parentPk !== null)];
  declareTypes(inf, ordered);
  attachChildren(inf, ordered);
  declareFields(inf);
  declareIndexed(inf);
  nameRootFields(inf.types);
  const excluded = excludedSamples(inf);
  const indexes = table.indexes.map((i) => ({ name: i.name, pk: [i.pk.name], sk: i.sk ? [i.sk.name] : [] }));
  return { modelName: table.modelName, tableName: table.tableName, pk: table.pk.name, sk: table.sk!.name, indexes, types: inf.types, todos: inf.todos, excluded };
}
