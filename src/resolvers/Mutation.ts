/**
 * mutationResolvers(plan): one resolver per declared mutation field, each
 * a generic write in src/writes/ (where its guarantees are spelled out)
 * named by the field's directive. Results are records, resolved by the
 * type resolvers:
 * - @create, @update: the item's record;
 * - @delete: the id;
 * - @addEdge: the new edge as the owner's connection shows it, with a cursor
 *   that pages on from it;
 * - @removeEdge: true.
 *
 * After a write the request's loader caches are cleared: mutation fields run
 * one after another, and a later field of the same operation must not be
 * served an item as it was before this write.
 */
import DataLoader from 'dataloader';
import type { Context } from '../context.js';
import { cursorOf } from '../connections/engine.js';
import { singleCollection } from '../connections/singleCollection.js';
import type { Plan } from '../plan/plan.js';
import type { EdgeRecord } from '../plan/records.js';
import { createItem } from '../writes/create.js';
import { deleteItem } from '../writes/cascade.js';
import { link, unlink } from '../writes/link.js';
import { updateItem } from '../writes/update.js';
import { keyFieldValues } from '../plan/itemPlan.js';
import { writePlanOf } from '../writes/writePlan.js';
import { invariantViolation } from '../errors.js';

type MutationResolver = (parent: unknown, args: Record<string, unknown>, ctx: Context) => Promise<unknown>;

function forgetReads(ctx: Context): void {
  for (const loader of Object.values(ctx.loaders)) if (loader instanceof DataLoader) loader.clearAll();
}

const write = async <T>(ctx: Context, run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } finally {
    forgetReads(ctx);
  }
};

/**
 * The id a @update/@delete names: its argument id, or, for a type with a
 * derived id taken by its key's values, the id those values make.
 */
function idArgument(plan: Plan, type: string, keyArguments: Record<string, string>): (args: Record<string, unknown>) => unknown {
  const derived = plan.item(type).derived;
  if (!derived || Object.keys(keyArguments).length === 0) return (args) => args.id;
  return (args) => derived.id(Object.fromEntries(Object.entries(keyArguments).map(([p, a]) => [p, args[a]])), keyArguments);
}

/** The key fields' values a @update/@delete passes on: none for a derived id (the id holds them). */
const keyFieldsOf = (plan: Plan, type: string, keyArguments: Record<string, string>) =>
  plan.item(type).derived ? () => undefined : (args: Record<string, unknown>) => keyFieldValues(keyArguments, args);

export function mutationResolvers(plan: Plan): Record<string, MutationResolver> {
  const writes = writePlanOf(plan);
  const fields: Record<string, MutationResolver> = {};
  for (const m of plan.mutations) {
    switch (m.kind) {
      case 'create': {
        const parentArgument = m.parentArgument;
        fields[m.field] = (_, args, ctx) =>
          write(ctx, () =>
            createItem(ctx, m.type, args.input as Record<string, unknown>, parentArgument ? { id: args[parentArgument], argument: parentArgument } : undefined),
          );
        break;
      }
      case 'update': {
        const parentArgument = m.parentArgument;
        const idOf = idArgument(plan, m.type, m.keyArguments);
        const fieldsOf = keyFieldsOf(plan, m.type, m.keyArguments);
        fields[m.field] = (_, args, ctx) =>
          write(ctx, () =>
            updateItem(ctx, m.type, idOf(args) as string, args.input as Record<string, unknown>, {
              id: parentArgument ? args[parentArgument] : undefined,
              argument: parentArgument,
              fields: fieldsOf(args),
            }),
          );
        break;
      }
      case 'delete': {
        const parentArgument = m.parentArgument;
        const idOf = idArgument(plan, m.type, m.keyArguments);
        const fieldsOf = keyFieldsOf(plan, m.type, m.keyArguments);
        fields[m.field] = (_, args, ctx) =>
          write(ctx, () =>
            deleteItem(
              ctx,
              m.type,
              idOf(args) as string,
              { id: parentArgument ? args[parentArgument] : undefined, argument: parentArgument, fields: fieldsOf(args) },
              m.match.map((name) => ({ name, value: args[name] })),
            ),
          );
        break;
      }
      case 'link': {
        const pair = writes.pair(m.edges);
        const base = pair.base;
        const others = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([name]) => name !== m.from && name !== m.to));
        // Named by its inverse side, the link's `from` is the base side's node.
        const swapped = plan.relation(m.edges) !== base;
        const [ownerArg, nodeArg] = swapped ? [m.to, m.from] : [m.from, m.to];
        fields[m.field] = (_, args, ctx) =>
          write(ctx, async (): Promise<EdgeRecord> => {
            const ownerId = args[ownerArg] as string;
            const linked = await link(ctx, base.path, ownerId, args[nodeArg] as string, { from: ownerArg, to: nodeArg }, others(args), m);
            const collection = base.collection(ownerId);
            const { node: fromEdge, ...attributes } = base.edge(linked.edge);
            return {
              cursor: cursorOf(singleCollection, collection, ctx.cursors, linked.edge),
              ...attributes,
              // A keyless node is its id alone, as the edge holds it.
              node: pair.nodeKeyless ? fromEdge : pair.node.map(linked.node),
            };
          });
        break;
      }
      case 'unlink': {
        const base = writes.pair(m.edges).base;
        const [ownerArg, nodeArg] = plan.relation(m.edges) !== base ? [m.to, m.from] : [m.from, m.to];
        // The other arguments: the edge fields and id the pair's keys hold, which find the edge.
        fields[m.field] = (_, args, ctx) =>
          write(ctx, () => unlink(ctx, base.path, args[ownerArg] as string, args[nodeArg] as string, { from: ownerArg, to: nodeArg }, m, args));
        break;
      }
      default: {
        const never: never = m;
        return invariantViolation(`unknown mutation ${JSON.stringify(never)}`);
      }
    }
  }
  return fields;
}
