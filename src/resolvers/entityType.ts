/**
 * The resolvers of an entity type (Student, Course, Customer, Product),
 * derived from its declaration in model/entities.ts: its id, its text
 * fields, and its connection with a totalCount from the entity's counter
 * (counted from the collection when a table written by another program
 * lacks it).
 *
 * A record built from an edge's copy knows only its id and name/title
 * (`complete: false`); the other fields load the entity item (complete.ts).
 * Plain values are returned when the record holds them: a promise per field
 * is measurable work on large pages.
 */
import type { Context } from '../graphql/context.js';
import type { ConnectionArgs } from '../connections/args.js';
import { readConnection } from '../connections/connection.js';
import type { Entity, EntityRecord } from '../model/entities.js';
import { complete, required } from './complete.js';
import type { GraphQLResolveInfo } from 'graphql';
import { readRangeConnection, type RangeSource } from '../connections/rangeConnection.js';
import { countFilled } from '../dynamo/filledRange.js';
import { badUserInput } from '../graphql/errors.js';
import type { CourseRecord } from '../model/records.js';
import { courseStudentsConnection, selects } from './courseStudents.js';

/** The number of matches of a narrowed connection (Select: COUNT within the page read budget). */
async function countRange(ctx: Context, source: RangeSource): Promise<number> {
  const count = await countFilled(ctx.doc, ctx.tableName, { ...source, budget: ctx.pageReadBudget });
  if (count === null) {
    throw badUserInput(
      `totalCount here would read more than ${ctx.pageReadBudget} read units; narrow the range or leave totalCount out`,
      'totalCount',
    );
  }
  return count;
}

type Field = (record: EntityRecord & Record<string, unknown>, args: never, ctx: Context, info: GraphQLResolveInfo) => unknown;

export function entityTypeResolvers(entity: Entity): Record<string, Field> {
  const full = (record: EntityRecord, ctx: Context) =>
    complete(record, entity.typeName, (id) => ctx.loaders.entity(entity, id)) as Promise<EntityRecord & Record<string, unknown>>;
  const fields: Record<string, Field> = { id: (r) => r.id };
  for (const name of entity.requiredFields) {
    fields[name] = (r, _, ctx) => r[name] ?? full(r, ctx).then((f) => required(f[name], name));
  }
  for (const name of entity.optionalFields) {
    fields[name] = (r, _, ctx) => (r.complete ? (r[name] ?? null) : full(r, ctx).then((f) => f[name] ?? null));
  }
  for (const name of entity.flags ?? []) {
    fields[name] = (r, _, ctx) => (r.complete ? (r[name] ?? false) : full(r, ctx).then((f) => f[name] ?? false));
  }
  const { connection } = entity;
  if (connection.unsharded) {
    // Write-sharded connections (Course.students): partitions from the parent's layout (courseStudents.ts).
    fields[connection.field] = (r, args: ConnectionArgs, ctx, info: GraphQLResolveInfo) =>
      courseStudentsConnection(ctx, r as CourseRecord, args, (id) => ctx.loaders.entity(entity, id) as Promise<CourseRecord | null>, selects(info, 'totalCount'));
    return fields;
  }
  fields[connection.field] = (r, args: ConnectionArgs, ctx, info: GraphQLResolveInfo) => {
    // Narrowed (orders by date or status): another index, filled pages, totalCount counted within the budget.
    const narrowed = connection.narrow?.(r.id, args as Record<string, unknown>);
    if (narrowed) return readRangeConnection(ctx, info, narrowed, args, connection.edge, () => countRange(ctx, narrowed));
    const collection = connection.collection(r.id);
    return readConnection(ctx, collection, args, connection.edge, async () => {
      const counted = (await full(r, ctx))[connection.counter];
      return typeof counted === 'number' ? counted : ctx.loaders.count.load(collection);
    });
  };
  return fields;
}
