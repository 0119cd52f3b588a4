/**
 * References and index keys of the drafted types.
 *
 * References: an attribute named like an id (`guestId`) whose every sample
 * value is the id of an item of one top-level type (a guest's) becomes a
 * reference to that type, unless it is the item's own id or its parent's.
 *
 * Index keys: a type is in an index when its samples carry the index's key
 * attributes. Attributes the type declares as fields of the same name (or
 * the table's keys) are the index's keys as they are: `@indexed(index:)`.
 * Others, typically an overloaded GSI1PK/GSI1SK written by the design
 * (`CITY#lisbon`, `REST#tasca-lx`), are read as templates over the type's
 * id, parent and fields, found piece by piece in every sample
 * (`@indexed(index: "GSI1", pk: ["CITY#{city}"], sk: ["REST#{id}"])`); a
 * type whose samples fit no template gets a TODO instead. Each index
 * partition is listed by a root `@query`, and, where its key names a
 * reference, by a `@query` field of the referred type (a restaurant's
 * favourites, read through GSI1 by `REST#{restaurantId}`).
 */
import { parseTemplate } from '../../src/declaration/template.js';
import type { DraftField, DraftType, Inference, PartitionMember } from './draft.js';
import { ID_ATTRIBUTE } from './keyFields.js';
import { piecesOf } from './keys.js';
import { camel, pascal, plural, words } from './names.js';
import { admitTo } from './partitions.js';
import type { Index, KeyAttribute } from './read.js';

const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

/** The ids of each type found by its id alone (top-level, not derived), from its samples or its children's keys. */
function idsByType(inf: Inference): Map<DraftType, Set<string>> {
  const ids = new Map<DraftType, Set<string>>();
  for (const t of inf.types) {
    if (t.parent || t.derivedId) continue;
    ids.set(t, new Set(t.placed?.idValues ?? []));
  }
  for (const t of inf.types) {
    const parent = t.parent && inf.types.find((p) => p.name === t.parent!.type);
    if (parent?.standIn) for (const v of t.placed?.parentValues ?? []) ids.get(parent)!.add(v);
  }
  return ids;
}

function declareReferences(inf: Inference): void {
  const ids = idsByType(inf);
  for (const type of inf.types) {
    const p = type.placed;
    if (!p) continue;
    for (const field of type.fields) {
      if (field.required || field.kind !== 'String' || !ID_ATTRIBUTE.test(field.attribute)) continue;
      const values = type.samples.map((s) => text(s[field.attribute]));
      if (values.every((v) => v === null)) continue;
      const own = values.every((v, i) => v === null || v === p.idValues[i]);
      const parents = values.every((v, i) => v === null || v === p.parentValues[i]);
      if (parents && type.parent) continue;
      const referred = [...ids].filter(([t, known]) => !(t === type && own) && known.size > 0 && values.every((v) => v === null || known.has(v)));
      if (referred.length === 1) field.reference = referred[0]![0].name;
    }
  }
}

/** A placeholder's value in each sample: `{id}`, the parent's, a text field's; references first, then id, parent, key fields, others. */
function placeholderValues(type: DraftType): { name: string; values: (string | null)[] }[] {
  const p = type.placed!;
  const fields = type.fields.filter((f) => f.kind === 'String' || f.kind === 'DateTime');
  const of = (f: DraftField) => ({ name: f.name, values: type.samples.map((s) => text(s[f.attribute])) });
  return [
    ...fields.filter((f) => f.reference).map(of),
    ...(type.derivedId ? [] : [{ name: 'id', values: p.idValues }]),
    ...(type.parent ? [{ name: type.parent.field, values: p.parentValues }] : []),
    ...fields.filter((f) => !f.reference && f.required).map(of),
    ...fields.filter((f) => !f.reference && !f.required).map(of),
  ];
}

/** The template every sample carrying `attribute` fits, or null; undefined when no sample carries it. */
function templateOf(type: DraftType, attribute: string): string | null | undefined {
  const candidates = placeholderValues(type);
  let template: string | undefined;
  for (let i = 0; i < type.samples.length; i++) {
    const value = text(type.samples[i]![attribute]);
    if (value === null) continue;
    const t = piecesOf(value)
      .map((piece) => {
        const c = piece.text === '' ? undefined : candidates.find((x) => x.values[i] === piece.text);
        return `${c ? `{${c.name}}` : piece.text}${piece.sep}`;
      })
      .join('');
    if (template !== undefined && t !== template) return null;
    template = t;
  }
  if (template === undefined) return undefined;
  try {
    parseTemplate(template);
  } catch {
    return null;
  }
  return template;
}

