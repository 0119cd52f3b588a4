/**
 * Reservations of DynamoDB requests (src/graphql/reservation.ts) over
 * token buckets, driven through an operation's metrics as its calls would
 * (acquireSlot, then record): a call never starts unreserved, the budgets
 * never go below empty, executions side by side share one bucket, and what
 * an execution did not send goes back to every budget it drew from.
 */
import { describe, expect, it } from 'vitest';
import { OperationMetrics, DynamoRequestLimitError } from '../../src/dynamo/metrics.js';
import { Reservation, TOP_UP, type RequestSource } from '../../src/graphql/reservation.js';
import { SocketBudget } from '../../src/graphql/socketBudget.js';
import { CallerBuckets } from '../../src/graphql/plugins/callerBudget.js';

/** A socket's bucket of `burst` requests, its clock held still. */
const bucket = (burst: number) => new SocketBudget(Infinity, Infinity, { perSecond: 1, burst }, () => 0);
const left = (source: SocketBudget) => source.reserve(0).tokens;

/** Sends `n` calls of one request each through `metrics`, one after another; how many were sent. */
async function send(metrics: OperationMetrics, n: number): Promise<number> {
  let sent = 0;
  for (let i = 0; i < n; i++) {
    await metrics.acquireSlot();
    try {
      metrics.record('Query');
      sent++;
    } catch (err) {
      if (!(err instanceof DynamoRequestLimitError)) throw err;
    } finally {
      metrics.releaseSlot();
    }
  }
  return sent;
}

async function execution(sources: RequestSource[], planned: number, limits = { maxRequests: 2000, maxInFlight: 32 }) {
  const metrics = new OperationMetrics(limits);
  const reservation = new Reservation(sources, metrics.requestCap);
  await reservation.open(planned);
  metrics.reserveThrough(reservation);
  return { metrics, reservation };
}

describe('reservations of DynamoDB requests', () => {
  it('reserves the planned requests before the work and gives back what was not sent', async () => {
    const socket = bucket(100);
    const { metrics, reservation } = await execution([socket], 30);
    expect(reservation.granted).toBe(30);
    expect(left(socket)).toBe(70);
    expect(await send(metrics, 12)).toBe(12);
    reservation.close(metrics.requests);
    expect(left(socket)).toBe(88);
  });

  it('lets executions side by side send together no more than the bucket holds', async () => {
    const socket = bucket(100);
    const running = await Promise.all(Array.from({ length: 5 }, () => execution([socket], 60)));
    expect(running.map((r) => r.reservation.granted)).toEqual([60, 40, 0, 0, 0]);
    // Each wants 60: the calls past the reservations find nothing more to reserve.
    const sent = await Promise.all(running.map((r) => send(r.metrics, 60)));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(100);
    expect(left(socket)).toBe(0);
    expect(() => running[4]!.metrics.record('Query')).toThrow(/WS_DYNAMODB_REQUESTS_PER_SECOND/);
  });

  it('reserves more as it goes when its plan was too small, a wave of calls at a time, up to its cap', async () => {
    const socket = bucket(1000);
    const { metrics, reservation } = await execution([socket], 5, { maxRequests: 50, maxInFlight: 32 });
    expect(await send(metrics, 6)).toBe(6);
    expect(reservation.granted).toBe(5 + TOP_UP);
    expect(await send(metrics, 60)).toBe(44);
    expect(reservation.granted).toBe(50);
    reservation.close(metrics.requests);
    expect(left(socket)).toBe(950);
  });

  it('takes from every budget the least any of them holds, and gives the others back the rest', async () => {
    const socket = bucket(100);
    const callers = new CallerBuckets({ perSecond: 1, burst: 25, now: () => 0 });
    const { metrics, reservation } = await execution([socket, callers.source('addr:a')], 60);
    expect(reservation.granted).toBe(25);
    expect(left(socket)).toBe(75);
    expect(callers.available('addr:a')).toBe(0);
    expect(await send(metrics, 30)).toBe(25);
    expect(() => metrics.record('Query')).toThrow(/CALLER_DYNAMODB_REQUESTS_PER_SECOND/);
    reservation.close(metrics.requests);
    expect(left(socket)).toBe(75);
    expect(callers.available('addr:a')).toBe(0);
  });

  it('charges retries past the reservation when the execution ends', async () => {
    const socket = bucket(100);
    const { metrics, reservation } = await execution([socket], 2);
    expect(await send(metrics, 2)).toBe(2);
    metrics.record('Query', true);
    metrics.record('Query', true);
    reservation.close(metrics.requests);
    expect(left(socket)).toBe(96);
  });
});
