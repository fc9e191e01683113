/**
 * Weighted AUC and KS (jobs/build-model/separation.ts) against reference values computed once by an
 * independent method (reference/make-separation-reference.py: every pair and every threshold by brute
 * force in numpy, and for integer weights scipy's Mann–Whitney U and two-sample KS on the expanded rows),
 * stored with their synthetic inputs in reference/separation.json; the tests need no Python.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { separation } from '../../../jobs/build-model/separation.js';

interface Case {
  name: string;
  scores: number[];
  outcomes: number[];
  weights: number[];
  auc: number;
  ks: number;
}
const reference: { cases: Case[] } = JSON.parse(
  readFileSync(new URL('reference/separation.json', import.meta.url), 'utf8'),
);

describe('separation', () => {
  for (const c of reference.cases) {
    it(`separation: ${c.name}, gives the reference AUC and KS`, () => {
      const result = separation(
        c.scores,
        c.outcomes.map((y) => y === 1),
        c.weights,
      );
      expect(result.auc).toBeCloseTo(c.auc, 12);
      expect(result.ks).toBeCloseTo(c.ks, 12);
    });
  }

  it('separation: hand case with a tie across groups, counts the tie as one half', () => {
    // Pairs (with, without): 3>1 w 2·1, 3>2 w 2·1, 2=2 w 1·1 (½), 2>1 w 1·1 → (2 + 2 + 0.5 + 1) / (3 · 2).
    // Thresholds: ≤1 F1 0 F0 ½; ≤2 F1 ⅓ F0 1 → KS ⅔.
    const result = separation([3, 2, 1, 2], [true, true, false, false], [2, 1, 1, 1]);
    expect(result.auc).toBeCloseTo(5.5 / 6, 15);
    expect(result.ks).toBeCloseTo(2 / 3, 15);
  });

  it('separation: weight zero rows, change nothing', () => {
    const base = separation([3, 2, 1, 2], [true, true, false, false], [2, 1, 1, 1]);
    const padded = separation(
      [3, 2, 1, 2, 9, -9],
      [true, true, false, false, false, true],
      [2, 1, 1, 1, 0, 0],
    );
    expect(padded).toEqual(base);
  });

  it('separation: one group without weight, throws naming why', () => {
    expect(() => separation([1, 2], [true, true], [1, 1])).toThrow(/with and without the outcome/);
  });

  it('separation: a negative weight or a non-finite score, throws naming the row', () => {
    expect(() => separation([1, 2], [true, false], [1, -1])).toThrow(/row 1/);
    expect(() => separation([1, Number.NaN], [true, false], [1, 1])).toThrow(/row 1/);
  });
});
