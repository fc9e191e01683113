/**
 * Metro size in the shipped artifact: an urban place's transport and goods spending moves with its
 * metro-size class by the artifact's `metroSizeFactor` (estimated on CE 2014 urban households by POPSIZE
 * class, jobs/build-model/metro-size-effects.ts; estimates in docs/model.md, "Metro size").
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import { loadGeoResolver } from '../../src/geo/load.js';
import { METRO_SIZE_CLASSES } from '../../src/geo/metro-size.js';
import type { Geography, GeoResolver } from '../../src/geo/types.js';
import type { ModelArtifact } from '../../src/model/artifact.js';
import { DEFAULT_MODEL_PATH, loadSpendingModel } from '../../src/model/load.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';

const FAMILY: Profile = { net_annual_income: 90_000, age: 38, household_members: 4, is_homeowner: false };

let model: SpendingModel;
let geo: GeoResolver;
let factor: (category: string, size: number) => number;

beforeAll(async () => {
  [model, geo] = await Promise.all([loadSpendingModel(), loadGeoResolver()]);
  const artifact = JSON.parse(await readFile(DEFAULT_MODEL_PATH, 'utf8')) as ModelArtifact;
  factor = (category, size) =>
    artifact.metroSizeFactor![CATEGORIES.indexOf(category as never) * METRO_SIZE_CLASSES + size - 1]!;
});

function predict(place: Geography): Float64Array {
  const out = new Float64Array(CATEGORY_COUNT);
  model.predict(FAMILY, place, out);
  return out;
}

describe('shipped model, metro size', () => {
  it('gasoline, same household in Manhattan (10021, class 1) and Elmira NY (14901, class 5), differs in the direction of the estimate', () => {
    const [big, small] = [geo.resolve('10021'), geo.resolve('14901')];
    expect([big.region, big.metroSize, small.region, small.metroSize]).toEqual([
      'northeast',
      1,
      'northeast',
      5,
    ]);
    const gasoline = CATEGORY_INDEX.gasoline;
    const [bigGas, smallGas] = [predict(big)[gasoline]!, predict(small)[gasoline]!];
    expect(bigGas).not.toBe(smallGas);
    // The metro-size part of the difference: each ZIP against itself with no class (unfrozen copies).
    const bigPart = bigGas / predict({ ...big, metroSize: null })[gasoline]!;
    const smallPart = smallGas / predict({ ...small, metroSize: null })[gasoline]!;
    expect(bigPart).toBeCloseTo(factor('gasoline', 1), 12);
    expect(smallPart).toBeCloseTo(factor('gasoline', 5), 12);
    expect(Math.sign(smallPart - bigPart)).toBe(Math.sign(factor('gasoline', 5) - factor('gasoline', 1)));
    expect(smallPart).not.toBe(bigPart);
  });

  it('public transportation, Manhattan against Elmira, is higher in the large metro', () => {
    const transit = CATEGORY_INDEX.public_and_other_transportation;
    const [big, small] = [geo.resolve('10021'), geo.resolve('14901')];
    const bigPart = predict(big)[transit]! / predict({ ...big, metroSize: null })[transit]!;
    const smallPart = predict(small)[transit]! / predict({ ...small, metroSize: null })[transit]!;
    expect(bigPart).toBeGreaterThan(smallPart);
  });

  it('every class, a rural place, is unchanged by it (the factors were estimated within urban households)', () => {
    const rural = geo.resolve('12901');
    expect(rural.urban).toBe(false);
    const without = predict({ ...rural, metroSize: null });
    for (let size = 1; size <= METRO_SIZE_CLASSES; size++) {
      expect(predict({ ...rural, metroSize: size })).toEqual(without);
    }
  });

  it('education, any class, is unchanged (housing, utilities and services carry no class factor)', () => {
    const big = geo.resolve('10021');
    for (const category of ['education', 'mortgage_and_rent', 'electricity', 'food_out'] as const) {
      const c = CATEGORY_INDEX[category];
      for (let size = 1; size <= METRO_SIZE_CLASSES; size++) {
        expect(predict({ ...big, metroSize: size })[c]).toBe(predict({ ...big, metroSize: null })[c]);
      }
    }
  });

  it('food at home (a goods category), each class: the artifact’s factor, larger in the largest class than the smallest', () => {
    const big = geo.resolve('10021');
    const food = CATEGORY_INDEX.food_home;
    const none = predict({ ...big, metroSize: null })[food]!;
    for (let size = 1; size <= METRO_SIZE_CLASSES; size++) {
      expect(predict({ ...big, metroSize: size })[food]! / none).toBeCloseTo(factor('food_home', size), 12);
    }
    // docs/model.md, "Metro size": class 1 spends 1.04 times the fitted amount, class 5 0.92.
    expect(factor('food_home', 1)).toBeGreaterThan(factor('food_home', 5));
  });
});