/** A sample lacking the index's keys must lack a value its templates need (else it would be expected in the index). */
function sparseAsWritten(type: DraftType, attributes: readonly KeyAttribute[], templates: readonly string[]): boolean {
  const needed = [...new Set(templates.flatMap((t) => parseTemplate(t).placeholders))];
  const candidates = new Map(placeholderValues(type).map((c) => [c.name, c.values]));
  return type.samples.every((s, i) => attributes.every((a) => s[a.name] !== undefined) || needed.some((n) => (candidates.get(n)?.[i] ?? null) === null));
}

interface Membership {
  pk: string[] | null;
  sk: string[] | null;
  /** The templates (or attributes as placeholders) of the partition and sort keys, for the overlap check and the root field. */
  pkTemplate: string;
  skTemplate: string;
}

/** How a type's samples sit in an index: as stored, by templates, not at all (null), or not fitting (a reason). */
function membershipOf(inf: Inference, type: DraftType, index: Index): Membership | null | string {
  const { table, keyNames } = inf;
  const attributes = [index.pk, ...(index.sk ? [index.sk] : [])];
  if (!type.samples.some((s) => attributes.some((a) => s[a.name] !== undefined))) return null;
  const fieldOf = (a: string) => type.fields.find((f) => f.attribute === a && f.name === a && f.kind !== 'Boolean');
  const natural = (a: KeyAttribute) => keyNames.has(a.name) || fieldOf(a.name) !== undefined;
  if (attributes.every(natural)) {
    if (!attributes.every((a) => keyNames.has(a.name) || type.samples.some((s) => s[a.name] !== undefined))) return null;
    const as = (a: string) => (a === table.pk.name ? type.pk : a === table.sk!.name ? type.sk : `{${a}}`);
    return { pk: null, sk: null, pkTemplate: as(index.pk.name), skTemplate: index.sk ? as(index.sk.name) : '' };
  }
  if (attributes.some((a) => keyNames.has(a.name) || a.type !== 'S'))
    return `its samples carry the keys of ${index.name}, which it cannot declare: a key attribute is the table's own or a number`;
  const templates = attributes.map((a) => templateOf(type, a.name));
  if (templates.some((t) => typeof t !== 'string') || !sparseAsWritten(type, attributes, templates as string[])) {
    return `its samples carry the keys of ${index.name} (${attributes.map((a) => a.name).join(', ')}), which no template over its id and fields gives in every sample: not declared @indexed`;
  }
  const [pk, sk] = templates as string[];
  return { pk: [pk!], sk: sk === undefined ? null : [sk], pkTemplate: pk!, skTemplate: sk ?? '' };
}

/** The arguments naming a partition: one per placeholder of its key. */
function partitionArgs(type: DraftType, template: string): { name: string; type: string }[] {
  return parseTemplate(template).placeholders.map((ph) => {
    const field = type.fields.find((f) => f.name === ph);
    if (field && !field.reference) return { name: ph, type: `${field.kind}!` };
    return { name: ph === 'id' || field ? ph : `${ph}Id`, type: 'ID!' };
  });
}

/** A `@query` field on the referred type when the partition is named by one reference. */
function fieldQuery(inf: Inference, type: DraftType, index: Index, pkTemplate: string): void {
  const placeholders = parseTemplate(pkTemplate).placeholders;
  const reference = placeholders.length === 1 ? type.fields.find((f) => f.name === placeholders[0] && f.reference) : undefined;
  const owner = reference && inf.types.find((t) => t.name === reference.reference);
  if (!owner || !index.sk) return;
  const taken = new Set([
    'id',
    ...owner.fields.map((f) => f.name),
    ...owner.children.map((c) => c.field),
    ...owner.edges.map((e) => e.field),
    ...owner.fieldQueries.map((q) => q.field),
    ...(owner.parent ? [owner.parent.field] : []),
  ]);
  let field = camel(plural(type.name));
  if (taken.has(field)) field = `${field}By${pascal(words(index.name))}`;
  if (taken.has(field)) return;
  owner.fieldQueries.push({ field, type: type.name, index: index.name });
}

export function declareIndexed(inf: Inference): void {
  declareReferences(inf);
  for (const index of inf.table.indexes) {
    const partitions = new Map<string, PartitionMember[]>();
    for (const type of inf.types) {
      if (type.standIn) continue;
      const m = membershipOf(inf, type, index);
      if (m === null) continue;
      if (typeof m === 'string') {
        type.todos.push(m);
        continue;
      }
      // An index without a sort key holds one item per partition value: any literal stands for its (absent) sort key.
      const clash = admitTo(partitions, m.pkTemplate, m.skTemplate || 'X', type.name);
      if (clash) {
        type.todos.push(`its samples carry the keys of ${index.name}, but there its items could not be told from ${clash}'s: not declared @indexed`);
        continue;
      }
      type.indexed.push({ index: index.name, pk: m.pk, sk: m.sk });
      type.queries.push({ name: `${camel(plural(type.name))}By${pascal(words(index.name))}`, index: index.name, args: partitionArgs(type, m.pkTemplate) });
      fieldQuery(inf, type, index, m.pkTemplate);
    }
  }
}
