/**
 * The values naming the partition a connection on a type reads for one
 * owner: the owner's id (the node's @parent or reference field), the
 * owner's key values (read back from its derived id, for a node template
 * that repeats the owner's pk: `REPO#{repoOwner}#{repoName}` under
 * `REPO#{owner}#{name}`), and, on a @query, the field's arguments, written
 * as a key holds them (keyText). A missing or bad argument is BAD_USER_INPUT.
 */
import type { Attribute, ChildrenRelation, ItemType } from '../declaration/model.js';
import { invariant } from '../errors.js';
import { keyText, type ItemPlan } from './itemPlan.js';

export type PartitionValues = (parentId: string, args?: Readonly<Record<string, unknown>>) => Record<string, string>;

const ID_TEXT = { kind: 'ID' } as Attribute;

export function compilePartitionValues(relation: ChildrenRelation, owner: ItemPlan, node: ItemType): { values: PartitionValues; byArguments: boolean } {
  const via = relation.via;
  const fills = Object.entries(relation.partitionFills);
  const ownerKeys = fills.some(([, f]) => 'ownerKey' in f && f.ownerKey !== 'id');
  invariant(!ownerKeys || owner.derived !== null, `${relation.path}: ${owner.name} has no key values to fill the partition`);
  const byArguments = fills.some(([, f]) => 'argument' in f);
  if (fills.length === 0) return { values: (parentId) => ({ [via]: parentId }), byArguments };
  const values: PartitionValues = (parentId, args) => {
    const out: Record<string, string> = via === '' ? {} : { [via]: parentId };
    const keys = ownerKeys ? owner.derived!.values(parentId) : null;
    for (const [placeholder, fill] of fills) {
      if ('ownerKey' in fill) {
        out[placeholder] = fill.ownerKey === 'id' ? parentId : keys![fill.ownerKey]!;
        continue;
      }
      invariant(args !== undefined, `${relation.path} reads the partition its arguments name: read it with them`);
      const a = node.attributes.find((x) => x.name === placeholder) ?? ID_TEXT;
      out[placeholder] = keyText(a, args[fill.argument], fill.argument);
    }
    return out;
  };
  return { values, byArguments };
}
