/**
 * How @edges lays its items out (edges with a key of their own, mirrored
 * pairs, inverse sides read through an index), checked at start-up, and
 * the two facts the plan, the writes and migrate derive from a pair: which
 * side is the inverse of which, and whether edge items carry GSI1 keys.
 */
import type { ASTNode, GraphQLObjectType } from 'graphql';
import type { EdgeKey, EdgesRelation, ItemType, Layout, Relation } from './model.js';
import { parseTemplate, TemplateError } from './template.js';
import type { Problems } from './problems.js';
import type { Field } from './schemaShape.js';

const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The inverse side of a base @edges side (the @edges field of its node type naming it in inverseOf), or null. */
export function inverseSideOf(base: EdgesRelation, relations: ReadonlyMap<string, Relation>): EdgesRelation | null {
  for (const r of relations.values()) {
    if (r.kind === 'edges' && r.direction === 'inverted' && r.owner === base.node && r.inverse === base.field) return r;
  }
  return null;
}

/**
 * Whether a base side's edge items carry GSI1 keys (GSI1PK = SK, GSI1SK = PK):
 * when its inverse side reads them there, and on default-keyed edges
 * without an inverse side (the layout of models that declare no edge key). A mirror or an
 * inverse side over the table's keys swapped needs nothing extra.
 */
export function writesGsi1Keys(base: EdgesRelation, inverse: EdgesRelation | null): boolean {
  if (inverse === null) return base.key === null;
  return inverse.key === null && inverse.index === null;
}

/**
 * A base side and its inverse side, as their keys pair up: a mirror (an
 * inverse side with its own key) is written beside each base item; an
 * inverse side without one reads the base items through GSI1 or through
 * `index`, which must be the table's keys swapped (nothing is written for it).
 */
export function checkEdgePair(base: EdgesRelation, inverse: EdgesRelation, layout: Pick<Layout, 'pk' | 'sk' | 'indexes'>, problems: Problems, node: ASTNode | null | undefined): void {
  if (inverse.key !== null) {
    // A rename reaches copies through the other side's reads of the same items; a mirror holds other items.
    if (base.copies.length > 0 || inverse.copies.length > 0) {
      problems.add(`${inverse.path} @edges(copy)`, `a mirrored pair (an inverse side with its own pk/sk) keeps no copies: a rename would not reach them`, node);
    }
    return;
  }
  if (inverse.index === null) return;
  const declared = layout.indexes.find((i) => i.name === inverse.index);
  if (!declared) {
    problems.add(`${inverse.path} @edges(index)`, `reads the index ${inverse.index}, which the model does not declare (${layout.indexes.map((i) => i.name).join(', ') || 'none'}): add @index(name: "${inverse.index}", pk: ["${layout.sk}"], sk: ["${layout.pk}"])`, node);
  } else if (declared.pk.join() !== String(layout.sk) || declared.sk.join() !== layout.pk) {
    problems.add(`${inverse.path} @edges(index)`, `the index ${inverse.index} is keyed on pk ${declared.pk.join(', ')}, sk ${declared.sk.join(', ') || 'none'}; an inverse side reads an index over the table's keys swapped (pk: ["${layout.sk}"], sk: ["${layout.pk}"])`, node);
  }
}

/**
 * @edges(pk, sk): the edge item's own key. pk names the owner's {id} and no
 * other placeholder (the owner's id alone names the partition); sk has one
 * placeholder, the node's id, read back from it. A placeholder naming a
 * field would make the key follow a value that can change (or that an
 * unlink does not know), so it is refused.
 */
export function readEdgeKey(args: Record<string, unknown>, at: string, field: Field, sides: { owner: ItemType; node: ItemType; edge: GraphQLObjectType }, problems: Problems): EdgeKey | null {
  const pkSource = strOrNull(args.pk);
  const skSource = strOrNull(args.sk);
  if (pkSource === null && skSource === null) return null;
  if (pkSource === null || skSource === null) {
    problems.add(`${at} @edges(${pkSource === null ? 'pk' : 'sk'})`, 'an edge key takes both templates, pk and sk', field.astNode);
    return null;
  }
  const parsed: Record<'pk' | 'sk', ReturnType<typeof parseTemplate> | null> = { pk: null, sk: null };
  for (const [name, source] of [['pk', pkSource], ['sk', skSource]] as const) {
    try {
      parsed[name] = parseTemplate(source);
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      problems.add(`${at} @edges(${name})`, `template "${source}" ${error.message}`, field.astNode);
    }
  }
  const { pk, sk } = parsed;
  if (pk === null || sk === null) return null;
  // A placeholder named like a field of either end or of the edge reads as that field, which can change.
  const fieldNamed = (p: string): string | null => {
    if (p === 'id') return null;
    for (const [type, names] of [
      [sides.owner.name, sides.owner.attributes.map((a) => a.name)],
      [sides.node.name, sides.node.attributes.map((a) => a.name)],
      [sides.edge.name, Object.keys(sides.edge.getFields())],
    ] as const) {
      if (names.includes(p)) return `${type}.${p}`;
    }
    return null;
  };
  let ok = true;
  for (const [name, t] of [['pk', pk], ['sk', sk]] as const) {
    for (const p of t.placeholders) {
      const named = fieldNamed(p);
      if (named === null) continue;
      problems.add(`${at} @edges(${name})`, `placeholder {${p}} names the field ${named}, which can change after the edge is written: an edge's key holds the owner's {id} and the node's id alone`, field.astNode);
      ok = false;
    }
  }
  if (pk.placeholders.length !== 1 || pk.placeholders[0] !== 'id') {
    problems.add(`${at} @edges(pk)`, `template "${pk.source}" must name {id} (the owner's id) and no other placeholder: the owner's id alone names the edges' partition`, field.astNode);
    ok = false;
  }
  if (sk.placeholders.length !== 1 || sk.placeholders[0] === 'id') {
    problems.add(`${at} @edges(sk)`, `template "${sk.source}" must hold one placeholder other than {id}, the node's id (sk: "u#{follower}")`, field.astNode);
    ok = false;
  }
  return ok ? { pk, sk, node: sk.placeholders[0]! } : null;
}
