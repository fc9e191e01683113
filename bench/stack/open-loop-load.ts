/**
 * An open-loop load generator for the API figure's paced rows, run as its own process like autocannon:
 * request i is due at start + i / rate, whether or not earlier ones have been answered, over a pool of at
 * most `connections` keep-alive connections (undici). Latency is measured from the moment a request was due,
 * so a request that waited for a free connection, or for this process to be scheduled, counts that wait:
 * the figure cannot hide a stall by sending less during it (coordinated omission).
 *
 * autocannon's pacing (--overallRate) cannot give this figure: each connection sends its share of a
 * second as fast as it is answered and then stops until the next second, so the load comes in bursts at the
 * saturated rate, and its correction for omitted requests assumes one every millisecond per connection
 * (bench/analysis/api.md).
 *
 * Usage: node open-loop-load.js '<OpenLoopSpec as JSON>'; prints an OpenLoopResult.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { requestHeadersOf } from '../lib/autocannon.js';
import type { OpenLoopResult, OpenLoopSpec } from '../lib/open-loop.js';
import { quantileOfSorted } from '../lib/stats.js';

const spec = JSON.parse(process.argv[2] ?? '') as OpenLoopSpec;
const url = new URL(spec.url);
const pool = new Pool(url.origin, { connections: spec.connections, pipelining: 1 });
const headers = requestHeadersOf(spec);
const intervalMs = 1000 / spec.requestsPerSecond;
const total = Math.round(spec.requestsPerSecond * spec.durationSeconds);
const latencies = new Float64Array(total);
const sendLags = new Float64Array(total);
let failures = 0;

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

async function send(index: number, dueAt: number): Promise<void> {
  sendLags[index] = performance.now() - dueAt;
  if (!(await answered())) failures++;
  latencies[index] = performance.now() - dueAt;
}

// Warm-up, unmeasured: every connection opened and this process's code compiled before the schedule
// starts. Run on the schedule itself, this start-up held back its first half-second of requests, which then
// left in one burst; draining that backlog took longer than a second's warm-up (bench/analysis/api.md).
let warmupLeft = Math.round(spec.requestsPerSecond);
await Promise.all(
  Array.from({ length: spec.connections }, async () => {
    while (warmupLeft-- > 0) await answered();
  }),
);

const start = performance.now();
const inFlight: Promise<void>[] = [];
let sent = 0;
while (sent < total) {
  const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
  for (; sent < due; sent++) inFlight.push(send(sent, start + sent * intervalMs));
  // Node's timers fire at best every millisecond: the requests due meanwhile leave together at the next.
  await sleep(Math.max(0, start + sent * intervalMs - performance.now()));
}
await Promise.all(inFlight);
const wallSeconds = (performance.now() - start) / 1000;
await pool.close();

const sorted = latencies.slice().sort();
const sortedLags = sendLags.slice().sort();
const sortedFromSend = latencies.map((latency, i) => latency - sendLags[i]!).sort();
const result: OpenLoopResult = {
  requests: total,
  requestsPerSecond: total / wallSeconds,
  p50Ms: quantileOfSorted(sorted, 0.5),
  p99Ms: quantileOfSorted(sorted, 0.99),
  maxMs: sorted[sorted.length - 1]!,
  sendLagP99Ms: quantileOfSorted(sortedLags, 0.99),
  p99FromSendMs: quantileOfSorted(sortedFromSend, 0.99),
  failures,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
