/**
 * An open-loop load generator for the API figure's paced rows, run as its own process like autocannon:
 * requests due evenly whether or not earlier ones have been answered (the schedule and its accounting:
 * lib/open-loop-schedule.ts), over a pool of at most `connections` keep-alive connections (undici). A request
 * that waited for a free connection, or for this process to be scheduled, counts that wait.
 *
 * autocannon's pacing (--overallRate) cannot give this figure: each connection sends its share of a
 * second as fast as it is answered and then stops until the next second, so the load comes in bursts at the
 * saturated rate, and its correction for omitted requests assumes one every millisecond per connection.
 *
 * Usage: node open-loop-load.js '<OpenLoopSpec as JSON>'; prints an OpenLoopResult.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { requestHeadersOf } from '../lib/autocannon.js';
import type { OpenLoopSpec } from '../lib/open-loop.js';
import { runSchedule, type ScheduleClock, summarizeSchedule } from '../lib/open-loop-schedule.js';

const spec = JSON.parse(process.argv[2] ?? '') as OpenLoopSpec;
const url = new URL(spec.url);
const pool = new Pool(url.origin, { connections: spec.connections, pipelining: 1 });
const headers = requestHeadersOf(spec);
const total = Math.round(spec.requestsPerSecond * spec.durationSeconds);

/** One request; resolves to whether it was answered 200. */
async function answered(): Promise<boolean> {
  try {
    const response = await pool.request({ path: url.pathname, method: 'POST', headers, body: spec.body });
    await response.body.dump();
    return response.statusCode === 200;
  } catch {
    return false;
  }
}

// Warm-up, unmeasured: every connection opened and this process's code compiled before the schedule
// starts. Run on the schedule itself, this start-up held back its first half-second of requests, which then
// left in one burst; draining that backlog took longer than a second's warm-up.
let warmupLeft = Math.round(spec.requestsPerSecond);
await Promise.all(
  Array.from({ length: spec.connections }, async () => {
    while (warmupLeft-- > 0) await answered();
  }),
);

/** Node's timers fire at best every millisecond: the requests due meanwhile leave together at the next. */
const clock: ScheduleClock = {
  now: () => performance.now(),
  sleepUntil: (at) => sleep(Math.max(0, at - performance.now())),
};
const timings = await runSchedule(total, 1000 / spec.requestsPerSecond, clock, answered);
await pool.close();
process.stdout.write(`${JSON.stringify(summarizeSchedule(timings))}\n`);
