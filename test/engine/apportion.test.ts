import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORY_COUNT } from '../../src/contract/categories.js';
import { apportion as apportionInto } from '../../src/engine/apportion.js';

const ALL = new Uint8Array(CATEGORY_COUNT).fill(1);

function apportion(total: number, weights: number[], eligible = ALL) {
  const out = new Float64Array(CATEGORY_COUNT).fill(-1);
  const ok = apportionInto(total, Float64Array.from(weights), eligible, out);
  return { ok, out: Array.from(out) };
}

/** Textbook largest remainder with a full sort, to check the selection-based implementation against. */
function reference(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const perWeight = total / sum;
  const quotas = weights.map((w) => w * perWeight);
  const out = quotas.map(Math.floor);
  const leftover = total - out.reduce((a, b) => a + b, 0);
  const byFraction = quotas
    .map((q, i) => ({ i, fraction: Math.floor((q - Math.floor(q)) * 2 ** 40) }))
    .sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (const { i } of byFraction.slice(0, leftover)) out[i]! += 1;
  return out;
}

describe('apportion (largest remainder)', () => {
  it('splits 10 over three equal weights as 4, 3, 3: the tie goes to the earlier category', () => {
    const weights = new Array(CATEGORY_COUNT).fill(0);
    weights[0] = weights[1] = weights[2] = 1;
    expect(apportion(10, weights).out.slice(0, 3)).toEqual([4, 3, 3]);
  });

  it('gives units to the earliest categories when 38 equal quotas all round down (10 over 38: quotas 0.26)', () => {
    const { out } = apportion(10, new Array(CATEGORY_COUNT).fill(1));
    expect(out).toEqual([...new Array(10).fill(1), ...new Array(CATEGORY_COUNT - 10).fill(0)]);
  });

  it('takes units back from the latest categories when 38 equal quotas all round up (28 over 38: quotas 0.74)', () => {
    const { out } = apportion(28, new Array(CATEGORY_COUNT).fill(1));
    expect(out).toEqual([...new Array(28).fill(1), ...new Array(CATEGORY_COUNT - 28).fill(0)]);
  });

  it('gives the leftover unit to the largest fraction, not the largest weight', () => {
    // Quotas 6.2, 2.3 and 1.5 → floors 6, 2, 1 and one unit left for the .5.
    const weights = new Array(CATEGORY_COUNT).fill(0);
    weights[0] = 62;
    weights[1] = 23;
    weights[2] = 15;
    expect(apportion(10, weights).out.slice(0, 3)).toEqual([6, 2, 2]);
  });

  it('touches only eligible indices', () => {
    const eligible = new Uint8Array(CATEGORY_COUNT);
    eligible[5] = 1;
    const { out } = apportion(7, new Array(CATEGORY_COUNT).fill(1), eligible);
    expect(out[5]).toBe(7);
    expect(out.filter((v) => v === -1)).toHaveLength(CATEGORY_COUNT - 1);
  });

  it('sets eligible amounts to 0 and reports false when the weights sum to 0', () => {
    expect(apportion(100, new Array(CATEGORY_COUNT).fill(0))).toEqual({
      ok: false,
      out: new Array(CATEGORY_COUNT).fill(0),
    });
  });

  it('property: equals a full-sort largest remainder, sums to the total, within one unit of each quota', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.array(fc.oneof(fc.constant(0), fc.constant(500), fc.double({ min: 0, max: 1e6, noNaN: true })), {
          minLength: CATEGORY_COUNT,
          maxLength: CATEGORY_COUNT,
        }),
        (total, weights) => {
          fc.pre(weights.some((w) => w > 0));
          const { out } = apportion(total, weights);
          expect(out).toEqual(reference(total, weights));
          expect(out.reduce((a, b) => a + b, 0)).toBe(total);
          const sum = weights.reduce((a, b) => a + b, 0);
          expect(weights.every((w, i) => Math.abs(out[i]! - (w * total) / sum) < 1 + 1e-6)).toBe(true);
        },
      ),
      { numRuns: 10_000 },
    );
  });
});
