/**
 * @access and owner claims (@item(claim:)): who may read a type's fields or a field, and run a
 * mutation. Read here; checked against the item types once they are known
 * (checkAccess, from operations.ts); enforced by src/auth/.
 */
import type { AccessNote } from './annotationTypes.js';
import type { Access, ItemType } from './model.js';
import type { Problems } from './problems.js';

interface Pending {
  where: string;
  access: Access;
  node: unknown;
}
const pending = new WeakMap<Problems, Pending[]>();

/** A type's or field's @access (its record, read in annotations.ts), kept to be checked once the item types are known. */
export function readAccess(args: AccessNote | null, node: { astNode?: unknown }, where: string, problems: Problems): Access | null {
  if (!args) return null;
  const access: Access = { rule: args.rule, of: args.of, argument: args.argument, field: args.field, resultField: args.resultField };
  const list = pending.get(problems) ?? [];
  list.push({ where: `${where} @access`, access, node: node.astNode });
  pending.set(problems, list);
  return access;
}

/** OWNER rules name an owner type (@item(claim:)) and exactly one place its id comes from; other rules name none. */
export function checkAccess(items: ReadonlyMap<string, ItemType>, problems: Problems): void {
  for (const { where, access, node } of pending.get(problems) ?? []) {
    const sources = [access.argument, access.field, access.resultField].filter((s) => s !== null);
    if (access.rule !== 'OWNER') {
      if (access.of !== null || sources.length > 0) problems.add(where, `rule ${access.rule} takes no of, argument, field or resultField`, node as never);
      continue;
    }
    const owned = access.of === null ? undefined : items.get(access.of);
    if (!owned) problems.add(where, `rule OWNER needs of: an @item type (got ${access.of ?? 'none'})`, node as never);
    else if (!owned.owner)
      problems.add(where, `rule OWNER of ${owned.name}: ${owned.name} has no @item(claim:) saying which token claim names its owner`, node as never);
    if (sources.length !== 1) problems.add(where, 'rule OWNER needs exactly one of argument, field or resultField', node as never);
  }
}
