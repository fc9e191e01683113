/**
 * The ranking table's paired cluster bootstrap (jobs/build-model/bootstrap.ts) against reference values
 * computed once by an independent implementation (reference/make-bootstrap-reference.py: the same seeded
 * draws of units from a Python port of src/sample/random.ts, then multiplicities, pairwise weighted AUC and
 * numpy.percentile), stored with their synthetic inputs in reference/bootstrap.json; the tests need no
 * Python.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aucDifference, bootstrapIntervals, quantile } from '../../../jobs/build-model/bootstrap.js';
import { separation } from '../../../jobs/build-model/separation.js';
import { Random } from '../../../src/sample/random.js';

interface Case {
  name: string;
  a: number[];
  b: number[];
  outcomes: number[];
  weights: number[];
  clusters: string[];
  replicates: number;
  seed: number;
  estimate: number;
  low: number;
  high: number;
  auc_a: Interval;
  auc_b: Interval;
}
interface Interval {
  estimate: number;
  low: number;
  high: number;
}
const reference: { generator: { seed: number; stream: number; uint32: number[] }; bootstrap: Case[] } =
  JSON.parse(readFileSync(new URL('reference/bootstrap.json', import.meta.url), 'utf8'));

describe('aucDifference', () => {
  it('Random: the Python port the reference draws with, gives the same first outputs', () => {
    const { seed, stream, uint32 } = reference.generator;
    const random = new Random(seed, stream);
    expect(uint32.map(() => random.uint32())).toEqual(uint32);
  });

  for (const c of reference.bootstrap) {
    it(`aucDifference: ${c.name}, gives the reference estimate and 95 % interval`, () => {
      const result = aucDifference(
        { ...c, outcomes: c.outcomes.map((y) => y === 1) },
        { replicates: c.replicates, seed: c.seed, level: 0.95 },
      );
      expect(result.estimate).toBeCloseTo(c.estimate, 12);
      expect(result.low).toBeCloseTo(c.low, 12);
      expect(result.high).toBeCloseTo(c.high, 12);
    });
  }

  for (const c of reference.bootstrap) {
    it(`bootstrapIntervals: ${c.name}, each score's AUC and their difference from the same resamples, gives the reference intervals`, () => {
      const outcomes = c.outcomes.map((y) => y === 1);
      const statistics = (w: ArrayLike<number>) => {
        const a = separation(c.a, outcomes, w).auc;
        const b = separation(c.b, outcomes, w).auc;
        return [a, b, a - b];
      };
      const intervals = bootstrapIntervals(c, statistics, {
        replicates: c.replicates,
        seed: c.seed,
        level: 0.95,
      });
      const expected = [c.auc_a, c.auc_b, { estimate: c.estimate, low: c.low, high: c.high }];
      intervals.forEach((interval, j) => {
        expect(interval.estimate).toBeCloseTo(expected[j]!.estimate, 12);
        expect(interval.low).toBeCloseTo(expected[j]!.low, 12);
        expect(interval.high).toBeCloseTo(expected[j]!.high, 12);
      });
    });
  }

  it('aucDifference: a score against itself, zero with a zero-width interval', () => {
    const c = reference.bootstrap[0]!;
    const result = aucDifference(
      { ...c, b: c.a, outcomes: c.outcomes.map((y) => y === 1) },
      { replicates: 50, seed: 1, level: 0.95 },
    );
    expect(result).toEqual({ estimate: 0, low: 0, high: 0 });
  });
});

describe('quantile', () => {
  it('quantile: interpolates between order statistics at (n − 1) p (numpy.percentile, linear)', () => {
    // numpy.percentile([4, 1, 3, 2], [0, 2.5, 50, 97.5, 100]) = [1, 1.075, 2.5, 3.925, 4].
    const values = [4, 1, 3, 2];
    expect([0, 0.025, 0.5, 0.975, 1].map((p) => quantile(values, p))).toEqual([1, 1.075, 2.5, 3.925, 4]);
  });
});
