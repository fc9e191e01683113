/**
 * The open-loop generator's schedule and accounting, apart from its HTTP client and its clock, so that a
 * test can drive them with a virtual clock: request i is due at start + i × interval whether or not earlier
 * ones have been answered, and its latency runs from when it was due. A request sent late, because the
 * generator was not scheduled in time, counts that lag; one answered late, because the server stalled,
 * counts the stall: a stall cannot be hidden by sending less during it (coordinated omission).
 */
import type { OpenLoopResult } from './open-loop.js';
import { quantileOfSorted } from './stats.js';

export interface ScheduleClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Resolves at `at` or later (never earlier). */
  sleepUntil(at: number): Promise<void>;
}

export interface ScheduleTimings {
  /** Per request, in schedule order: from when it was due to when its answer arrived, ms. */
  readonly latencies: Float64Array;
  /** Per request: from when it was due to when it was sent, ms (the generator's own lag). */
  readonly sendLags: Float64Array;
  readonly failures: number;
  /** From the schedule's start to the last answer, ms. */
  readonly wallMs: number;
}

/** Sends `total` requests `intervalMs` apart; `send` resolves to whether the answer was a 200. */
export async function runSchedule(
  total: number,
  intervalMs: number,
  clock: ScheduleClock,
  send: () => Promise<boolean>,
): Promise<ScheduleTimings> {
  const latencies = new Float64Array(total);
  const sendLags = new Float64Array(total);
  let failures = 0;
  const start = clock.now();
  const sendDue = async (index: number, dueAt: number) => {
    sendLags[index] = clock.now() - dueAt;
    if (!(await send())) failures++;
    latencies[index] = clock.now() - dueAt;
  };
  const inFlight: Promise<void>[] = [];
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor((clock.now() - start) / intervalMs) + 1);
    for (; sent < due; sent++) inFlight.push(sendDue(sent, start + sent * intervalMs));
    // Requests that fell due while the generator waited for its clock leave together when it wakes.
    await clock.sleepUntil(start + sent * intervalMs);
  }
  await Promise.all(inFlight);
  return { latencies, sendLags, failures, wallMs: clock.now() - start };
}

export function summarizeSchedule({
  latencies,
  sendLags,
  failures,
  wallMs,
}: ScheduleTimings): OpenLoopResult {
  const sorted = latencies.slice().sort();
  const fromSend = latencies.map((latency, i) => latency - sendLags[i]!).sort();
  return {
    requests: latencies.length,
    requestsPerSecond: latencies.length / (wallMs / 1000),
    p50Ms: quantileOfSorted(sorted, 0.5),
    p99Ms: quantileOfSorted(sorted, 0.99),
    maxMs: sorted[sorted.length - 1]!,
    sendLagP99Ms: quantileOfSorted(sendLags.slice().sort(), 0.99),
    p99FromSendMs: quantileOfSorted(fromSend, 0.99),
    failures,
  };
}
