/**
 * What resolvers pass around: records read from the table, mapped to plain
 * objects by the item plans (itemPlan.ts).
 *
 * A record may be *partial*: a node built from an edge's copy has its id
 * and the copied fields but none of the item's other attributes.
 * `complete` says whether the record came from the item itself, in which
 * case an absent attribute really is absent (null, counter not maintained)
 * rather than unknown. A child record carries its parent's id under
 * `<parent field>Id` (a post's `userId`).
 */
import type { Attribute, ValueShape } from '../declaration/model.js';
import { invariant } from '../errors.js';

export interface ItemRecord {
  id: string;
  complete: boolean;
  [field: string]: unknown;
}

export interface PageInfoRecord {
  hasNextPage: boolean | (() => Promise<boolean>);
  hasPreviousPage: boolean | (() => Promise<boolean>);
  startCursor: string | null;
  endCursor: string | null;
}

/** A Relay edge: its cursor, its node, and (edge items) its own attributes. */
export interface EdgeRecord<Node = ItemRecord> {
  cursor: string;
  node: Node;
  [attribute: string]: unknown;
}

/** A Relay connection; `totalCount` is computed only when selected. */
export interface ConnectionRecord<Edge = EdgeRecord> {
  edges: Edge[];
  pageInfo: PageInfoRecord;
  totalCount: () => Promise<number>;
}

/** The property of a child record that holds its parent's id. */
export const parentIdProperty = (parentField: string): string => `${parentField}Id`;

/**
 * For the record builders compiled per type and per relation (itemPlan.ts's
 * compileMap, relationPlan.ts's compileEdge): a property name as the JSON
 * string literal that goes into the generated code.
 */
export function propertyLiteral(name: string, where: string): string {
  invariant(name !== '__proto__', `${where}: __proto__ cannot be a record property`);
  return JSON.stringify(name);
}

/**
 * The generated test that `at` (an expression) holds a value of the
 * attribute's kind: a number, a Boolean, one of an enum's values (a Set
 * pushed onto `enums`, read by its index), or a text.
 */
export function kindTest(a: Attribute, at: string, enums: ReadonlySet<string>[]): string {
  if (a.kind === 'Int' || a.kind === 'Float') return `typeof ${at} === "number"`;
  if (a.kind === 'Boolean') return `typeof ${at} === "boolean"`;
  if (a.values !== undefined) {
    enums.push(new Set(a.values));
    return `typeof ${at} === "string" && enums[${enums.length - 1}].has(${at})`;
  }
  return `typeof ${at} === "string"`;
}

/**
 * A Map or List attribute's stored value → its record value: a map's
 * entries by its fields' names (read from their stored names), a list's
 * elements in order (a string or number set reads as a list). Read by the
 * rules of the item's own fields: a value of another kind is absent (null
 * inside; undefined for the whole value, which the record then reads as
 * absent).
 */
export function valueDecoder(shape: ValueShape): (value: unknown) => unknown {
  switch (shape.kind) {
    case 'scalar': {
      const values = shape.values ? new Set(shape.values) : null;
      const type = shape.scalar === 'Int' || shape.scalar === 'Float' ? 'number' : shape.scalar === 'Boolean' ? 'boolean' : 'string';
      return (v) => (typeof v === type && (values === null || values.has(v as string)) ? v : undefined);
    }
    case 'map': {
      const fields = shape.fields.map((f) => ({ name: f.name, storedAs: f.storedAs, decode: valueDecoder(f.shape) }));
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Set || v instanceof Uint8Array) return undefined;
        const stored = v as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const f of fields) out[f.name] = f.decode(stored[f.storedAs]) ?? null;
        return out;
      };
    }
    case 'list': {
      const decode = valueDecoder(shape.of);
      return (v) => (Array.isArray(v) || v instanceof Set ? [...v].map((e) => decode(e) ?? null) : undefined);
    }
    default: {
      const never: never = shape;
      return never;
    }
  }
}
