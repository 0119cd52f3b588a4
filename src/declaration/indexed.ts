/**
 * Phase 5b: @indexed, an item type's key in a declared index. One template
 * per key attribute of the index, in its order; an omitted pk or sk means
 * the index's key attributes are ones the item already stores (a field
 * stored under that attribute's name, or the table's own keys), each read
 * as the one-placeholder template of that field (or the table key's own
 * template), so nothing extra is written. An item without a value for a
 * key attribute is not in the index (a sparse index).
 *
 * Placeholders of a written template name `id`, the @parent field or a
 * stored scalar field; updates may not change such a field (operations.ts
 * refuses an update input holding one), so the keys never go stale.
 */
import type { GraphQLSchema } from 'graphql';
import { Kind } from 'graphql';
import type { Attribute, ItemType, KeyPart, Layout, Relation } from './model.js';
import type { Problems } from './problems.js';
import { parseTemplate, TemplateError, type KeyCasing, type KeyTemplate } from './template.js';
import { indexOf } from './layout.js';
import { GSI1_PK, GSI1_SK } from './layout.js';

export function readIndexed(schema: GraphQLSchema, items: ReadonlyMap<string, ItemType>, layout: Layout, problems: Problems): void {
  for (const item of items.values()) {
    const type = schema.getType(item.name);
    for (const node of type?.astNode?.directives ?? []) {
      if (node.name.value !== 'indexed') continue;
      const arg = (name: string) => node.arguments?.find((a) => a.name.value === name)?.value;
      const nameValue = arg('index');
      const index = nameValue?.kind === Kind.STRING ? nameValue.value : '';
      const where = `${item.name} @indexed(index: "${index}")`;
      const declared = indexOf(layout, index);
      if (!declared) {
        problems.add(where, `names no index the model declares (${layout.indexes.map((i) => i.name).join(', ') || 'none'})`, node);
        continue;
      }
      if (item.indexed.some((p) => p.index === index) || (index === 'GSI2' && item.byInstant)) {
        problems.add(where, `${item.name} is already in ${index}: one key per index`, node);
        continue;
      }
      const list = (value: ReturnType<typeof arg>): string[] | null =>
        value === undefined || value.kind === Kind.NULL ? null : value.kind === Kind.LIST ? value.values.map((v) => (v.kind === Kind.STRING ? v.value : '')) : value.kind === Kind.STRING ? [value.value] : [];
      // Templates write their keys in the index's casing (as given when it declares none).
      const casing = declared.casing ?? 'NONE';
      const pk = parts(item, layout, declared.pk, list(arg('pk')), `${where}(pk)`, problems, node, casing);
      const sk = parts(item, layout, declared.sk, list(arg('sk')), `${where}(sk)`, problems, node, casing);
      if (!pk || !sk) continue;
      const instant = instantKey(item, index, pk, sk);
      if (instant) item.byInstant = instant;
      else item.indexed.push({ index, pk, sk });
    }
  }
}

/**
 * A child's key in GSI2 by an instant: pk names the parent alone, sk is
 * `{<DateTime field>}#{id}`. Such a key is what a @query beside @children
 * narrows by date (plan/rangePlan.ts); its instant is written as ISO-8601
 * UTC with milliseconds so that it sorts, also when another program stored
 * the field otherwise. Null for any other key (written as its templates say).
 */
function instantKey(item: ItemType, index: string, pk: KeyPart[], sk: KeyPart[]): ItemType['byInstant'] {
  if (index !== 'GSI2' || pk.length !== 1 || sk.length !== 1 || pk[0]!.attribute !== 'GSI2PK' || sk[0]!.attribute !== 'GSI2SK') return null;
  const parts = sk[0]!.template.parts;
  const by = parts.length === 3 && 'placeholder' in parts[0]! && 'literal' in parts[1]! && parts[1].literal === '#' && 'placeholder' in parts[2]! && parts[2].placeholder === 'id' ? parts[0].placeholder : null;
  if (by === null || item.attributes.find((a) => a.name === by)?.kind !== 'DateTime') return null;
  const placeholders = pk[0]!.template.placeholders;
  if (!item.parent || placeholders.length !== 1 || placeholders[0] !== item.parent.field) return null;
  return { pk: pk[0]!.template, by };
}

