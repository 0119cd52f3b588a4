/**
 * Which items a read of a partition can tell apart: two types sharing a
 * partition (of the table or of an index) need sort-key prefixes that do
 * not overlap, the gateway's own rule (src/declaration/template.ts).
 */
import { parseTemplate, prefixesOverlap } from '../../src/declaration/template.js';
import type { Inference, PartitionMember } from './draft.js';

/** Is a sort-key member of a partition read by another's begins_with? */
export function overlaps(a: { prefix: string; exact: boolean }, b: { prefix: string; exact: boolean }): boolean {
  if (a.exact && b.exact) return a.prefix === b.prefix;
  if (a.exact) return a.prefix.startsWith(b.prefix);
  if (b.exact) return b.prefix.startsWith(a.prefix);
  return prefixesOverlap(a.prefix, b.prefix);
}

/** A template's partition: its literal text with every placeholder blanked. */
export const partitionShape = (template: string) => template.replace(/\{[^}]*\}/g, '{}');

export const member = (template: string) => {
  const t = parseTemplate(template.replaceAll('{parent}', '{p}'));
  return { prefix: t.prefix, exact: t.placeholders.length === 0 };
};

/** Adds a member to a partition of `partitions`; the name of the member it clashes with (then it is not added), or null. */
export function admitTo(partitions: Map<string, PartitionMember[]>, pk: string, sk: string, what: string): string | null {
  const key = partitionShape(pk);
  const m = member(sk);
  const members = partitions.get(key) ?? [];
  const clash = members.find((o) => overlaps(o, m));
  if (clash) return clash.name;
  members.push({ ...m, name: what });
  partitions.set(key, members);
  return null;
}

/** Adds a sort-key member to its partition of the table. */
export const admit = (inf: Inference, pk: string, sk: string, what: string): string | null => admitTo(inf.inPartition, pk, sk, what);
