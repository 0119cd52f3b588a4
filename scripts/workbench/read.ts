/**
 * Reads a NoSQL Workbench data-model export and checks it is one.
 *
 * In:  the file's path and text. Out: the first table of its DataModel with
 *      its facets, indexes and sample items, or a WorkbenchError naming the
 *      file and what is wrong (one line: the CLI prints it as it is).
 *
 * Only what the import reads is checked: the keys, the attribute lists, the
 * facets' attributes (a facet naming an attribute the table lacks means the
 * export is inconsistent, and the draft would declare a field no item has)
 * and the indexes' key attributes. Every name and sample is held to the
 * limits of limits.ts first: names the import refuses, sizes, nesting.
 */
import { LIMITS, measure, reservedName } from './limits.js';

/** A DynamoDB JSON attribute value as the export writes it (`{"S": "x"}`), or anything malformed. */
export type AttributeValue = Record<string, unknown>;
export type RawItem = Record<string, AttributeValue>;

export interface KeyAttribute {
  name: string;
  type: string;
}

export interface Facet {
  name: string;
  /** The facet's names for the partition and sort key (documentation in the export, not key templates). */
  pkAlias: string;
  skAlias: string | null;
  attributes: string[];
  items: RawItem[];
}

export interface Index {
  name: string;
  pk: KeyAttribute;
  sk: KeyAttribute | null;
}

export interface WorkbenchTable {
  /** The export's file, as errors name it. */
  file: string;
  modelName: string;
  tableName: string;
  pk: KeyAttribute;
  sk: KeyAttribute | null;
  attributes: KeyAttribute[];
  facets: Facet[];
  indexes: Index[];
  /** The table's own TableData (designs without facets keep their samples here). */
  items: RawItem[];
  /** Names of further tables in DataModel: the gateway serves one table. */
  otherTables: string[];
}

export class WorkbenchError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A name the export gives (an attribute's, a facet's, an index's): not reserved, not too long. */
function checkName(file: string, where: string, name: string, attribute: boolean): void {
  const shown = JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
  if (name.length > LIMITS.nameLength)
    throw new WorkbenchError(`${file}: ${where} is named ${shown}, ${name.length} characters: the import reads names of at most ${LIMITS.nameLength}`);
  const reserved = attribute ? reservedName(name) : null;
  if (reserved) throw new WorkbenchError(`${file}: ${where} is named ${shown}, ${reserved}: rename it in the export`);
}

function keyAttribute(file: string, where: string, v: unknown, required: boolean): KeyAttribute | null {
  if (v === undefined && !required) return null;
  if (!isObject(v) || typeof v.AttributeName !== 'string' || v.AttributeName === '') {
    throw new WorkbenchError(`${file}: ${where} has no AttributeName`);
  }
  checkName(file, where, v.AttributeName, true);
  return { name: v.AttributeName, type: typeof v.AttributeType === 'string' ? v.AttributeType : 'S' };
}

function items(file: string, where: string, v: unknown): RawItem[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every(isObject)) throw new WorkbenchError(`${file}: ${where}.TableData is not a list of items`);
  return v as RawItem[];
}

const KEY_TYPES = new Set(['S', 'N', 'B']);

/** A sample's key: present, of a key type, within DynamoDB's size; the sample named by its place for the error. */
function checkKey(file: string, tableName: string, item: RawItem, attribute: KeyAttribute, limit: number, where: string): void {
  const v = item[attribute.name];
  const type = isObject(v) ? Object.keys(v) : [];
  if (type.length !== 1 || !KEY_TYPES.has(type[0]!) || typeof (v as Record<string, unknown>)[type[0]!] !== 'string') {
    throw new WorkbenchError(
      `${file}: ${where} of ${tableName} lacks its key ${attribute.name} as a string, number or binary value (DynamoDB JSON: {"S": "…"})`,
    );
  }
  const bytes = Buffer.byteLength((v as Record<string, string>)[type[0]!]!);
  if (bytes > limit)
    throw new WorkbenchError(`${file}: ${where} of ${tableName} has a ${attribute.name} of ${bytes} bytes: DynamoDB keys hold at most ${limit}`);
}

/** Every sample against the limits: count, names, keys, nesting, size. */
function checkSamples(file: string, tableName: string, pk: KeyAttribute, sk: KeyAttribute | null, lists: RawItem[][], names: Set<string>): void {
  const total = lists.reduce((n, l) => n + l.length, 0);
  if (total > LIMITS.samples) throw new WorkbenchError(`${file}: table ${tableName} holds ${total} sample items: the import reads at most ${LIMITS.samples}`);
  let n = 0;
  for (const list of lists) {
    for (const item of list) {
      const where = `sample item ${++n}`;
      checkKey(file, tableName, item, pk, LIMITS.pkBytes, where);
      if (sk) checkKey(file, tableName, item, sk, LIMITS.skBytes, where);
      for (const name of Object.keys(item)) {
        if (names.has(name)) continue;
        checkName(file, `an attribute of ${where}`, name, true);
        names.add(name);
        if (names.size > LIMITS.attributeNames)
          throw new WorkbenchError(
            `${file}: the samples of ${tableName} name more than ${LIMITS.attributeNames} distinct attributes: the import reads at most ${LIMITS.attributeNames}`,
          );
      }
      const { depth, bytes } = measure(item, LIMITS.depth + 1);
      if (depth > LIMITS.depth + 1)
        throw new WorkbenchError(
          `${file}: ${where} of ${tableName} nests its values more than ${LIMITS.depth} levels deep: DynamoDB holds 32 levels of maps and lists`,
        );
      if (bytes > LIMITS.itemBytes)
        throw new WorkbenchError(`${file}: ${where} of ${tableName} holds more than ${LIMITS.itemBytes / 1024} KB: DynamoDB items hold at most 400 KB`);
    }
  }
}

