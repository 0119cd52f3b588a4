/**
 * Key values beyond an id and a parent's id → stored fields the key
 * template names (`REC#{rec}#SKU#{SKU}`), set at create in the model.
 *
 * In:  the values (their key, position and each sample's text), the key
 *      tokens and the samples. Out: a field name and kind per value, and
 *      which names are guesses.
 *
 * A value is named by the attribute that holds the same text in every
 * sample (`SKU`); else by the name the samples write it as (`<sub_feature>`);
 * else by the literal segment before it (`REC#` → `rec`);
 * else `value1`, `value2`…. Names never repeat an attribute the samples
 * carry, so a guessed name cannot shadow a stored field. A key field is
 * `DateTime` only when every sample writes it as the gateway does (three
 * fraction digits, `Z`): another text would not read back as it is stored.
 */
import { plainValue } from './demo.js';
import { PLACEHOLDER, type Token } from './keys.js';
import type { RawItem } from './read.js';

export interface KeyValue {
  key: 'pk' | 'sk';
  /** Its token's position in the key. */
  at: number;
  /** Each sample's text. */
  values: string[];
}

export interface KeyField {
  name: string;
  /** The attribute holding the same value in every sample, or null (the value is in the key alone). */
  attribute: string | null;
  kind: 'String' | 'DateTime';
  /** How a guessed name was found, or null when an attribute names it. */
  guess: string | null;
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const STORED_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** Attribute names read as the item's own id (`comm_id`, `complaintId`, `agentID`, `id`). */
export const ID_ATTRIBUTE = /^id$|.(_id|Id|ID)$/;

/** Does `attribute` hold `values` (as text) in every sample, one value a sample? */
export const holds = (items: readonly RawItem[], attribute: string, values: readonly string[]): boolean =>
  items.every((item, i) => typeof item[attribute]?.S === 'string' && plainValue(item[attribute]) === values[i]);

/** Names the key values; `taken` holds the names a key field may not take (the item's reserved names). */
export function nameKeyFields(
  values: readonly KeyValue[],
  tokens: { pk: Token[]; sk: Token[] },
  items: readonly RawItem[],
  taken: ReadonlySet<string>,
  keyNames: ReadonlySet<string>,
): KeyField[] {
  const attributes = [...new Set(items.flatMap((i) => Object.keys(i)))].filter((a) => !keyNames.has(a));
  const used = new Set<string>([...taken, ...attributes]);
  const fields: KeyField[] = [];
  let position = 0;
  for (const v of values) {
    const kind = v.values.every((x) => STORED_DATETIME.test(x)) ? 'DateTime' : 'String';
    const attribute = attributes.find((a) => NAME.test(a) && !taken.has(a) && !fields.some((f) => f.name === a) && holds(items, a, v.values));
    if (attribute) {
      fields.push({ name: attribute, attribute, kind, guess: null });
      continue;
    }
    const written = PLACEHOLDER.exec(v.values[0] ?? '')?.[1];
    if (written && !used.has(written) && v.values.every((x) => PLACEHOLDER.exec(x)?.[1] === written)) {
      used.add(written);
      fields.push({ name: written, attribute: null, kind, guess: null });
      continue;
    }
    const before = tokens[v.key][v.at - 1];
    const word =
      before && 'literal' in before
        ? before.literal
            .split(/[^0-9A-Za-z]+/)
            .filter(Boolean)
            .at(-1)
        : undefined;
    const fromText = word && !/^[0-9]/.test(word) ? word.toLowerCase() : null;
    let name: string;
    let guess: string;
    if (fromText && !used.has(fromText)) {
      name = fromText;
      guess = `after "${(before as { literal: string }).literal}"`;
    } else {
      do name = `value${++position}`;
      while (used.has(name));
      guess = 'by its place in the key';
    }
    used.add(name);
    fields.push({ name, attribute: null, kind, guess });
  }
  return fields;
}
