/**
 * An export's table → a draft model: item types with key templates, stored
 * fields, references, index memberships, connections and root fields, each
 * guess or refusal noted as a TODO.
 *
 * In:  the table read by read.ts. Out: a Draft (draft.ts) for emit.ts.
 *
 * Types come from the samples' key shapes (shapes.ts), grouped per facet
 * when the export has facets (one type per facet, plus one per other key
 * shape its samples show) or over the whole table when it has none. A
 * child (a value in its PK and one in its SK) is listed by the type keyed
 * by its PK with {id}, declared as a stand-in when no sample shows it.
 * Fields (fields.ts), references and index keys (indexed.ts) and pairs of
 * items shown both ways (edges.ts) follow.
 */
import { parseTemplate } from '../../src/declaration/template.js';
import { plainValue } from './demo.js';
import { emptyType, type Draft, type DraftType, type Inference } from './draft.js';
import { declareEdges, declareIndexedEdges } from './edges.js';
import { declareFields } from './fields.js';
import { declareIndexed } from './indexed.js';
import { camel, pascal, plural, RESERVED_TYPES, unique, words } from './names.js';
import { admit } from './partitions.js';
import type { RawItem, WorkbenchTable } from './read.js';
import { place, sampleKey, shapesOf, type Placed } from './shapes.js';

export type { Draft, DraftField, DraftQuery, DraftType, FieldKind } from './draft.js';

/** Shapes → templates; a facet's type is its first top-level shape (else its most sampled). */
function placeShapes(inf: Inference): void {
  const { table } = inf;
  for (const shape of shapesOf(table)) {
    const p = place(shape, table);
    if ('unserved' in p) {
      inf.unserved.push(shape);
      const carried = [...new Set(shape.items.flatMap((i) => Object.keys(i)).filter((a) => !inf.keyNames.has(a)))];
      inf.todos.push(
        `${shape.facet ? `facet ${shape.facet}: ` : ''}${p.unserved}; not declared (${shape.items.length} sample${shape.items.length === 1 ? '' : 's'}${carried.length > 0 ? ` carrying ${carried.join(', ')}` : ''}, left out of the demo data)`,
      );
      for (const a of carried) inf.unservedAttributes.add(a);
    } else inf.placed.push(p);
  }
  for (const facet of table.facets) {
    const own = inf.placed.filter((p) => p.shape.facet === facet.name);
    const main = own.find((p) => p.parentPk === null) ?? [...own].sort((a, b) => b.shape.items.length - a.shape.items.length)[0];
    if (main) inf.mainOfFacet.set(facet.name, main);
  }
}

const literalWords = (template: string) =>
  words(
    parseTemplate(template.replaceAll('{parent}', '{p}'))
      .parts.flatMap((x) => ('literal' in x ? [x.literal] : []))
      .join(' '),
  );

/** The name a placed shape's type is given before it is made unique. */
function baseName(inf: Inference, p: Placed): string {
  const facet = p.shape.facet;
  const skWords = literalWords(p.sk);
  const pkWords = literalWords(p.pk);
  if (facet !== null) return inf.mainOfFacet.get(facet) === p ? pascal(words(facet)) : pascal([...words(facet), ...skWords]);
  if (p.parentPk === null) {
    // An attribute holding the id in every sample names the type (`complaint_id` → Complaint), else the keys' text.
    const named = Object.keys(p.shape.items[0]!).find(
      (a) => /.(_id|Id|ID)$/.test(a) && p.shape.items.every((item, i) => plainValue(item[a]) === p.idValues[i]),
    );
    const fromKeys = pascal(pkWords).length > 0 && !inf.taken.has(pascal(pkWords)) ? pascal(pkWords) : pascal([...pkWords, ...skWords]);
    return named ? pascal(words(named.replace(/(_id|Id|ID)$/, ''))) : fromKeys;
  }
  // A child is named by the PK's text after the parent's id (`u#{u}#follower`), else by its SK's text, else by its PK's.
  const after = p.pk.split('{parent}')[1] ?? '';
  return pascal(words(after).length > 0 ? words(after) : skWords.length > 0 ? skWords : [...pkWords, 'Item']);
}

