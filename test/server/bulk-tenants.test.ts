/**
 * A heavy tenant on POST /v1.0/households/evaluate, against the real server on loopback: its households,
 * not its requests, count against its key's rate limit, and its worst-case bulk requests leave another
 * key's requests answered. The engine is a stand-in whose households each take a fixed stretch of CPU,
 * so that a request of 1,000 costs about two seconds, as a worst-case one of the real engine does.
 */
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import type { Engine } from '../../src/engine/types.js';
import { DEFAULT_SERVER_CONFIG } from '../../src/server/config.js';
import { createFakeEngine } from './fake-engine.js';
import { post, startTestServer } from './helpers.js';

const HOUSEHOLD = { demographics: { zip: '10001', net_annual_income: 50_000 } };
const households = (count: number) => ({ households: Array(count).fill(HOUSEHOLD) });
/** A hang guard, never a measure of speed. */
const HANG_GUARD_MS = 60_000;

const amounts = Object.fromEntries(CATEGORIES.map((category) => [category, 1]));
const SCORE = { 'Predicted Saving Ability': '1', OUTLAY: '50.0', SAViNGS: '50.0' };

/** Each household keeps the CPU for `ms`. */
function busyEngine(ms: number): Engine {
  return createFakeEngine({
    household: () => {
      const until = performance.now() + ms;
      while (performance.now() < until);
      return { ok: true, value: { budget: amounts, model: amounts, score: SCORE } } as never;
    },
  });
}

describe('households counted against the rate limit', () => {
  it('when a key limited to 100 a minute sends 150 households, answers 429 with Retry-After', async () => {
    const server = await startTestServer({ engine: busyEngine(0), config: { rateLimit: 100 } });
    try {
      const evaluate = (count: number) =>
        post(`${server.url}/v1.0/households/evaluate`, households(count), { 'x-api-key': server.keys.all });
      const first = await evaluate(60);
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit')).toBe('"per-key";r=40;t=60');
      const refused = await evaluate(150);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: 'Too many requests' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe('worst-case bulk requests beside another tenant', () => {
  it(
    "when one key sends three requests of 1,000 slow households, another key's score request is answered 200 meanwhile",
    async () => {
      // Load shedding on, as deployed (mean event-loop delay over 1 s): seconds of blocked event loop pass it.
      const server = await startTestServer({
        engine: busyEngine(2),
        config: { rateLimit: 1_000_000, maxEventLoopDelayMs: DEFAULT_SERVER_CONFIG.maxEventLoopDelayMs },
      });
      try {
        const bulk = Array.from({ length: 3 }, () =>
          post(`${server.url}/v1.0/households/evaluate`, households(1000), { 'x-api-key': server.keys.all }),
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
        const other = await post(`${server.url}/v1.0/scores/generate`, HOUSEHOLD, {
          'x-api-key': server.keys.scoresOnly,
        });
        expect(other.status).toBe(200);
        expect((await Promise.all(bulk)).map((answer) => answer.status)).toEqual([200, 200, 200]);
      } finally {
        await server.close();
      }
    },
    HANG_GUARD_MS,
  );
});
