/**
 * The API figure's open-loop load generator (bench/stack/open-loop-load.ts) against a real server on
 * loopback: a stall of the server must show in the latencies of every request that fell due during it, not
 * only of those already sent (coordinated omission), and every due request is sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runOpenLoop } from '../../bench/lib/open-loop.js';

const STALL_MS = 200;
const RATE = 500;
// The generator's first RATE requests warm it up, unmeasured; the stall comes in the middle of the measured second.
const STALL_AT = RATE + RATE / 2;
let server: Server | undefined;

afterEach(
  () => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))),
);

/** Answers 200 at once, except that request STALL_AT blocks its event loop for STALL_MS first. */
async function stallingServer(): Promise<string> {
  let requests = 0;
  server = createServer((request, response) => {
    request.resume().once('end', () => {
      if (++requests === STALL_AT) {
        const until = performance.now() + STALL_MS;
        while (performance.now() < until) {}
      }
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/x`;
}

describe('open-loop load generator', () => {
  it('a server stall of 200 ms at 500 requests/s: every request due during it is late, so p99 and max show the stall; the 500 measured requests are all answered 200', {
    timeout: 30_000,
  }, async () => {
    const url = await stallingServer();
    const result = await runOpenLoop({
      url,
      body: '{}',
      headers: {},
      connections: 10,
      durationSeconds: 1,
      requestsPerSecond: RATE,
    });
    expect(result.requests).toBe(RATE);
    expect(result.failures).toBe(0);
    expect(result.maxMs).toBeGreaterThanOrEqual(STALL_MS);
    // About 100 requests (20 %) fall due during the stall. A closed loop of 10 connections would delay only
    // the 10 in flight (2 %), and its p99 could stay below the stall's half.
    expect(result.p99Ms).toBeGreaterThanOrEqual(STALL_MS / 2);
    expect(result.p50Ms).toBeLessThan(STALL_MS / 2);
  });
});
