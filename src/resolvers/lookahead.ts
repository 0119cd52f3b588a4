/**
 * Look-ahead: a root @get field reads its selection set before it reads
 * DynamoDB, so the entity and the first page of its selected connection
 * cost as few round trips as possible:
 * - a partition the entity is itself in (the table or an index), a first
 *   page read from the entity's side (plan/beside.ts): one Query returns
 *   the entity and the page (loaders `withParent`): members sorting after
 *   it read ascending, members sorting before it read descending (or
 *   ascending, when the connection fits the page within FORWARD_OVER_READ);
 * - anything else (another partition, a cursored page, a page read away
 *   from the entity, another kind of item that may sort between them): the
 *   page's Query starts now, beside the entity's GetItem.
 * Optimisations only: the connection resolver plans the same read
 * (connections/engine.ts `planPage`) and finds it in the loaders' cache, or
 * reads it itself; bad arguments are left for it to report.
 */
import { Kind, valueFromASTUntyped, type ArgumentNode, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Context } from '../context.js';
import type { Collection, RangeRead } from '../dynamo/collection.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import type { ItemRecord } from '../plan/records.js';
import type { RelationPlan } from '../plan/relationPlan.js';
import type { CollectionPlan } from '../plan/collectionPlan.js';
import type { Beside } from '../plan/beside.js';
import { planPage } from '../connections/engine.js';
import { singleCollection } from '../connections/singleCollection.js';
import { mergedShards } from '../connections/mergedShards.js';
import type { ConnectionArgs } from '../connections/args.js';
import { mayRead, readsEverything } from '../auth/rules.js';
import { includedUnder, readsVariables } from '../declaration/annotations.js';

const PAGE_ARGUMENTS = new Set(['first', 'after', 'last', 'before']);

// Only AST helpers from graphql here: type predicates (isObjectType, getArgumentValues) use
// instanceof, which fails when the test runner loads graphql's ESM build next to Apollo's CJS one.

/** The arguments of a field or directive node, variables substituted (missing ones left out). */
function argumentValues(nodes: readonly ArgumentNode[] | undefined, info: GraphQLResolveInfo): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const arg of nodes ?? []) {
    if (arg.value.kind === Kind.VARIABLE && !(arg.value.name.value in info.variableValues)) continue;
    values[arg.name.value] = valueFromASTUntyped(arg.value, info.variableValues);
  }
  return values;
}

/** The name of the object type a field returns, through NonNull and List wrappers. */
function namedTypeName(type: unknown): string {
  let t = type as { ofType?: unknown; name?: string };
  while (t.ofType) t = t.ofType as typeof t;
  return String(t.name);
}

/** What a search for a field found, and whether the search read a variable (an @skip/@include condition). */
interface Search {
  found: FieldNode | null;
  readVariables: boolean;
}

/** The first field node named `name` in a selection set, following fragments whose condition is `typeName`. */
function findField(
  set: SelectionSetNode | undefined,
  name: string,
  typeName: string,
  info: GraphQLResolveInfo,
  seen: Set<string>,
  search: Search,
): FieldNode | null {
  for (const selection of set?.selections ?? []) {
    // Under @skip/@include: a condition given by a variable makes the search the request's own.
    if (readsVariables(selection)) search.readVariables = true;
    if (!includedUnder(selection, info.variableValues)) continue;
    let found: FieldNode | null = null;
    if (selection.kind === Kind.FIELD) {
      found = selection.name.value === name ? selection : null;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition?.name.value;
      if (condition === undefined || condition === typeName) found = findField(selection.selectionSet, name, typeName, info, seen, search);
    } else {
      const fragment = info.fragments[selection.name.value];
      if (fragment && !seen.has(fragment.name.value) && fragment.typeCondition.name.value === typeName) {
        seen.add(fragment.name.value);
        found = findField(fragment.selectionSet, name, typeName, info, seen, search);
      }
    }
    if (found) return found;
  }
  return null;
}

function searchField(info: GraphQLResolveInfo, name: string): Search {
  const typeName = namedTypeName(info.returnType);
  const seen = new Set<string>();
  const search: Search = { found: null, readVariables: false };
  for (const node of info.fieldNodes) {
    search.found = findField(node.selectionSet, name, typeName, info, seen, search);
    if (search.found) break;
  }
  return search;
}

/** A connection of the entity's type: a relation, or a collection over several types. */
type Connection = { relation: RelationPlan; collection?: undefined } | { collection: CollectionPlan; relation?: undefined };

const fieldOf = (c: Connection): string => c.relation?.field ?? c.collection!.field.field;

/** What a root field reads ahead: a connection of its type its selection selects, and that field's node. */
type Ahead = { connection: Connection; node: FieldNode } | null;

/**
 * The look-ahead of each root field node whose search read no variable:
 * the same for every request that sends the document, so found once (a
 * selection without @skip/@include conditions on variables is most of
 * them), not searched again per request. A weak map: entries go when
 * Apollo's document store lets the document go. Only for a field with one node (a field merged from
 * several nodes can be merged with other ones elsewhere in the document).
 */
const fixedAhead = new WeakMap<FieldNode, Ahead>();

