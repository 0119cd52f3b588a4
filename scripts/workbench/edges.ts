/**
 * Many-to-many pairs the samples show both ways: two child types, each in
 * the partition of one end and keyed by the other end's key
 * (`VIN#<vin>` / `ID#<user>` and `ID#<user>` / `VIN#<vin>`), with at least
 * one pair of samples that mirror each other and nothing stored but their
 * keys. They become one `@edges` side on each end, the second the mirror of
 * the first (docs/model.md, mirrored pairs): each end lists the other's
 * items, not link items, and a link is written both ways in one
 * transaction.
 *
 * Link items read back through an overloaded index: a child type keyed by
 * another type's id (`GUEST#<guest>` / `FAV#<restaurant>`, the ids being
 * restaurants'), storing nothing but its keys, and in an index under that
 * type's pk and its own partition (`REST#<restaurant>` / `GUEST#<guest>`).
 * They become a base side on the parent and an inverse side on the other
 * type reading its key in that index (@edges(inverseOf, index, pk, sk)),
 * instead of a child type and a root @query over the index.
 */
import type { DraftIndexed, DraftType, Inference } from './draft.js';
import { parseTemplate } from '../../src/declaration/template.js';
import { camel, fieldName, plural } from './names.js';

/** Its parent's partition with the parent as `{id}`, or null when it is no plain child. */
const ownerPk = (t: DraftType) => (t.parent ? t.pk.replace(`{${t.parent.field}}`, '{id}') : null);

function isLink(t: DraftType): boolean {
  return (
    t.parent !== null && !t.standIn && !t.derivedId && t.keyFields.length === 0 && t.placed !== null && t.samples.every((s) => Object.keys(s).length === 2)
  );
}

/** Does some sample of `a` (owner p, id q) have its mirror in `b` (owner q, id p)? */
function mirrored(a: DraftType, b: DraftType): boolean {
  const pairs = new Set(b.placed!.parentValues.map((owner, i) => `${owner}\u0000${b.placed!.idValues[i]}`));
  return a.placed!.parentValues.some((owner, i) => pairs.has(`${a.placed!.idValues[i]}\u0000${owner}`));
}

/** The node's placeholder in an edge's sort key (`{userId}`): a name neither end stores (a field there could change). */
function nodePlaceholder(node: DraftType, owner: DraftType): string {
  const stored = new Set([...node.samples, ...owner.samples].flatMap((s) => Object.keys(s).map(fieldName)));
  let name = `${camel(node.name)}Id`;
  while (stored.has(name)) name = `${name}_`;
  return name;
}

function freeField(owner: DraftType, name: string): string {
  const taken = new Set([
    'id',
    ...owner.fields.map((f) => f.name),
    ...owner.children.map((c) => c.field),
    ...owner.edges.map((e) => e.field),
    ...(owner.parent ? [owner.parent.field] : []),
  ]);
  let n = name;
  while (taken.has(n)) n = `${n}_`;
  return n;
}

export function declareEdges(inf: Inference): void {
  const links = inf.types.filter(isLink);
  const done = new Set<DraftType>();
  for (const a of links) {
    if (done.has(a)) continue;
    const b = links.find((x) => x !== a && !done.has(x) && x.sk === ownerPk(a) && a.sk === ownerPk(x) && mirrored(a, x));
    if (!b) continue;
    const p = inf.types.find((t) => t.name === a.parent!.type)!;
    const q = inf.types.find((t) => t.name === b.parent!.type)!;
    for (const [link, owner] of [
      [a, p],
      [b, q],
    ] as const) {
      owner.children = owner.children.filter((c) => c.type !== link.name);
      done.add(link);
    }
    const base = freeField(p, camel(plural(q.name)));
    p.edges.push({ field: base, type: q.name, pk: ownerPk(a)!, sk: a.sk.replace('{id}', `{${nodePlaceholder(q, p)}}`), inverseOf: null });
    q.edges.push({
      field: freeField(q, camel(plural(p.name))),
      type: p.name,
      pk: ownerPk(b)!,
      sk: b.sk.replace('{id}', `{${nodePlaceholder(p, q)}}`),
      inverseOf: base,
    });
    p.todos.push(
      `${base} and ${q.name}.${q.edges.at(-1)!.field} read link items the samples show both ways (${a.pk} / ${a.sk} and ${b.pk} / ${b.sk}) as a mirrored pair of edges: if they are items of their own, declare them as children`,
    );
  }
  inf.types = inf.types.filter((t) => !done.has(t));
}

/** The other end and index of a link type read back through an index (above), or null. */
function indexedLink(inf: Inference, t: DraftType): { node: DraftType; indexed: DraftIndexed } | null {
  if (!t.parent || t.standIn || t.derivedId || t.keyFields.length > 0 || t.fields.length > 0 || !t.placed) return null;
  if (parseTemplate(t.sk).placeholders.join() !== 'id') return null;
  for (const indexed of t.indexed) {
    if (indexed.pk?.length !== 1 || indexed.sk?.length !== 1 || indexed.sk[0] !== t.pk) continue;
    const node = inf.types.find((x) => x !== t && !x.parent && !x.standIn && x.pk === indexed.pk![0] && x.placed !== null);
    // The link's ids are the node's: it names that type's items.
    if (node && t.placed.idValues.some((id) => node.placed!.idValues.includes(id))) return { node, indexed };
  }
  return null;
}

export function declareIndexedEdges(inf: Inference): void {
  const done = new Set<DraftType>();
  for (const t of inf.types) {
    const link = indexedLink(inf, t);
    const owner = link && inf.types.find((x) => x.name === t.parent!.type);
    if (!link || !owner || owner === link.node) continue;
    const { node, indexed } = link;
    owner.children = owner.children.filter((c) => c.type !== t.name);
    for (const x of inf.types) x.fieldQueries = x.fieldQueries.filter((q) => q.type !== t.name);
    done.add(t);
    const base = freeField(owner, camel(plural(node.name)));
    owner.edges.push({ field: base, type: node.name, pk: ownerPk(t)!, sk: t.sk.replace('{id}', `{${nodePlaceholder(node, owner)}}`), inverseOf: null });
    const inverse = freeField(node, camel(plural(owner.name)));
    node.edges.push({
      field: inverse,
      type: owner.name,
      pk: indexed.pk![0]!,
      sk: t.pk.replace(`{${t.parent!.field}}`, `{${nodePlaceholder(owner, node)}}`),
      inverseOf: base,
      index: indexed.index,
    });
    owner.todos.push(
      `${base} and ${node.name}.${inverse} read link items (${t.pk} / ${t.sk}, in ${indexed.index} ${indexed.pk![0]} / ${indexed.sk![0]}) as edges: if they are items of their own, declare them as children`,
    );
  }
  inf.types = inf.types.filter((t) => !done.has(t));
}
