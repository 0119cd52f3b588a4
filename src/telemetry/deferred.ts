/**
 * deferTelemetry(load): a Telemetry to use at once, before the
 * OpenTelemetry SDK is loaded (`load` starts loadTelemetry). The SDK loads
 * when there is first something to export (the first `flush()`, or a
 * `shutdown()` with something recorded); `eager` loads it at once. Why:
 * loading and starting the SDK is cold-start CPU, which would otherwise
 * delay the first answer (Lambda answers first, then flushes).
 *
 * What is told before the SDK is ready is recorded with its times and
 * replayed once it is: the same spans (start and end times, parents,
 * attributes) and metrics. Then every call goes straight to the SDK.
 * `flush()` waits for the SDK, so nothing recorded misses an export; an SDK
 * that fails to load drops what was recorded (the loader reports it).
 */
import type { CallObserver, CallOutput, CallTrace } from '../dynamo/metrics.js';
import type { BatchStart, Carrier, Telemetry } from './telemetry.js';

type Replay = (real: Telemetry) => void;

interface RecordedCall {
  operation: string;
  input: Readonly<Record<string, unknown>>;
  at: number;
  failures: unknown[];
  end?: { output: CallOutput | undefined; error: unknown; at: number };
  /** The real call trace, once replayed: a call still running then goes on there. */
  live?: CallTrace;
}

/** A CallObserver that records calls, and the replay of them onto a real observer. */
function recordedCalls(): { calls: CallObserver; replayOnto(real: CallObserver): void } {
  const recorded: RecordedCall[] = [];
  let target: CallObserver | undefined;
  return {
    calls: {
      callStarted(operation, input, at) {
        if (target) return target.callStarted(operation, input, at);
        // The input as it was: request objects may be changed by retries before the replay reads them.
        const call: RecordedCall = { operation, input: { ...input }, at: at ?? performance.now(), failures: [] };
        recorded.push(call);
        return {
          attemptFailed(error) {
            if (call.live) call.live.attemptFailed(error);
            else call.failures.push(error);
          },
          finished(output, error, endedAt) {
            if (call.live) call.live.finished(output, error, endedAt);
            else call.end = { output, error, at: endedAt ?? performance.now() };
          },
        };
      },
    },
    replayOnto(real) {
      target = real;
      for (const call of recorded.splice(0)) {
        const trace = real.callStarted(call.operation, call.input, call.at);
        for (const failure of call.failures) trace.attemptFailed(failure);
        if (call.end) trace.finished(call.end.output, call.end.error, call.end.at);
        else call.live = trace;
      }
    },
  };
}

/** An operation's, batch's or delivery's trace: its calls, and its end. */
interface Trace<R> {
  calls: CallObserver;
  finish(result: R, at?: number): void;
}

/** A trace that records until `later` runs, then goes on as the real one `start` begins (at the recorded time). */
function deferredTrace<R>(later: (replay: Replay) => void, at: number | undefined, start: (real: Telemetry, startedAt: number) => Trace<R>): Trace<R> {
  const startedAt = at ?? performance.now();
  const { calls, replayOnto } = recordedCalls();
  let finish: ((trace: Trace<R>) => void) | undefined;
  let trace: Trace<R> | undefined;
  later((t) => {
    trace = start(t, startedAt);
    replayOnto(trace.calls);
    finish?.(trace);
  });
  return {
    calls,
    finish(result, endedAt) {
      const at2 = endedAt ?? performance.now();
      if (trace) trace.finish(result, at2);
      else finish = (t) => t.finish(result, at2);
    },
  };
}

export function deferTelemetry(load: () => Promise<Telemetry | undefined>, { eager = false }: { eager?: boolean } = {}): Telemetry {
  let real: Telemetry | undefined;
  let failed = false;
  const queue: Replay[] = [];
  let loading: Promise<void> | undefined;
  const drop = () => {
    failed = true;
    queue.length = 0;
  };
  /** Loads the SDK (once) and replays what was recorded into it. */
  const ready = () =>
    (loading ??= (async () => load())().then((telemetry) => {
      if (!telemetry) return drop();
      real = telemetry;
      for (const replay of queue.splice(0)) replay(telemetry);
    }, drop));
  // Eager: loading starts now, beside whatever the process does next (the first request).
  if (eager) void ready();
  /** Runs now on the SDK's Telemetry if it is there, else when it is. */
  const later = (replay: Replay) => {
    if (real) replay(real);
    else if (!failed) queue.push(replay);
  };

  return {
    startOperation(carrier: Carrier | undefined, at?: number) {
      if (real) return real.startOperation(carrier, at);
      // The carrier (request headers) is read at the replay: keep the values it may be asked for.
      const kept = carrier && snapshotCarrier(carrier);
      return deferredTrace(later, at, (t, startedAt) => t.startOperation(kept, startedAt));
    },

    startBatch(start: BatchStart, at?: number) {
      if (real) return real.startBatch(start, at);
      return deferredTrace(later, at, (t, startedAt) => t.startBatch(start, startedAt));
    },

    startDelivery(subscription, carrier, at) {
      if (real) return real.startDelivery(subscription, carrier, at);
      const kept = carrier && snapshotCarrier(carrier);
      return deferredTrace(later, at, (t, startedAt) => t.startDelivery(subscription, kept, startedAt));
    },

    subscriptionsChanged: (delta) => later((t) => t.subscriptionsChanged(delta)),
    watchConnections: (server) => later((t) => t.watchConnections(server)),
    watchStreamLag: (lagMs) => later((t) => t.watchStreamLag(lagMs)),

    async flush() {
      await ready();
      await real?.flush();
    },

    async shutdown() {
      // Never loaded and nothing to send: nothing to shut down.
      if (!loading && queue.length === 0) return;
      await ready();
      await real?.shutdown();
    },
  };
}

/** The trace-context headers of a carrier, copied (the only ones the propagators read). */
function snapshotCarrier(carrier: Carrier): Carrier {
  const kept = new Map<string, string>();
  for (const name of ['traceparent', 'tracestate', 'baggage']) {
    const value = carrier.get(name);
    if (typeof value === 'string') kept.set(name, value);
  }
  return { get: (name) => kept.get(name) };
}
