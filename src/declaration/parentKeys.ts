/**
 * Children whose key holds their parent's key values instead of its id
 * (`REPO#{repoOwner}#{repoName}` under a repository keyed
 * `REPO#{owner}#{name}`): which of the child's fields holds which value,
 * read once every item type is read.
 */
import type { GraphQLSchema } from 'graphql';
import type { ItemType } from './model.js';
import type { Problems } from './problems.js';
import { renamedPlaceholders } from './template.js';

/**
 * A child whose key does not hold its parent's id holds its parent's key
 * values: its pk is the parent's pk with the child's own key fields for the
 * parent's placeholders (`REPO#{repoOwner}#{repoName}` under
 * `REPO#{owner}#{name}`), matched as @query matches a partition to its
 * owner's key (renamedPlaceholders), and the parent's id is derived from
 * exactly those values. Anything else is refused: the parent's id could not
 * be read back from the child's keys.
 */
export function readParentKeys(schema: GraphQLSchema, item: ItemType, items: ReadonlyMap<string, ItemType>, problems: Problems): void {
  const { parent } = item;
  if (!parent || item.pk.placeholders.includes(parent.field) || item.sk.placeholders.includes(parent.field)) return;
  const owner = items.get(parent.type);
  const renamed = owner?.derivedId && owner.pk.prefix !== '' ? renamedPlaceholders(item.pk, owner.pk) : null;
  const byOwner = new Map([...(renamed ?? [])].map(([mine, theirs]) => [theirs, mine]));
  const keys = owner?.derivedId?.map((p) => byOwner.get(p));
  if (renamed && keys && keys.every((k) => k !== undefined && item.keyFields.includes(k)) && byOwner.size === renamed.size) {
    // Written from the parent's id as text: a field of text (String or ID, or DateTime for a DateTime of the parent's).
    const kindOf = (t: ItemType, f: string) => t.attributes.find((a) => a.name === f)?.kind ?? 'ID';
    const text = (k: string) => (k === 'ID' ? 'String' : k);
    const odd = owner!.derivedId!.filter((p, i) => {
      const mine = kindOf(item, keys[i]!);
      return !['String', 'ID', 'DateTime'].includes(mine) || text(mine) !== text(kindOf(owner!, p));
    });
    parent.keys = keys as string[];
    for (const p of odd) {
      const mine = keys[owner!.derivedId!.indexOf(p)]!;
      problems.add(
        `${item.name}.${mine}`,
        `holds ${parent.type}.${p} (${kindOf(owner!, p)}), a key value of its parent written from the parent's id: make it a String, ID or DateTime of the same kind`,
        schema.getType(item.name)?.astNode,
      );
    }
    return;
  }
  const outside = owner?.derivedId?.filter((p) => !owner.pk.placeholders.includes(p)) ?? [];
  const values = !owner?.derivedId
    ? ''
    : outside.length > 0
      ? ` (${owner.name}'s id also holds ${outside.map((p) => `{${p}}`).join(', ')}, which its pk does not, so no key repeating its pk gives the id back)`
      : `, or be ${owner.name}'s pk "${owner.pk.source}" with fields of ${item.name} for its placeholders (${owner.name}'s id is derived from them)`;
  problems.add(`${item.name} @item`, `a child's key holds its parent's id: pk or sk must hold {${parent.field}}${values}`, schema.getType(item.name)?.astNode);
}
