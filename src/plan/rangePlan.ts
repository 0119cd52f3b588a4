/**
 * @query beside @children: a @children connection narrowed by an instant
 * range and equality filters, read through GSI2 where the children are
 * keyed by instant (@indexed: GSI2PK from its template, GSI2SK =
 * `<instant>#<id>`).
 *
 * `after ≤ instant < before`: every GSI2SK continues past its instant with
 * `#<id>`, so BETWEEN <after> AND <before> keeps exactly that range. The
 * filters are a FilterExpression on the read (filled pages,
 * connections/filledRange.ts). Bad arguments are BAD_USER_INPUT.
 */
import { GSI2 } from '../dynamo/keys.js';
import type { ChildrenRelation, ItemType } from '../declaration/model.js';
import { validateDateRange, validateText, type DateRange } from './arguments.js';
import type { RangeSource } from './sources.js';

export interface RangeFilter {
  range: DateRange;
  /** field = value filters, in declaration order (null values left out). */
  equals: { field: string; value: string }[];
}

export interface RangePlan {
  /** The filter in `args`, or null when none of its arguments is given (the plain collection). */
  filter(args: Record<string, unknown>): RangeFilter | null;
  /** What cursors of this filter are bound to. */
  binding(filter: RangeFilter | null): string;
  source(parentId: string, parentPartition: string, filter: RangeFilter): RangeSource;
}

export function compileRangePlan(relation: ChildrenRelation, node: ItemType): RangePlan | null {
  const range = relation.range;
  const byInstant = node.byInstant;
  if (!range || !byInstant) return null;
  const parentField = node.parent?.field ?? 'id';
  const filter = (args: Record<string, unknown>): RangeFilter | null => {
    const dates = validateDateRange(args[range.after], args[range.before], range.after, range.before);
    const equals = range.where.flatMap((w) => {
      const value = validateText(args[w.argument], w.argument);
      return value === null ? [] : [{ field: w.field, value }];
    });
    if (dates.after === null && dates.before === null && equals.length === 0) return null;
    return { range: dates, equals };
  };
  const binding = (f: RangeFilter | null) => {
    if (f === null) return '';
    const byField = new Map(f.equals.map((e) => [e.field, e.value]));
    return JSON.stringify([f.range.after, f.range.before, ...range.where.map((w) => byField.get(w.field) ?? null)]);
  };
  return {
    filter,
    binding,
    source: (parentId, parentPartition, f) => {
      const names: Record<string, string> = {};
      const values: Record<string, string> = {};
      const terms = f.equals.map((e, i) => {
        names[`#f${i}`] = e.field;
        values[`:f${i}`] = e.value;
        return `#f${i} = :f${i}`;
      });
      return {
        name: relation.path,
        partition: parentPartition,
        index: GSI2,
        pkAttr: 'GSI2PK',
        skAttr: 'GSI2SK',
        pk: byInstant.pk.fill({ [parentField]: parentId }),
        // Every instant sort key starts with a 4-digit year: '0' and '~' bound them all.
        lo: f.range.after ?? '0',
        hi: f.range.before ?? '~',
        filter: terms.length === 0 ? null : { expression: terms.join(' AND '), names, values },
        binding: binding(f),
      };
    },
  };
}
