/**
 * Stored fields of each drafted type: what its samples carry (a facet's
 * main type also the facet's attributes no sample shows), typed from the
 * samples and the table's declared attribute types. Key fields come first,
 * required. Maps, lists and sets are left out (one TODO per type: the draft
 * infers no map type or list maximum); the index keys of declared indexes
 * are left to indexed.ts; other names the gateway keeps are left out.
 */
import { plainValue, typeOf } from './demo.js';
import type { FieldKind, Inference } from './draft.js';
import { fieldName } from './names.js';
import type { RawItem } from './read.js';
import { RESERVED_FIELDS } from './shapes.js';

const INT_MAX = 2 ** 31 - 1;
const KIND_NAMES: Record<string, string> = { M: 'a map', L: 'a list', SS: 'a string set', NS: 'a number set', BS: 'a binary set', B: 'binary', NULL: 'null' };

function fieldKind(attribute: string, declared: string | undefined, samples: readonly RawItem[]): FieldKind | string {
  let seen: string | null = null;
  let fraction = false;
  for (const s of samples) {
    if (s[attribute] === undefined) continue;
    seen ??= typeOf(s[attribute]);
    const n = plainValue(s[attribute]);
    if (typeof n === 'number' && (!Number.isInteger(n) || Math.abs(n) > INT_MAX)) fraction = true;
  }
  const type = declared ?? seen ?? 'S';
  if (type === 'S') return 'String';
  if (type === 'BOOL') return 'Boolean';
  if (type === 'N') return fraction ? 'Float' : 'Int';
  return type;
}

/** The attributes of a type's samples, in the table's order (then as first seen), keys left out. */
function attributesOf(inf: Inference, samples: readonly RawItem[]): string[] {
  const seen = new Set<string>();
  for (const s of samples) for (const a of Object.keys(s)) if (!inf.keyNames.has(a)) seen.add(a);
  const order = new Map(inf.table.attributes.map((a, i) => [a.name, i]));
  return [...seen].sort((a, b) => (order.get(a) ?? order.size) - (order.get(b) ?? order.size));
}

export function declareFields(inf: Inference): void {
  const { table } = inf;
  const declaredType = new Map(table.attributes.map((a) => [a.name, a.type]));
  const indexKeys = new Set(table.indexes.flatMap((i) => [i.pk.name, ...(i.sk ? [i.sk.name] : [])]));
  const seenAnywhere = new Set<string>();
  for (const type of inf.types) {
    const p = type.placed;
    const samples = p?.shape.items ?? [];
    const names = attributesOf(inf, samples);
    if (p && p.shape.facet !== null && inf.mainOfFacet.get(p.shape.facet) === p) {
      const f = table.facets.find((x) => x.name === p.shape.facet)!;
      const inFacet = new Set(inf.placed.filter((q) => q.shape.facet === f.name).flatMap((q) => q.shape.items.flatMap((i) => Object.keys(i))));
      const named = new Set(names);
      const unseen = f.attributes.filter((a) => !inFacet.has(a) && !named.has(a) && !inf.keyNames.has(a));
      if (unseen.length > 0) type.todos.push(`the facet's attributes ${unseen.join(', ')} are in no sample: declared here, nullable; move them to their type`);
      names.push(...unseen);
    }
    const used = new Set<string>([...(type.parent ? [type.parent.field] : []), ...type.children.map((c) => c.field), ...type.edges.map((e) => e.field), 'id']);
    // Key fields first, required: the key holds them, so every item has them (one without the attribute reads it from its key).
    const inKey = new Set<string>();
    for (const k of p?.keyFields ?? []) {
      used.add(k.name);
      if (k.attribute !== null) inKey.add(k.attribute);
      type.fields.push({ name: k.name, attribute: k.attribute ?? k.name, kind: k.kind, required: true });
    }
    const leftOut: string[] = [];
    for (const attribute of names) {
      seenAnywhere.add(attribute);
      if (inKey.has(attribute) || (indexKeys.has(attribute) && RESERVED_FIELDS.has(attribute))) continue;
      const kind = fieldKind(attribute, declaredType.get(attribute), samples);
      if (kind !== 'String' && kind !== 'Int' && kind !== 'Float' && kind !== 'Boolean') {
        leftOut.push(`${attribute} (${KIND_NAMES[kind] ?? kind})`);
        continue;
      }
      if (RESERVED_FIELDS.has(attribute)) {
        type.todos.push(`${attribute} is a name the gateway keeps for itself: left out`);
        continue;
      }
      let name = fieldName(attribute);
      while (used.has(name)) name = `${name}_`;
      used.add(name);
      // An attribute with no GraphQL name gets a field of a GraphQL name stored under it (emit.ts: @attribute(name:)).
      type.fields.push({ name, attribute, kind });
    }
    if (leftOut.length > 0) type.todos.push(`left out: ${leftOut.join(', ')}; declare each as a map type or a list with its max (docs/model.md)`);
  }
  const unseen = table.attributes.map((a) => a.name).filter((a) => !seenAnywhere.has(a) && !inf.unservedAttributes.has(a) && !inf.keyNames.has(a));
  if (unseen.length > 0) inf.todos.push(`the table's attributes ${unseen.join(', ')} are in no sample: no type declares them`);
}