function parts(
  item: ItemType,
  layout: Layout,
  attributes: readonly string[],
  templates: string[] | null,
  where: string,
  problems: Problems,
  node: unknown,
  casing: KeyCasing,
): KeyPart[] | null {
  if (templates === null) {
    // The attributes the item already stores.
    const found: KeyPart[] = [];
    for (const attribute of attributes) {
      const template = storedTemplate(item, layout, attribute);
      if (!template) {
        problems.add(where, `${item.name} stores no attribute ${attribute} (no field stored under that name, no table key): give the template`, node as never);
        return null;
      }
      found.push({ attribute, template, written: false });
    }
    return found;
  }
  if (templates.length !== attributes.length) {
    problems.add(where, `has ${templates.length} template${templates.length === 1 ? '' : 's'}; the index's key has ${attributes.length} attribute${attributes.length === 1 ? '' : 's'} (${attributes.join(', ') || 'none'})`, node as never);
    return null;
  }
  // A key holds text or a number: a map or list field names no placeholder.
  const allowed = new Set(['id', ...(item.parent ? [item.parent.field] : []), ...item.attributes.filter((a) => !a.shape).map((a) => a.name)]);
  const found: KeyPart[] = [];
  for (let i = 0; i < templates.length; i++) {
    let template: KeyTemplate;
    try {
      template = parseTemplate(templates[i]!, casing);
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      problems.add(where, `template "${templates[i]}" ${error.message}`, node as never);
      return null;
    }
    for (const p of template.placeholders) {
      if (!allowed.has(p)) problems.add(where, `placeholder {${p}} names no field of ${item.name} (id, its @parent field or a stored field)`, node as never);
    }
    const attribute = attributes[i]!;
    // A template equal to what the item stores under that attribute writes nothing extra.
    const stored = storedTemplate(item, layout, attribute);
    found.push({ attribute, template, written: stored?.source !== template.source });
  }
  return found;
}

/** The template of what an item of this type stores under `attribute`: a table key's, or `{field}` for the field stored under that name. */
function storedTemplate(item: ItemType, layout: Layout, attribute: string): KeyTemplate | null {
  if (attribute === layout.pk) return item.pk;
  if (attribute === layout.sk) return item.sk;
  const field = item.attributes.find((a) => a.storedAs === attribute && !a.shape);
  return field ? parseTemplate(`{${field.name}}`) : null;
}

/** Where an item type's items are in one index (or the table): the key attributes and their templates. */
export interface KeyIn {
  /** null: the table. */
  index: string | null;
  pkAttr: string;
  skAttr: string;
  pk: KeyTemplate;
  sk: KeyTemplate;
  /** The further attributes of a multi-attribute partition key, in key order, and their templates. */
  pkMore: readonly { attribute: string; template: KeyTemplate }[];
  /** The further attributes of a multi-attribute sort key, in key order after `skAttr`, and their templates. */
  skMore: readonly { attribute: string; template: KeyTemplate }[];
}

/**
 * The key of `item` in `index` (null: the table), for a read of one of its
 * partitions; null when the type is not in that index, or its key there
 * has no sort attribute.
 */
export function keyIn(item: ItemType, index: string | null, layout: Pick<Layout, 'pk' | 'sk'>): KeyIn | null {
  if (index === null) return layout.sk === null ? null : { index: null, pkAttr: layout.pk, skAttr: layout.sk, pk: item.pk, sk: item.sk, pkMore: [], skMore: [] };
  const placement = item.indexed.find((p) => p.index === index);
  if (placement) {
    // A partition of 1–4 attributes, each equal to its value; 1–4 sort attributes, ordered left to right.
    if (placement.sk.length === 0) return null;
    const [first, ...more] = placement.pk;
    return {
      index,
      pkAttr: first!.attribute,
      skAttr: placement.sk[0]!.attribute,
      pk: first!.template,
      sk: placement.sk[0]!.template,
      pkMore: more.map((p) => ({ attribute: p.attribute, template: p.template })),
      skMore: placement.sk.slice(1).map((p) => ({ attribute: p.attribute, template: p.template })),
    };
  }
  // An inverted type is in GSI1 with its keys swapped.
  if (item.inverted && index === 'GSI1') return { index, pkAttr: GSI1_PK, skAttr: GSI1_SK, pk: item.sk, sk: item.pk, pkMore: [], skMore: [] };
  return null;
}

