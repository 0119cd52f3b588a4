/**
 * subscriptionResolvers(): the `Subscription` entry of the resolver map,
 * one resolver per declared field, from its plan (declared.ts). Each runs
 * once per event (the event is the root value: engine.ts) and turns it
 * into the field's payload: the record mapped from the new image (null
 * once removed), or the change object of a connection (kind, child id,
 * edge or node). Fields the image does not hold resolve as in any query,
 * through the operation's loaders.
 *
 * The subscription's own rule (access.ts) is checked here too, so every
 * payload passes it, not only the subscribe.
 */
import type { GraphQLFieldResolver } from 'graphql';
import type { Context } from '../context.js';
import { refusedPayload, refusedSubscription } from './access.js';
import type { DeclaredSubscription } from './declared.js';
import type { ChangeEvent } from './events.js';
import type { ChangeModel } from './model.js';

type Resolver = GraphQLFieldResolver<ChangeEvent, Context, Record<string, unknown>>;

export const keyValuesOf = (decl: DeclaredSubscription, args: Record<string, unknown>): unknown[] => decl.args.map((a) => args[a]);

export function payloadResolver(decl: DeclaredSubscription, model: ChangeModel): Resolver {
  return (event, args, ctx) => {
    const key = keyValuesOf(decl, args);
    const refused = ctx.authRequired ? refusedSubscription(decl, ctx.identity, key, ctx.rules) : null;
    if (refused) throw refused;
    if (decl.kind === 'item') {
      const record = event.image ? model.record(decl.type, event.image) : null;
      // A partial image's record completes itself from the item, as a node built from an edge's copy does.
      if (record && event.partial) (record as { complete?: boolean }).complete = false;
      const hidden = ctx.authRequired ? refusedPayload(decl, ctx.identity, key, record, ctx.rules) : null;
      if (hidden) throw hidden;
      return record;
    }
    const parentId = key.join('#');
    const edge = event.image ? model.edge(decl.connection, parentId, event.image, ctx.cursors) : null;
    // A child from a partial image completes itself from its item (an edge's node always may).
    if (edge && event.partial) (edge.node as { complete?: boolean }).complete = false;
    return {
      [decl.kindField]: event.kind,
      [decl.idField]: event.childId,
      [decl.payloadField]: edge === null ? null : decl.payloadIs === 'edge' ? edge : edge.node,
    };
  };
}

export function subscriptionResolvers(declared: readonly DeclaredSubscription[], model: ChangeModel) {
  return Object.fromEntries(declared.map((d) => [d.field, { resolve: payloadResolver(d, model) }]));
}
