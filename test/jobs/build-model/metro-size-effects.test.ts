/**
 * Metro-size effects: per POPSIZE class within urban households, the ratio shrunk toward 1, and a shrunk
 * ratio against the category's expected direction reported and held at 1.
 */
import { describe, expect, it } from 'vitest';
import type { Household } from '../../../jobs/build-model/extract-households.js';
import { SPENDING } from '../../../jobs/build-model/fit.js';
import {
  estimateMetroSizeEffects,
  metroSizeFactorTable,
} from '../../../jobs/build-model/metro-size-effects.js';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../../src/contract/categories.js';
import { METRO_SIZE_CLASSES } from '../../../src/geo/metro-size.js';
import { testHousehold } from './test-household.js';

const GASOLINE = CATEGORY_INDEX.gasoline;
const TRANSIT = CATEGORY_INDEX.public_and_other_transportation;

/** 400 CUs of one class, gasoline and transit around `level` × 1000 (each predicted at 1000). */
function households(popsize: number, level: number, urban: boolean, first: number): Household[] {
  return Array.from({ length: 400 }, (_, i) => {
    const spending = new Float64Array(CATEGORY_COUNT);
    spending[GASOLINE] = level * (i % 2 === 0 ? 900 : 1100);
    spending[TRANSIT] = level * (i % 2 === 0 ? 900 : 1100);
    return testHousehold(first + i, spending, { urban, popsize });
  });
}

describe('estimateMetroSizeEffects', () => {
  // Class 1 spends 0.8×, class 5 0.7× (against gasoline's expected rise in small metros), the rest 1×;
  // rural households of class 5 spend 3× and must not count.
  const sample = [
    ...households(1, 0.8, true, 0),
    ...households(2, 1, true, 1000),
    ...households(3, 1, true, 2000),
    ...households(4, 1, true, 3000),
    ...households(5, 0.7, true, 4000),
    ...households(5, 3, false, 5000),
  ];
  const predicted = SPENDING.map(() => new Float64Array(sample.length).fill(1000));
  const effects = estimateMetroSizeEffects(sample, predicted);
  const of = (category: string) => effects.find((e) => e.category === category)!;

  it('gasoline, class 1 below the fit, is shrunk toward 1 and shipped (the expected direction)', () => {
    const big = of('gasoline').classes[0]!;
    expect(big).toMatchObject({ metroSize: 1, households: 400, wrongSign: false });
    expect(big.raw).toBeCloseTo(0.8, 12);
    expect(big.factor).toBe(big.shrunk);
    expect(big.shrunk).toBeGreaterThan(0.8);
    expect(big.shrunk).toBeLessThan(1);
  });

  it('gasoline, class 5 below the fit (against the expected direction), is reported and held at 1', () => {
    const small = of('gasoline').classes[4]!;
    expect(small.raw).toBeCloseTo(0.7, 12);
    expect(small.shrunk).toBeLessThan(1);
    expect(small).toMatchObject({ wrongSign: true, factor: 1 });
  });

  it('public transport, class 5 below the fit (its expected direction), is shipped', () => {
    const small = of('public_and_other_transportation').classes[4]!;
    expect(small.wrongSign).toBe(false);
    expect(small.factor).toBeLessThan(1);
  });

  it('metroSizeFactorTable, categories without an effect, are 1 in every class', () => {
    const table = metroSizeFactorTable(effects);
    expect(table).toHaveLength(SPENDING.length * METRO_SIZE_CLASSES);
    const food = SPENDING.indexOf('food_home');
    expect(table.slice(food * METRO_SIZE_CLASSES, (food + 1) * METRO_SIZE_CLASSES)).toEqual([1, 1, 1, 1, 1]);
    expect(table[SPENDING.indexOf('gasoline') * METRO_SIZE_CLASSES]).toBe(
      Number(of('gasoline').classes[0]!.factor.toPrecision(12)),
    );
  });
});