/**
 * A connection over a type's items in one partition (@children, @query on a
 * type's field): the node's key there must exist, and its pk template must
 * name the parent alone, so the parent's id names the partition.
 */
export function checkReadPartitions(items: ReadonlyMap<string, ItemType>, relations: ReadonlyMap<string, Relation>, layout: Layout, problems: Problems): void {
  for (const r of relations.values()) {
    if (r.kind !== 'children') continue;
    const node = items.get(r.node);
    const fills = r.partitionFills;
    if (!node || (r.via === '' && Object.keys(fills).length === 0)) continue; // reported in relations.ts
    const where = `${r.path} @${r.owned ? 'children' : 'query'}${r.index === null ? '' : `(index: "${r.index}")`}`;
    if (r.index !== null && !indexOf(layout, r.index)) {
      problems.add(where, `names no index the model declares (${layout.indexes.map((i) => i.name).join(', ') || 'none'})`);
      continue;
    }
    const key = keyIn(node, r.index, layout);
    if (!key) {
      problems.add(where, `${node.name} has no key with a sort attribute in ${r.index ?? 'the table'} (declare it with @indexed)`);
      continue;
    }
    const placeholders = [key.pk, ...key.pkMore.map((p) => p.template)].flatMap((t) => t.placeholders);
    const source = [key.pk, ...key.pkMore.map((p) => p.template)].map((t) => t.source).join('", "');
    const unfilled = placeholders.filter((p) => p !== r.via && !(p in fills));
    if (r.via !== '' && !placeholders.includes(r.via)) {
      problems.add(where, `${node.name}'s partition key there, "${source}", does not name {${r.via}}, which holds the ${r.owner}'s id`);
    } else if (unfilled.length > 0) {
      const owner = items.get(r.owner);
      const fillers = [
        ...(r.via === '' ? [] : [`the ${r.owner}'s id fills {${r.via}}`]),
        ...(!r.owned && owner && owner.derivedId !== null && owner.pk.prefix !== '' ? [`${r.owner}'s key values fill the placeholders at the places of its pk "${owner.pk.source}"`] : []),
        ...(r.owned ? [] : ['a required argument named like a placeholder fills it']),
      ];
      problems.add(where, `nothing fills ${unfilled.map((p) => `{${p}}`).join(', ')} of ${node.name}'s partition key there, "${source}": ${fillers.join('; ') || 'nothing names the partition'}`);
    }
    if (r.bounds && key.skMore.length === 0 && key.sk.placeholders.length === 0) {
      problems.add(where, `from/until narrow the sort key from its first placeholder on; "${key.sk.source}" has none`);
    }
  }
}

/**
 * The number field an index sort key of one attribute holds itself (an Int
 * or Float stored under that attribute, typed N): a connection over it is
 * ordered by the number and its start keys send it as one (collection.ts
 * `Collection.numbers`). Undefined: the sort key holds text.
 */
export function numberSort(node: ItemType, key: KeyIn): Attribute | undefined {
  if (key.index === null || key.skMore.length > 0) return undefined;
  return numberStoredAs(node, key.skAttr);
}

/** The Int or Float field stored as `attribute` itself (typed N), if one is. */
export const numberStoredAs = (node: ItemType, attribute: string): Attribute | undefined =>
  node.attributes.find((a) => a.storedAs === attribute && !a.shape && (a.kind === 'Int' || a.kind === 'Float'));

/** A connection field's argument as the sort-key checks see it. */
export interface FieldArgument {
  name: string;
  /** Non-null: always given. */
  required: boolean;
}

