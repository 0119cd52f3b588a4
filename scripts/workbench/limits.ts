/**
 * What the import reads at most, and names it refuses: an export is a file
 * anyone may hand over, so each bound is checked before the work it bounds,
 * and each refusal is one line naming the file, where, and the limit.
 *
 * The item limits are DynamoDB's own (an item of 400 KB, a partition key
 * of 2,048 bytes, a sort key of 1,024, 32 levels of nested maps and
 * lists): an export beyond them describes a table DynamoDB cannot hold.
 * The others keep a draft a model: a few hundred types, not one per sample.
 * The depth is measured without recursion, so no nesting overflows the
 * stack, whatever the file holds.
 */
export const LIMITS = {
  /** Bytes of the export file. */
  fileBytes: 256 * 1024 * 1024,
  /** Sample items over the table and its facets. */
  samples: 250_000,
  /** Distinct attribute names over every sample and declaration. */
  attributeNames: 1_000,
  /** Characters of an attribute, facet, index or table name. */
  nameLength: 255,
  /** Global secondary indexes (DynamoDB's default quota). */
  indexes: 20,
  /** Key shapes, hence types, in a draft. */
  shapes: 500,
  /** Nesting of an attribute value in JSON (DynamoDB allows 32 levels of maps and lists, each `{"M": {…}}` two). */
  depth: 64,
  itemBytes: 400 * 1024,
  pkBytes: 2048,
  skBytes: 1024,
};

/**
 * Names refused as attribute names: the properties every JavaScript object already has (an item lacking such an
 * attribute would read the object's own: `constructor` is a function) and names opening with `__`, which GraphQL
 * keeps for introspection (`__proto__` is both).
 */
const OBJECT_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

export function reservedName(name: string): string | null {
  if (name.startsWith('__')) return 'a name opening with __, which GraphQL keeps for itself';
  if (OBJECT_NAMES.has(name)) return 'a name every JavaScript object already has';
  return null;
}

/** The deepest nesting of objects and arrays in a parsed JSON value and the UTF-8 bytes of its names and text, walked without recursion; stops past `maxDepth`. */
export function measure(value: unknown, maxDepth: number): { depth: number; bytes: number } {
  const stack: [unknown, number][] = [[value, 1]];
  let depth = 0;
  let bytes = 0;
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v === 'string') {
      bytes += Buffer.byteLength(v);
      continue;
    }
    if (typeof v !== 'object' || v === null) {
      bytes += 8;
      continue;
    }
    depth = Math.max(depth, d);
    if (depth > maxDepth) break;
    if (Array.isArray(v)) {
      for (const x of v) stack.push([x, d + 1]);
      continue;
    }
    for (const [k, x] of Object.entries(v)) {
      bytes += Buffer.byteLength(k);
      stack.push([x, d + 1]);
    }
  }
  return { depth, bytes };
}
