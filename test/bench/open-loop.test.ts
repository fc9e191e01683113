/**
 * The API figure's open-loop load generator. Its schedule and accounting (bench/lib/open-loop-schedule.ts)
 * run on a virtual clock, so what a stall does to the latencies is exact and independent of how busy the
 * machine is: every request that fell due during a stall counts its wait from when it was due, not from
 * when it could be sent (coordinated omission). The generator's process then runs against a real server on
 * loopback, checking only what it counts, never how long anything took.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runOpenLoop } from '../../bench/lib/open-loop.js';
import { runSchedule, type ScheduleClock, summarizeSchedule } from '../../bench/lib/open-loop-schedule.js';

/** A clock that moves only when everything pending has settled, straight to the next timer. */
class VirtualClock implements ScheduleClock {
  #now = 0;
  #timers: { at: number; wake: () => void }[] = [];
  /** Sleeps that end in [from, until) wake at `until` instead: the generator's process not scheduled. */
  readonly #oversleep: { from: number; until: number } | undefined;

  constructor(oversleep?: { from: number; until: number }) {
    this.#oversleep = oversleep;
  }

  now(): number {
    return this.#now;
  }

  sleepUntil(at: number): Promise<void> {
    const late = this.#oversleep;
    return this.at(late !== undefined && at >= late.from && at < late.until ? late.until : at);
  }

  at(time: number): Promise<void> {
    return new Promise((wake) => this.#timers.push({ at: Math.max(time, this.#now), wake }));
  }

  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const finish = () => {
      done = true;
    };
    work.then(finish, finish);
    for (;;) {
      // Every promise chain runs to its next wait before the clock moves.
      await new Promise((settled) => setImmediate(settled));
      if (done) return work;
      this.#timers.sort((a, b) => a.at - b.at);
      const next = this.#timers.shift();
      if (next === undefined) throw new Error('virtual clock: nothing pending and the work not done');
      this.#now = next.at;
      next.wake();
    }
  }
}

const RATE = 500;
const INTERVAL_MS = 1000 / RATE;
const SERVICE_MS = 1;
const STALL = { from: 400, until: 600 };
const dueAt = (index: number) => index * INTERVAL_MS;

/** A server that answers every request SERVICE_MS after it arrives, or after `stall` ends if it arrives in it. */
function fakeServer(clock: VirtualClock, stall?: { from: number; until: number }) {
  return async () => {
    const arrived = clock.now();
    const stalled = stall !== undefined && arrived >= stall.from && arrived < stall.until;
    await clock.at((stalled ? stall.until : arrived) + SERVICE_MS);
    return true;
  };
}

describe('open-loop schedule on a virtual clock', () => {
  it('a server stall of 200 ms at 500 requests/s: each of the 100 requests due during it counts its wait from when it was due, and p99 and max show the stall', async () => {
    const clock = new VirtualClock();
    const timings = await clock.run(runSchedule(RATE, INTERVAL_MS, clock, fakeServer(clock, STALL)));

    expect(timings.latencies).toHaveLength(RATE);
    expect(timings.failures).toBe(0);
    let inStall = 0;
    for (let i = 0; i < RATE; i++) {
      const stalled = dueAt(i) >= STALL.from && dueAt(i) < STALL.until;
      if (stalled) inStall++;
      expect(timings.sendLags[i], `request ${i} sent when due`).toBe(0);
      const expected = stalled ? STALL.until + SERVICE_MS - dueAt(i) : SERVICE_MS;
      expect(timings.latencies[i], `request ${i}`).toBe(expected);
    }
    expect(inStall).toBe((STALL.until - STALL.from) / INTERVAL_MS);

    // A closed loop of 10 connections would have delayed only the 10 in flight (2 %); here 20 % wait, so the
    // p99 (the 5th longest of 500) is the stall's longest wait less 4 intervals.
    const summary = summarizeSchedule(timings);
    expect(summary.maxMs).toBe(STALL.until - STALL.from + SERVICE_MS);
    expect(summary.p99Ms).toBe(STALL.until - STALL.from + SERVICE_MS - 4 * INTERVAL_MS);
    expect(summary.p50Ms).toBe(SERVICE_MS);
    expect(summary.p99FromSendMs).toBe(summary.p99Ms);
  });

  it('the generator not scheduled for 50 ms: the requests due meanwhile leave together when it wakes, each counting its lag from when it was due', async () => {
    const late = { from: 300, until: 350 };
    const clock = new VirtualClock(late);
    const timings = await clock.run(runSchedule(RATE, INTERVAL_MS, clock, fakeServer(clock)));

    expect(timings.failures).toBe(0);
    for (let i = 0; i < RATE; i++) {
      const held = dueAt(i) >= late.from && dueAt(i) < late.until;
      const lag = held ? late.until - dueAt(i) : 0;
      expect(timings.sendLags[i], `request ${i}`).toBe(lag);
      expect(timings.latencies[i], `request ${i}`).toBe(lag + SERVICE_MS);
    }
    const summary = summarizeSchedule(timings);
    expect(summary.p99FromSendMs).toBe(SERVICE_MS);
    expect(summary.sendLagP99Ms).toBeGreaterThan(0);
  });
});

describe('open-loop generator process against a real server on loopback', () => {
  let server: Server | undefined;
  afterEach(
    () => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))),
  );

  it('200 requests due over one second through 10 connections: all 200 are sent and answered 200, and its percentiles are ordered', {
    timeout: 60_000,
  }, async () => {
    server = createServer((request, response) => {
      request.resume().once('end', () => response.end('{}'));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;

    const result = await runOpenLoop({
      url: `http://127.0.0.1:${port}/x`,
      body: '{}',
      headers: {},
      connections: 10,
      durationSeconds: 1,
      requestsPerSecond: 200,
    });

    expect(result.requests).toBe(200);
    expect(result.failures).toBe(0);
    expect(result.p50Ms).toBeLessThanOrEqual(result.p99Ms);
    expect(result.p99Ms).toBeLessThanOrEqual(result.maxMs);
    expect(result.p99FromSendMs).toBeLessThanOrEqual(result.maxMs);
  });
});