/**
 * A connection over an index sort key of several attributes (DynamoDB's
 * multi-attribute keys): the arguments that fix its leading attributes,
 * placeholder → argument, found by name as the partition's are (`{priority}`
 * from `priority` or `priorityId`) among the arguments nothing else reads.
 * DynamoDB conditions sort attributes left to right, equality on all but
 * the last one conditioned, so each of these is one line of `problems`,
 * naming the connection and the index: an argument fixing an attribute
 * while an earlier one is not fixed; one fixing the last attribute (the
 * connection is ordered by it); one fixing part of an attribute's template;
 * a sort attribute holding numbers (positions and ranges compare text);
 * from/until that may range over an attribute whose template has no
 * placeholder. `{}` for a key with one sort attribute, whose attribute
 * holding numbers is refused only with from/until.
 */
export function readSortArguments(
  node: ItemType,
  key: KeyIn,
  { args, taken, bounded, where, astNode }: { args: readonly FieldArgument[]; taken: ReadonlySet<string>; bounded: boolean; where: string; astNode?: unknown },
  problems: Problems,
): Record<string, string> {
  const found: Record<string, string> = {};
  const add = (message: string) => problems.add(where, message, astNode as never);
  const on = `${node.name}'s sort key in ${key.index ?? 'the table'}`;
  if (key.skMore.length === 0) {
    // Read in number order (collection.ts); from/until compare text from a template's placeholder on.
    const stored = numberSort(node, key);
    if (stored && bounded) add(`the sort attribute ${key.skAttr} of ${on} holds numbers (${node.name}.${stored.name}): from/until range text sort keys; leave them out, or write the number through a template on another attribute`);
    return found;
  }
  const sorts = [{ attribute: key.skAttr, template: key.sk }, ...key.skMore];
  for (const { attribute } of sorts) {
    const stored = numberStoredAs(node, attribute);
    if (stored) add(`the sort attribute ${attribute} of ${on} holds numbers (${node.name}.${stored.name}): a connection over several sort attributes orders and ranges text ones`);
  }
  const argOf = (placeholder: string) => [placeholder, `${placeholder}Id`].map((c) => args.find((a) => a.name === c && !taken.has(c))).find(Boolean);
  // How many leading attributes arguments may fix (fixable), and must (always: every argument required).
  let fixable = 0;
  let always = 0;
  sorts.forEach(({ attribute, template }, i) => {
    const named = template.placeholders.map((p) => ({ placeholder: p, arg: argOf(p) }));
    const given = named.filter((n) => n.arg !== undefined);
    if (given.length === 0) return;
    const list = given.map((n) => n.arg!.name).join(', ');
    // Read by the key even when refused below: one line each, no second about an unread argument.
    for (const n of given) found[n.placeholder] = n.arg!.name;
    if (i === sorts.length - 1) {
      add(`${list} would fix ${attribute}, the last attribute of ${on} (${sorts.map((s) => s.attribute).join(', ')}): the connection is ordered by it, so arguments fix only the attributes before it`);
      return;
    }
    if (given.length < named.length) {
      const missing = named.filter((n) => n.arg === undefined).map((n) => `{${n.placeholder}}`).join(', ');
      add(`${list} fix part of ${attribute} ("${template.source}") in ${on}: give an argument for ${missing} too, or none`);
      return;
    }
    if (fixable < i) {
      add(`${list} fix ${attribute} of ${on}, but no argument fixes ${sorts[fixable]!.attribute} before it: DynamoDB conditions sort attributes left to right`);
      return;
    }
    fixable = i + 1;
    if (always === i && given.every((n) => n.arg!.required)) always = i + 1;
  });
  if (bounded) {
    // from/until range over the first attribute no argument fixes: any of these, as the arguments given decide.
    for (const { attribute, template } of sorts.slice(always, fixable + 1)) {
      if (template.placeholders.length === 0) add(`from/until may range over ${attribute} of ${on}, whose template "${template.source}" has no placeholder to compare from`);
    }
  }
  return found;
}
