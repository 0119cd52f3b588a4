/**
 * How @edges lays its items out (edges with a key of their own, mirrored
 * pairs, inverse sides read through an index), checked at start-up, and
 * the two facts the plan, the writes and migrate derive from a pair: which
 * side is the inverse of which, and whether edge items carry GSI1 keys.
 */
import type { ASTNode, GraphQLObjectType } from 'graphql';
import type { Attribute, EdgeKey, EdgesRelation, ItemType, Layout, Relation } from './model.js';
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
 * Whether a base side's edge items carry GSI1 keys (GSI1 pk = SK, GSI1 sk = PK):
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
  const held = base.key === null ? [] : [...base.key.fields.map((f) => `{${f}}`), ...(base.key.ownId ? ['{id}'] : [])];
  if (inverse.sharded !== null && base.key?.ownId) {
    problems.add(`${inverse.path} @edges(shards)`, `write sharding of edges with an id of their own is not supported: ${base.path} names {id} in its sk`, node);
  } else if (inverse.key === null && held.length > 0) {
    // Read from the node's end, the base item's sort key names the partition: it would hold more than the node's id.
    problems.add(`${inverse.path} @edges(inverseOf)`, `reads ${base.path}'s items by their sort key, which holds ${held.join(', ')} besides the node's id: give this side its own pk and sk (a mirror written with each edge)`, node);
    return;
  }
  if (inverse.key !== null) {
    if (inverse.key.ownId !== (base.key?.ownId ?? false)) {
      problems.add(`${inverse.path} @edges(sk)`, `${inverse.key.ownId ? 'names' : 'lacks'} {id} while ${base.path}'s sk ${inverse.key.ownId ? 'lacks' : 'names'} it: a mirror names the edge's own id exactly when its base item does`, node);
    }
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

/** Kinds an edge key may hold: text that sorts as stored (an Int or Float would sort as text: 10 before 9). */
const KEYED_KINDS = new Set(['DateTime', 'String', 'ID', 'enum']);

/**
 * @edges(pk, sk): the edge item's own key. pk names the owner's {id} and no
 * other placeholder (the owner's id alone names the partition); sk has one
 * placeholder for the node's id, read back from it, and may name edge
 * fields (required, set once by @addEdge: DateTime, String, ID or an enum)
 * and {id}, the edge's own id. A placeholder naming a field of either end
 * would make the key follow a value that can change, so it is refused.
 */
export function readEdgeKey(
  args: Record<string, unknown>,
  at: string,
  field: Field,
  sides: { owner: ItemType; node: ItemType; edge: GraphQLObjectType; attributes: readonly Attribute[] },
  problems: Problems,
): EdgeKey | null {
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
  const edgeField = (p: string) => sides.attributes.find((a) => a.name === p && p !== 'id');
  // A placeholder named like a field of either end reads as that field, which can change.
  const endField = (p: string): string | null => {
    if (p === 'id') return null;
    for (const t of [sides.owner, sides.node]) if (t.attributes.some((a) => a.name === p)) return `${t.name}.${p}`;
    return null;
  };
  let ok = true;
  const refuse = (name: 'pk' | 'sk', message: string) => {
    problems.add(`${at} @edges(${name})`, message, field.astNode);
    ok = false;
  };
  for (const p of pk.placeholders) {
    const named = edgeField(p) ? `${sides.edge.name}.${p}` : endField(p);
    if (named !== null) refuse('pk', `placeholder {${p}} names the field ${named}: the edges' partition is named by the owner's {id} alone`);
  }
  const fields: string[] = [];
  const nodes: string[] = [];
  let namedEnd = false;
  for (const p of sk.placeholders) {
    const a = edgeField(p);
    if (a) {
      fields.push(p);
      const where = `placeholder {${p}} names the edge field ${sides.edge.name}.${p}`;
      if (!a.required) refuse('sk', `${where}, which is optional: an edge without it would have no key (make it ${a.kind === 'enum' ? 'its enum' : a.kind}!)`);
      else if (!KEYED_KINDS.has(a.kind)) refuse('sk', `${where}, an ${a.kind}: a sort key compares text (10 before 9), so it holds DateTime, String, ID or enum fields only`);
      continue;
    }
    const named = endField(p);
    if (named !== null) {
      refuse('sk', `placeholder {${p}} names the field ${named}, which can change after the edge is written: an edge's key holds the ends' ids and edge fields set by @addEdge`);
      namedEnd = true;
      continue;
    }
    if (p !== 'id') nodes.push(p);
  }
  if (pk.placeholders.length !== 1 || pk.placeholders[0] !== 'id') {
    refuse('pk', `template "${pk.source}" must name {id} (the owner's id) and no other placeholder: the owner's id alone names the edges' partition`);
  }
  if (nodes.length !== 1 && !namedEnd) {
    refuse('sk', `template "${sk.source}" must hold one placeholder for the node's id besides edge fields and {id} (sk: "u#{follower}"); it has ${nodes.length === 0 ? 'none' : nodes.map((n) => `{${n}}`).join(', ')}`);
  }
  const ownId = sk.placeholders.includes('id');
  if (ownId) {
    const id = sides.attributes.find((a) => a.name === 'id');
    if (!id || id.kind !== 'ID' || !id.required) {
      refuse('sk', `{id} in sk is the edge's own id: declare id: ID! on ${sides.edge.name}, so that an unlink can name the edge`);
    }
  }
  return ok ? { pk, sk, node: nodes[0]!, fields, ownId } : null;
}