function aheadOf(ctx: Context, info: GraphQLResolveInfo, spec: ItemPlan): Ahead {
  const single = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : null;
  const known = single ? fixedAhead.get(single) : undefined;
  if (known !== undefined) return known;
  let readVariables = false;
  let ahead: Ahead = null;
  const connections: Connection[] = [
    ...(ctx.plan.relationsOf.get(spec.name) ?? []).map((relation) => ({ relation })),
    ...(ctx.plan.collectionsOf.get(spec.name) ?? []).map((collection) => ({ collection })),
  ];
  // The first selected connection one Query reads with the entity, else one it may (kinds of many items between), else the first selected.
  let rank = 0;
  for (const connection of connections) {
    const search = searchField(info, fieldOf(connection));
    readVariables ||= search.readVariables;
    if (!search.found) continue;
    const beside = (connection.relation ?? connection.collection)!.beside;
    const its = beside === null ? 1 : beside.crowded ? 2 : 3;
    if (its > rank) {
      ahead = { connection, node: search.found };
      rank = its;
    }
    if (rank === 3) break;
  }
  if (single && !readVariables) fixedAhead.set(single, ahead);
  return ahead;
}

/**
 * Loads an item by id for a root field, reading ahead for its first
 * selected connection. Not an async function: most root fields select no
 * connection and get the loader's promise as it is, without another
 * promise around it.
 */
export function loadEntity(ctx: Context, info: GraphQLResolveInfo, spec: ItemPlan, id: string): Promise<ItemRecord | null> {
  if (ctx.loaders.naive) return ctx.loaders.entity(spec, id);
  const ahead = aheadOf(ctx, info, spec);
  if (ahead === null) return ctx.loaders.entity(spec, id);
  // The connection's arguments, variables substituted: per request.
  return readAhead(ctx, spec, ahead.connection, id, argumentValues(ahead.node.arguments, info) as ConnectionArgs);
}

/** The first page's read of `connection` for the entity `id` (its key's values `values`), or null when look-ahead leaves it to the resolver. */
function firstRead(
  ctx: Context,
  connection: Connection,
  id: string,
  values: Record<string, string>,
  args: ConnectionArgs,
): { collection: Collection; read: RangeRead } | null {
  const { relation, collection: over } = connection;
  if (over) {
    // A collection's placeholders: the entity's own key values, or its arguments.
    const slots = over.values({ ...values, id }, args as Record<string, unknown>);
    if (slots === undefined) return null;
    const collection = over.collection(slots);
    return { collection, read: planPage(singleCollection, collection, ctx.cursors, args).read };
  }
  // A narrowed list (@query beside @children: by date or status) reads another index: nothing to read ahead here.
  for (const name in args) if (!PAGE_ARGUMENTS.has(name) && args[name as keyof ConnectionArgs] != null) return null;
  const collection = relation.collection(id);
  // A write-sharded connection: its unsharded partition's read (the layout is not known yet).
  const unsharded = relation.sharded?.onePartition(id);
  return {
    collection,
    read: unsharded ? planPage(mergedShards, unsharded, ctx.cursors, args).reads[0]! : planPage(singleCollection, collection, ctx.cursors, args).read,
  };
}

/**
 * Whether one Query may read the entity and the page: members after the
 * entity read ascending from it; members before it read descending from it,
 * or ascending toward it. Kinds of many items between them (crowded) leave
 * the read toward the entity alone: the page first, the entity if near.
 */
const towardEntity = (beside: Beside, forward: boolean): boolean => (beside.side === 'after' ? forward || !beside.crowded : forward && !beside.crowded);

async function readAhead(ctx: Context, spec: ItemPlan, connection: Connection, id: string, args: ConnectionArgs): Promise<ItemRecord | null> {
  const plain = () => ctx.loaders.entity(spec, id);
  const field = fieldOf(connection);
  // A connection the caller may not read is not read ahead either (its rule refuses it without a read).
  // For an administrator nothing is built for the rule's arguments either.
  if (!readsEverything(ctx.identity) && !mayRead(ctx.rules, ctx.identity, spec.name, field, { id, complete: false }, { ...args })) return plain();
  let first: ReturnType<typeof firstRead>;
  let values: Record<string, string>;
  try {
    values = spec.derived ? spec.derived.values(id) : { id };
    first = firstRead(ctx, connection, id, values, args);
  } catch {
    return plain(); // the connection resolver throws the BAD_USER_INPUT
  }
  if (first === null) return plain();
  const { collection, read } = first;
  const beside = (connection.relation ?? connection.collection)!.beside;
  if (beside && !read.exclusiveStart && !read.bound && towardEntity(beside, read.forward) && read.collection === collection) {
    const at = beside.at(values);
    if (at.pk === collection.pk && collection.pkMore === undefined) {
      const found = await ctx.loaders.withParent.load({
        parentKey: spec.key(id),
        entitySk: at.sk,
        side: beside.side,
        between: beside.passes,
        crowded: beside.crowded,
        read,
      });
      return found ? spec.map(found) : null;
    }
  }
  // Started now, awaited by the connection resolver; a failure surfaces there.
  ctx.loaders.range.load(read).catch(() => {});
  return plain();
}
