/**
 * A @query root field's plan: the partition its arguments name, read as one
 * collection (or, with from/until, a bounded range), each item its node's
 * record.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import type { TableKeys } from '../dynamo/keys.js';
import type { Layout, QueryField } from '../declaration/model.js';
import { keyIn, numberSort, numberStoredAs } from '../declaration/indexed.js';
import { badUserInput, invariant } from '../errors.js';
import { validateText } from './arguments.js';
import { keyText, type ItemPlan } from './itemPlan.js';
import type { ItemRecord } from './records.js';
import type { RangeSource } from './sources.js';
import { boundedCollection, boundedSource, sortedCollection } from './bounds.js';

export interface QueryPlan {
  field: QueryField;
  /** `Query.<field>`: cursors are bound to it. */
  path: string;
  node: ItemPlan;
  /** The partition the arguments name. Throws BAD_USER_INPUT for a bad argument. */
  collection(args: Record<string, unknown>): Collection;
  /** The bounded read for from/until, or null when neither is given (or when the collection itself is narrowed). */
  narrow(args: Record<string, unknown>): RangeSource | null;
  edge(item: Item): { node: ItemRecord };
}

export function compileQueryPlan(field: QueryField, node: ItemPlan, layout: Layout, keys: TableKeys): QueryPlan {
  const key = keyIn(node.type, field.index, layout, field.shape);
  invariant(key, `Query.${field.field} reads no partition of ${node.name}`);
  const path = `Query.${field.field}`;
  const filled = Object.entries(field.arguments);
  const { index, pkAttr, skAttr } = key;
  const order = field.descending ? { descending: true } : {};
  // An Int names its partition by the text a template writes for it (keyText).
  const ints = new Map(node.type.attributes.filter((a) => a.kind === 'Int').map((a) => [a.name, a]));
  // A partition attribute holding an Int or Float itself (typed N) is read with the argument's number (collection.ts).
  const partitionAttrs = [pkAttr, ...key.pkMore.map((p) => p.attribute)];
  const numberFields = partitionAttrs.flatMap((attribute) => numberStoredAs(node.type, attribute) ?? []);
  // And a sort attribute holding one itself: read in number order, its start keys sent with the number.
  const numberAttrs = [...numberFields.map((a) => a.storedAs), ...(numberSort(node.type, key) ? [skAttr] : [])];
  const numbers = numberAttrs.length === 0 ? {} : { numbers: numberAttrs };
  const numberKinds = new Map(numberFields.map((a) => [a.name, a.kind]));
  const numberText = (kind: string, given: unknown, argument: string): string => {
    if (typeof given !== 'number' || !Number.isFinite(given) || (kind === 'Int' && !Number.isInteger(given))) {
      throw badUserInput(`${argument} must be ${kind === 'Int' ? 'an integer' : 'a finite number'}: it names the partition to read`, argument);
    }
    // -0 and 0 are one DynamoDB number.
    return String(given === 0 ? 0 : given);
  };
  const collection = (args: Record<string, unknown>): Collection => {
    const values: Record<string, string> = {};
    for (const [placeholder, argument] of filled) {
      const given = args[argument];
      const int = ints.get(placeholder);
      const kind = numberKinds.get(placeholder);
      if (kind !== undefined && given !== null && given !== undefined) {
        values[placeholder] = numberText(kind, given, argument);
        continue;
      }
      const value = int && Number.isInteger(given) ? keyText(int, given, argument) : validateText(given, argument);
      if (value === null) throw badUserInput(`${argument} names the partition to read: give it`, argument);
      values[placeholder] = value;
    }
    const more = key.pkMore.length === 0 ? {} : { pkMore: key.pkMore.map((p) => ({ attr: p.attribute, value: p.template.fill(values) })) };
    return { name: path, ...(index === null ? {} : { index }), pkAttr, skAttr, pk: key.pk.fill(values), ...more, prefix: key.sk.prefix, table: keys.names, ...order, ...numbers };
  };
  const bounds = field.bounds;
  if (key.skMore.length > 0) {
    // A sort key of several attributes: always read as a collection, its leading attributes fixed by arguments.
    return { field, path, node, collection: (args) => sortedCollection(collection(args), key, field.sortArguments, bounds, args), narrow: () => null, edge: (item) => ({ node: node.map(item) }) };
  }
  // On an index whose sort key may repeat (it holds no {id}), a position must be a whole start key: read as a collection.
  const repeats = index !== null && !key.sk.placeholders.includes('id');
  return {
    field,
    path,
    node,
    collection: bounds !== null && repeats ? (args) => boundedCollection(collection(args), bounds, args, key.sk.cased) : collection,
    narrow: (args) => (bounds === null || repeats ? null : boundedSource(collection(args), bounds, args, key.sk.cased)),
    edge: (item) => ({ node: node.map(item) }),
  };
}
