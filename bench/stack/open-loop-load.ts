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
import type { OpenLoopResult, OpenLoopSpec } from '../lib/open-loop.js';

const spec = JSON.parse(process.argv[2] ?? '') as OpenLoopSpec;
const url = new URL(spec.url);
const pool = new Pool(url.origin, { connections: spec.connections, pipelining: 1 });
const headers = { 'content-type': 'application/json', ...spec.headers };
const intervalMs = 1000 / spec.requestsPerSecond;
// The first second's requests open the connections and warm this process up; they are sent at the same
// rate, but only the requests due after them are measured.
const warmup = Math.round(spec.requestsPerSecond);
const measured = Math.round(spec.requestsPerSecond * spec.durationSeconds);
const total = warmup + measured;
const latencies = new Float64Array(total);
const sendLags = new Float64Array(total);
let failures = 0;

async function send(index: number, dueAt: number): Promise<void> {
  sendLags[index] = performance.now() - dueAt;
  try {
    const response = await pool.request({ path: url.pathname, method: 'POST', headers, body: spec.body });
    await response.body.dump();
    if (response.statusCode !== 200 && index >= warmup) failures++;
  } catch {
    if (index >= warmup) failures++;
  }
  latencies[index] = performance.now() - dueAt;
}

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
const wallSeconds = (performance.now() - start - warmup * intervalMs) / 1000;
await pool.close();

const quantile = (sorted: Float64Array, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const sorted = latencies.subarray(warmup).slice().sort();
const sortedLags = sendLags.subarray(warmup).slice().sort();
const result: OpenLoopResult = {
  requests: measured,
  requestsPerSecond: measured / wallSeconds,
  p50Ms: quantile(sorted, 0.5),
  p99Ms: quantile(sorted, 0.99),
  maxMs: sorted[sorted.length - 1]!,
  sendLagP99Ms: quantile(sortedLags, 0.99),
  failures,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