/** Parses and checks an export's text; throws WorkbenchError. */
export function readWorkbench(file: string, text: string): WorkbenchTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new WorkbenchError(`${file}: not JSON (${(error as Error).message.split('\n')[0]})`);
  }
  if (!isObject(parsed) || !Array.isArray(parsed.DataModel)) {
    throw new WorkbenchError(`${file}: no DataModel list: not a NoSQL Workbench data-model export`);
  }
  const [table, ...others] = parsed.DataModel as unknown[];
  if (!isObject(table)) throw new WorkbenchError(`${file}: DataModel holds no table`);
  if (typeof table.TableName !== 'string' || table.TableName === '') throw new WorkbenchError(`${file}: DataModel[0] has no TableName`);
  const tableName = table.TableName;
  checkName(file, 'DataModel[0] TableName', tableName, false);
  const keys = table.KeyAttributes;
  if (!isObject(keys)) throw new WorkbenchError(`${file}: table ${tableName} has no KeyAttributes`);
  const pk = keyAttribute(file, `table ${tableName} KeyAttributes.PartitionKey`, keys.PartitionKey, true)!;
  const sk = keyAttribute(file, `table ${tableName} KeyAttributes.SortKey`, keys.SortKey, false);
  const nonKey = table.NonKeyAttributes ?? [];
  if (!Array.isArray(nonKey)) throw new WorkbenchError(`${file}: table ${tableName} NonKeyAttributes is not a list`);
  const attributes = nonKey.map((a, i) => keyAttribute(file, `table ${tableName} NonKeyAttributes[${i}]`, a, true)!);
  const known = new Set([pk.name, ...(sk ? [sk.name] : []), ...attributes.map((a) => a.name)]);

  const facetsRaw = table.TableFacets ?? [];
  if (!Array.isArray(facetsRaw)) throw new WorkbenchError(`${file}: table ${tableName} TableFacets is not a list`);
  const facets = facetsRaw.map((f, i): Facet => {
    if (!isObject(f) || typeof f.FacetName !== 'string') throw new WorkbenchError(`${file}: TableFacets[${i}] has no FacetName`);
    checkName(file, `TableFacets[${i}]`, f.FacetName, false);
    const alias = isObject(f.KeyAttributeAlias) ? f.KeyAttributeAlias : {};
    const names = f.NonKeyAttributes ?? [];
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string'))
      throw new WorkbenchError(`${file}: facet ${f.FacetName} NonKeyAttributes is not a list of names`);
    const missing = (names as string[]).find((n) => !known.has(n));
    if (missing !== undefined) throw new WorkbenchError(`${file}: facet ${f.FacetName} names the attribute ${missing}, which table ${tableName} lacks`);
    return {
      name: f.FacetName,
      pkAlias: typeof alias.PartitionKeyAlias === 'string' ? alias.PartitionKeyAlias : pk.name,
      skAlias: typeof alias.SortKeyAlias === 'string' ? alias.SortKeyAlias : null,
      attributes: names as string[],
      items: items(file, `facet ${f.FacetName}`, f.TableData),
    };
  });

  const indexesRaw = table.GlobalSecondaryIndexes ?? [];
  if (!Array.isArray(indexesRaw)) throw new WorkbenchError(`${file}: table ${tableName} GlobalSecondaryIndexes is not a list`);
  if (indexesRaw.length > LIMITS.indexes)
    throw new WorkbenchError(`${file}: table ${tableName} declares ${indexesRaw.length} global secondary indexes: the import reads at most ${LIMITS.indexes}`);
  const indexes = indexesRaw.map((g, i): Index => {
    if (!isObject(g) || typeof g.IndexName !== 'string') throw new WorkbenchError(`${file}: GlobalSecondaryIndexes[${i}] has no IndexName`);
    checkName(file, `GlobalSecondaryIndexes[${i}]`, g.IndexName, false);
    const k = isObject(g.KeyAttributes) ? g.KeyAttributes : {};
    const index = {
      name: g.IndexName,
      pk: keyAttribute(file, `index ${g.IndexName} PartitionKey`, k.PartitionKey, true)!,
      sk: keyAttribute(file, `index ${g.IndexName} SortKey`, k.SortKey, false),
    };
    for (const a of [index.pk, index.sk]) {
      if (a && !known.has(a.name)) throw new WorkbenchError(`${file}: index ${g.IndexName} is keyed on ${a.name}, which table ${tableName} lacks`);
    }
    return index;
  });

  const tableItems = items(file, `table ${tableName}`, table.TableData);
  checkSamples(file, tableName, pk, sk, [tableItems, ...facets.map((f) => f.items)], known);
  return {
    file,
    modelName: typeof parsed.ModelName === 'string' ? parsed.ModelName : tableName,
    tableName,
    pk,
    sk,
    attributes,
    facets,
    indexes,
    items: tableItems,
    otherTables: others.map((t) => (isObject(t) && typeof t.TableName === 'string' ? t.TableName : '?')),
  };
}
