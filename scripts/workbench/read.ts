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
 * and the indexes' key attributes.
 */

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

function keyAttribute(file: string, where: string, v: unknown, required: boolean): KeyAttribute | null {
  if (v === undefined && !required) return null;
  if (!isObject(v) || typeof v.AttributeName !== 'string' || v.AttributeName === '') {
    throw new WorkbenchError(`${file}: ${where} has no AttributeName`);
  }
  return { name: v.AttributeName, type: typeof v.AttributeType === 'string' ? v.AttributeType : 'S' };
}

function items(file: string, where: string, v: unknown): RawItem[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every(isObject)) throw new WorkbenchError(`${file}: ${where}.TableData is not a list of items`);
  return v as RawItem[];
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
    const alias = isObject(f.KeyAttributeAlias) ? f.KeyAttributeAlias : {};
    const names = f.NonKeyAttributes ?? [];
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw new WorkbenchError(`${file}: facet ${f.FacetName} NonKeyAttributes is not a list of names`);
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
  const indexes = indexesRaw.map((g, i): Index => {
    if (!isObject(g) || typeof g.IndexName !== 'string') throw new WorkbenchError(`${file}: GlobalSecondaryIndexes[${i}] has no IndexName`);
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
  for (const item of [...tableItems, ...facets.flatMap((f) => f.items)]) {
    if (!isObject(item[pk.name]) || (sk && !isObject(item[sk.name]))) {
      throw new WorkbenchError(`${file}: a sample item of ${tableName} lacks its key (${pk.name}${sk ? `, ${sk.name}` : ''}): ${JSON.stringify(item).slice(0, 80)}`);
    }
  }
  return {
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
