/**
 * The gateway's own request plugins, run as one Apollo plugin. Apollo runs
 * every plugin's hooks through async wrappers (one async call per listener
 * and phase, each awaited); with a dozen plugins that cost more CPU per
 * short query than the plugins' own work. A `GatewayPlugin`'s hooks may
 * return a value or a promise, and `combinePlugins` calls them in order,
 * waiting only for real promises (the idempotency records).
 *
 * Order and outcome stay Apollo's: every listener's `didResolveOperation`,
 * `didEncounterErrors` and `willSendResponse` runs, in order; a phase fails
 * with the first failure in that order, as Apollo's `Promise.all` does;
 * `responseForOperation` goes listener by listener until one answers.
 */
import type { ApolloServerPlugin, GraphQLRequestContext, GraphQLRequestListener, GraphQLResponse } from '@apollo/server';
import type { Context } from '../context.js';

type Request = GraphQLRequestContext<Context>;
type Phase<K extends keyof GraphQLRequestListener<Context>> = Parameters<NonNullable<GraphQLRequestListener<Context>[K]>>[0];

/** What a gateway plugin may do for one request: a subset of Apollo's request hooks, sync or async. */
export interface RequestHooks {
  didResolveOperation?(request: Phase<'didResolveOperation'>): void | Promise<void>;
  responseForOperation?(request: Phase<'responseForOperation'>): GraphQLResponse | null | Promise<GraphQLResponse | null>;
  willSendResponse?(request: Phase<'willSendResponse'>): void | Promise<void>;
  didEncounterErrors?(request: Phase<'didEncounterErrors'>): void | Promise<void>;
}

/** A plugin of the gateway's own: its hooks for a request, or nothing when it has none for this one. */
export interface GatewayPlugin {
  requestDidStart(request: Request): RequestHooks | undefined;
}

type Hook = 'didResolveOperation' | 'willSendResponse' | 'didEncounterErrors';

/** Every listener's `hook`, in order: nothing to wait for when none returned a promise. */
function each(listeners: RequestHooks[], hook: Hook, request: Phase<Hook>): void | Promise<void> {
  let pending: Promise<unknown>[] | undefined;
  for (const listener of listeners) {
    const fn = listener[hook] as ((r: Phase<Hook>) => void | Promise<void>) | undefined;
    if (!fn) continue;
    try {
      const result = fn.call(listener, request);
      if (result) (pending ??= []).push(result);
    } catch (error) {
      // The later listeners still run (as Apollo's async hooks all start); this failure is the phase's
      // unless an earlier listener's promise is already rejected.
      (pending ??= []).push(Promise.reject(error));
    }
  }
  if (pending) return Promise.all(pending).then(() => undefined);
}

/** The first response a listener gives, from listener `from` on; null when none does. */
function firstResponse(
  listeners: RequestHooks[],
  request: Phase<'responseForOperation'>,
  from: number,
): GraphQLResponse | null | Promise<GraphQLResponse | null> {
  for (let i = from; i < listeners.length; i++) {
    const fn = listeners[i]!.responseForOperation;
    if (!fn) continue;
    const result = fn.call(listeners[i], request);
    if (result instanceof Promise) return result.then((value) => value ?? firstResponse(listeners, request, i + 1));
    if (result != null) return result;
  }
  return null;
}

class CombinedListener {
  constructor(private readonly listeners: RequestHooks[]) {}
  didResolveOperation(request: Phase<'didResolveOperation'>) {
    return each(this.listeners, 'didResolveOperation', request);
  }
  responseForOperation(request: Phase<'responseForOperation'>) {
    return firstResponse(this.listeners, request, 0);
  }
  willSendResponse(request: Phase<'willSendResponse'>) {
    return each(this.listeners, 'willSendResponse', request);
  }
  didEncounterErrors(request: Phase<'didEncounterErrors'>) {
    return each(this.listeners, 'didEncounterErrors', request);
  }
}

/** One Apollo plugin running `plugins`' request hooks in their order. */
export function combinePlugins(plugins: readonly GatewayPlugin[]): ApolloServerPlugin<Context> {
  return {
    // Apollo awaits what its hooks return; plain values are awaited as they are.
    requestDidStart: ((request: Request) => {
      const listeners: RequestHooks[] = [];
      for (const plugin of plugins) {
        const listener = plugin.requestDidStart(request);
        if (listener) listeners.push(listener);
      }
      return listeners.length ? new CombinedListener(listeners) : undefined;
    }) as unknown as ApolloServerPlugin<Context>['requestDidStart'],
  };
}
