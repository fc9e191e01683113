/**
 * The calibration population (2014 households reweighted to the 2023 CU counts) and the filling of a
 * dimension's single suppressed cell from the all-CU mean, on small synthetic households.
 */
import { describe, expect, it } from 'vitest';
import { CUT_NAMES, cutIndex, harmonizeLevels } from '../../../jobs/build-model/calibrate.js';
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
    const levelled = harmonizeLevels(population, [category], targets);
    expect(levelled.tenure.get('Renter')!.get(category)).toBeCloseTo(100, 6);
    expect(levelled.tenure.get('Homeowner')!.get(category)).toBeCloseTo(200, 6);
  });
});
