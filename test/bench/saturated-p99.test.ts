/**
 * The API figure's explanation of an unmet p99 target (bench/lib/saturated-p99.ts): Little's law and the
 * run's own tail-to-mean ratios, computed from the figures it is given.
 */
import { describe, expect, it } from 'vitest';
import { type SaturatedReading, saturatedP99Explanation } from '../../bench/lib/saturated-p99.js';

const reading = (name: string, requestsPerSecond: number, p99Ms: number): SaturatedReading => ({
  name,
  requestsPerSecond,
  p99Ms,
  pacedP99Ms: 5,
});

describe('saturatedP99Explanation', () => {
  it('50 connections at 10,000/s with p99 twice the mean: a 10 ms mean is 5 ms, so 5 ms needs 20,000/s, more than the fastest reference', () => {
    const text = saturatedP99Explanation({
      limitMs: 5,
      connections: 50,
      cores: 2,
      endpoints: [reading('endpoint', 10_000, 10)],
      references: [reading('bare', 15_000, 7)],
    });
    expect(text).toContain('5.0 ms at 10,000/s for endpoint');
    expect(text).toContain('p99 was 2.0–2.1 times its mean');
    expect(text).toContain('needs at least 20,000/s');
    expect(text).toContain('more than any server reached here, bare included (15,000/s)');
  });

  it('a reference fast enough for the limit: says that it reached the needed rate', () => {
    const text = saturatedP99Explanation({
      limitMs: 5,
      connections: 50,
      cores: 2,
      endpoints: [reading('endpoint', 10_000, 10)],
      references: [reading('bare', 25_000, 4)],
    });
    expect(text).toContain('which bare reached here (25,000/s)');
  });
});
