/**
 * layoutProblems(): checks a set of raw items against a model's plan, the
 * way the gateway's own writes keep them: every item is an item of a
 * declared type, an edge of a declared @edges relation, or bookkeeping
 * (catalog counters); counters equal the children and edges present;
 * copies on edges equal the node's current field; edges carry their GSI1
 * keys, inverted types theirs. Returns one line per problem (none: []).
 * For demo files and generated data sets; sharded parents (counter items)
 * are not covered.
 */
import type { Item } from '../../src/dynamo/batchGet.js';
import type { Plan } from '../../src/plan/plan.js';

const keyOf = (item: Item) => `${item.PK}|${item.SK}`;

export function layoutProblems(plan: Plan, items: readonly Item[]): string[] {
  const problems: string[] = [];
  const byKey = new Map(items.map((i) => [keyOf(i), i]));
  const typed = new Map<string, string>(); // key → type name or `edge Owner.field`
  const edges = [...plan.relations.values()].filter((r) => r.relation.kind === 'edges' && r.relation.direction === 'base');
  for (const item of items) {
    const type = [...plan.items.values()].find((p) => p.ids(item) !== null);
    if (type) {
      typed.set(keyOf(item), type.name);
      if (type.type.inverted && (item.GSI1PK !== item.SK || item.GSI1SK !== item.PK))
        problems.push(`${keyOf(item)}: ${type.name} is inverted but lacks GSI1PK = SK, GSI1SK = PK`);
      continue;
    }
    const edge = edges.find(
      (r) => r.owner.type.pk.match(item.PK)?.id !== undefined && r.node.type.pk.match(item.SK)?.id !== undefined && r.owner.type.sk.match(item.SK) === null,
    );
    if (edge) {
      typed.set(keyOf(item), `edge ${edge.path}`);
      if (item.GSI1PK !== item.SK || item.GSI1SK !== item.PK) problems.push(`${keyOf(item)}: edge of ${edge.path} lacks GSI1PK = SK, GSI1SK = PK`);
      continue;
    }
    if (typeof item.PK === 'string' && item.PK.startsWith('CATALOG#')) continue;
    problems.push(`${keyOf(item)}: no declared type or edge has this key`);
  }
  for (const relation of plan.relations.values()) {
    const r = relation.relation;
    const owners = items.filter((i) => typed.get(keyOf(i)) === relation.owner.name);
    for (const owner of owners) {
      const ownerId = relation.owner.ids(owner)!.id;
      let members: Item[];
      if (r.kind === 'children') members = items.filter((i) => typed.get(keyOf(i)) === relation.node.name && i.PK === owner.PK);
      else if (r.direction === 'base') members = items.filter((i) => typed.get(keyOf(i)) === `edge ${relation.path}` && i.PK === owner.PK);
      else members = items.filter((i) => typed.get(keyOf(i))?.startsWith('edge ') && i.SK === owner.PK && relation.node.type.pk.match(i.PK) !== null);
      const shards = r.kind === 'edges' && r.sharded ? owner[r.sharded.count] : undefined;
      if (relation.counter && !(typeof shards === 'number' && shards > 1)) {
        if (owner[relation.counter] !== members.length)
          problems.push(`${relation.owner.name} ${ownerId}: ${relation.counter} is ${owner[relation.counter]}, ${relation.path} has ${members.length}`);
      }
      if (r.kind !== 'edges') continue;
      for (const edge of members) {
        // The node of this side: the edge's SK on the base side, its PK on the inverse side.
        const nodeKey = r.direction === 'base' ? String(edge.SK) : String(edge.PK);
        const nodeSk = relation.node.key(relation.node.type.pk.match(nodeKey)!.id).SK;
        const node = byKey.get(`${nodeKey}|${nodeSk}`);
        if (!node) {
          problems.push(`${keyOf(edge)}: edge of ${relation.path} leads to no ${relation.node.name} item`);
          continue;
        }
        for (const copy of r.copies) {
          if (edge[copy.attribute] !== node[copy.field])
            problems.push(
              `${keyOf(edge)}: ${copy.attribute} is ${JSON.stringify(edge[copy.attribute])}, ${relation.node.name}.${copy.field} is ${JSON.stringify(node[copy.field])}`,
            );
        }
        for (const attribute of r.edgeAttributes) {
          if (attribute.required && edge[attribute.name] === undefined) problems.push(`${keyOf(edge)}: edge lacks ${attribute.name}`);
        }
      }
    }
  }
  return problems;
}