function uniqueType(inf: Inference, name: string): string {
  let n = RESERVED_TYPES.has(name) ? `${name}Item` : name || 'Item';
  for (let i = 2; inf.taken.has(n) || inf.taken.has(`${n}Connection`) || inf.taken.has(`${n}Edge`); i++) n = `${name}${i}`;
  inf.taken.add(n);
  return n;
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** A type per placed shape whose sort keys its partition can tell apart; top-level types first (children name their parents). */
function declareTypes(inf: Inference, ordered: Placed[]): void {
  const { table } = inf;
  for (const p of ordered) {
    const facet = p.shape.facet;
    const base = baseName(inf, p);
    const clash = admit(inf, p.pk, p.sk, base);
    if (clash) {
      inf.todos.push(
        `items keyed like ${sampleKey(p.shape, table)} (${count(p.shape.items.length, 'sample')}) share their partition with ${clash}, whose sort-key prefix overlaps theirs: not declared, left out of the demo data`,
      );
      inf.unserved.push(p.shape);
      continue;
    }
    const type: DraftType = {
      ...emptyType(uniqueType(inf, base || 'Item'), p.pk, p.sk),
      keyFields: p.keyFields.map((f) => f.name),
      derivedId: !`${p.pk}${p.sk}`.includes('{id}'),
      todos: [...p.todos],
      about: `Items keyed PK ${p.pk.replaceAll('{', '<').replaceAll('}', '>')}, SK ${p.sk.replaceAll('{', '<').replaceAll('}', '>')}: ${count(p.shape.items.length, 'sample')}${facet ? ` of the facet ${facet}` : ''}.`,
      samples: p.shape.items.map((i) => Object.fromEntries(Object.entries(i).map(([k, v]) => [k, plainValue(v)]))),
      placed: p,
    };
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
    // The parent's own item: a literal sort key naming what it is (`META`, `PROFILE`), then any literal one, then one holding its id.
    const rank = (t: DraftType) => (/meta|profile|info/i.test(t.sk) ? 0 : 1) + (t.sk.includes('{') ? 2 : 0) + (t.standIn ? 4 : 0);
    const ranked = [...candidates].sort((a, b) => rank(a) - rank(b));
    let parent = ranked[0];
    if (!parent) {
      parent = standInParent(inf, p.parentPk, child);
      inf.types.push(parent);
    } else if (ranked.length > 1 && rank(ranked[1]!) === rank(parent)) {
      child.todos.push(`its parent could be any of ${candidates.map((c) => c.name).join(', ')} (all keyed ${p.parentPk}): ${parent.name} chosen`);
    }
    // The parent's field: named after its type, never `id` (the item's own).
    const field = camel(parent.name) === 'id' ? 'id_' : camel(parent.name);
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
    todos: [
      `no sample item is keyed ${parentPk}: declared keyless (no item of its own), known by the ids in its ${child.name} items' keys; give it an @item if such items exist`,
    ],
    about: `The parent of ${child.name} items (their PK holds its id); keyless.`,
    standIn: true,
  };
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
  for (const type of types) type.get = unique(rootNames, camel(type.name));
  for (const type of types) for (const q of type.queries) q.name = unique(rootNames, q.name);
}

/** Samples no declared type reads stay out of the demo data: the gateway serves it, and `npm run check` reads it. */
function excludedSamples(inf: Inference): Set<RawItem> {
  return new Set(inf.unserved.flatMap((shape) => shape.items));
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
  declareEdges(inf);
  declareFields(inf);
  declareIndexed(inf);
  declareIndexedEdges(inf);
  nameRootFields(inf.types);
  const indexes = table.indexes.map((i) => ({ name: i.name, pk: [i.pk.name], sk: i.sk ? [i.sk.name] : [] }));
  return {
    modelName: table.modelName,
    tableName: table.tableName,
    pk: table.pk.name,
    sk: table.sk!.name,
    indexes,
    types: inf.types,
    todos: inf.todos,
    excluded: excludedSamples(inf),
  };
}
