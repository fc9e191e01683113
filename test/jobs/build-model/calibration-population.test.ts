/**
 * The calibration population (2014 households reweighted to the 2023 CU counts) and the filling of
 * suppressed cells from the published pooled means (all-CU, 65 and older), on small synthetic households.
 */
import { describe, expect, it } from 'vitest';
import { CUT_NAMES, cutIndex, fillSuppressed, harmonizeLevels } from '../../../jobs/build-model/calibrate.js';
import type { SpendingCategory } from '../../../jobs/build-model/ce-categories.js';
import type { Household } from '../../../jobs/build-model/extract-households.js';
import type { CutDimension, CutTargets } from '../../../jobs/build-model/published.js';
import { reweightTo2023 } from '../../../jobs/build-model/reweight.js';

const DIMENSIONS = Object.keys(CUT_NAMES) as CutDimension[];

/** 2 × 7 × 2 × 4 × 2 × 3 households, one per combination of the cuts, weights deliberately uneven. */
function households(): Household[] {
  const out: Household[] = [];
  const ages = [20, 30, 40, 50, 60, 70, 80];
  for (let a = 0; a < ages.length; a++)
    for (const isHomeowner of [false, true])
      for (let region = 1; region <= 4; region++)
        for (const urban of [false, true])
          for (const famType of [1, 6, 8]) {
            const n = out.length;
            out.push({
              newid: String(n),
              weight: 1 + ((n * 7919) % 13),
              monthsInScope: 3,
              age: ages[a]!,
              members: 1 + (n % 4),
              cutenure: isHomeowner ? 1 : 4,
              isHomeowner,
              stateFips: '01',
              region,
              urban,
              popsize: 0,
              incRank: 0,
              famType,
              grossIncome: 10_000 + n * 100,
              takeHome: 9_000 + n * 90,
              spending: new Float64Array(0),
            });
          }
  // Outside the population: unknown region keeps its weight and is never counted.
  out.push({ ...out[0]!, newid: 'x', region: 0, weight: 50 });
  return out;
}

/** Published counts: cut j of every dimension gets j + 1 shares, so each target share differs from the sample's. */
const counts = (d: CutDimension) => new Map(CUT_NAMES[d].map((cut, j) => [cut, (j + 1) * 1000]));

const shareOf = (hs: readonly Household[], d: CutDimension) => {
  const w = Float64Array.from(hs, (h) => (h.region > 0 ? h.weight : 0));
  const member = cutIndex(hs, w, d);
  const s = new Float64Array(CUT_NAMES[d].length);
  member.forEach((j, i) => {
    if (j >= 0) s[j]! += w[i]!;
  });
  const total = s.reduce((a, b) => a + b, 0);
  return Array.from(s, (x) => x / total);
};

describe('calibration population', () => {
  it('has the published CU shares on every raked dimension and keeps the total weight', () => {
    const sample = households();
    const population = reweightTo2023(sample, counts);
    for (const d of DIMENSIONS.filter((x) => x !== 'income')) {
      const n = CUT_NAMES[d].length;
      const expected = CUT_NAMES[d].map((_, j) => (j + 1) / ((n * (n + 1)) / 2));
      shareOf(population, d).forEach((s, j) => {
        expect(s).toBeCloseTo(expected[j]!, 9);
      });
    }
    const total = (hs: readonly Household[]) => hs.reduce((s, h) => s + (h.region > 0 ? h.weight : 0), 0);
    expect(total(population)).toBeCloseTo(total(sample), 6);
    expect(population.at(-1)).toBe(sample.at(-1));
  });

  it('fills a dimension’s only suppressed cell with what the published cuts leave of the all-CU mean', () => {
    const population = reweightTo2023(households(), counts);
    const category = 'pets' as SpendingCategory;
    const targets = Object.fromEntries(
      DIMENSIONS.map((d) => {
        const t: CutTargets = new Map();
        // Cut j's mean is 100 · (j + 1); the all-CU mean is the share-weighted mean over all cuts.
        const shares = shareOf(population, d);
        const all = shares.reduce((s, share, j) => s + share * 100 * (j + 1), 0);
        t.set('All consumer units', new Map([[category, all]]));
        CUT_NAMES[d].forEach((cut, j) => {
          t.set(cut, new Map(d === 'tenure' && j === 0 ? [] : [[category, 100 * (j + 1)]]));
        });
        return [d, t];
      }),
    ) as Record<CutDimension, CutTargets>;
    const flat = new Float64Array(population.length).fill(1);
    const levelled = harmonizeLevels(population, [category], targets, [flat]);
    expect(levelled.tenure.get('Renter')!.get(category)).toBeCloseTo(100, 6);
    expect(levelled.tenure.get('Homeowner')!.get(category)).toBeCloseTo(200, 6);
  });

  it('fillSuppressed: pins 75+ by the published 65-and-older mean, splits the all-CU rest by the fitted means', () => {
    const category = 'toys_and_hobbies' as SpendingCategory;
    const shares = Float64Array.from([0.05, 0.15, 0.2, 0.2, 0.2, 0.12, 0.08]);
    // Fitted structure: the under-25 cut is fitted at half the 45-54 cut.
    const fitted = Float64Array.from([100, 300, 400, 200, 500, 600, 700]);
    const published: [string, number | undefined][] = [
      ['All consumer units', 1000],
      ['Under 25 years', undefined],
      ['25-34 years', 800],
      ['35-44 years', 1200],
      ['45-54 years', undefined],
      ['55-64 years', 900],
      ['65 years and older', 700],
      ['65-74 years', 760],
      ['75 years and older', undefined],
    ];
    const targets: CutTargets = new Map(
      published.map(([cut, mean]) => [cut, new Map(mean === undefined ? [] : [[category, mean]])]),
    );
    fillSuppressed(targets, category, 'age', shares, fitted);
    const mean = (cut: string) => targets.get(cut)!.get(category)!;
    // 65+: (0.12 · 760 + 0.08 · x) / 0.2 = 700 → x = 610.
    expect(mean('75 years and older')).toBeCloseTo(610, 9);
    // All CUs: the two remaining cuts hold 1000 − 0.15·800 − 0.2·1200 − 0.2·900 − 0.2·700 = 320, split 1 : 2.
    expect(mean('45-54 years')).toBeCloseTo(2 * mean('Under 25 years'), 9);
    const total = CUT_NAMES.age.reduce((s, cut, j) => s + shares[j]! * mean(cut), 0);
    expect(total).toBeCloseTo(1000, 9);
  });
});
