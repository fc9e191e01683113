/** State effects: ratio, DerSimonian–Laird shrinkage toward the region, and the region's total kept. */
import { describe, expect, it } from 'vitest';
import type { Household } from '../../../jobs/build-model/extract-households.js';
import { SPENDING } from '../../../jobs/build-model/fit.js';
import {
  betweenStateVariance,
  estimateStateEffects,
  stateFactorTable,
} from '../../../jobs/build-model/state-effects.js';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../../src/contract/categories.js';
import { testHousehold } from './test-household.js';

const ELECTRICITY = CATEGORY_INDEX.electricity;

/** `count` CUs of one state spending `spend` on electricity, each predicted at 1000. */
function households(
  stateFips: string,
  count: number,
  spend: (i: number) => number,
  first: number,
): Household[] {
  return Array.from({ length: count }, (_, i) => {
    const spending = new Float64Array(CATEGORY_COUNT);
    spending[ELECTRICITY] = spend(i);
    return testHousehold(first + i, spending, { stateFips, region: 4 });
  });
}

const CODES = new Map([
  ['02', 'AK'],
  ['15', 'HI'],
  ['06', 'CA'],
]);

describe('estimateStateEffects', () => {
  // HI spends 1.5× the prediction, AK 0.6×, CA (large) 1.0× with noise; all predicted at 1000.
  const sample = [
    ...households('15', 300, (i) => (i % 2 === 0 ? 1400 : 1600), 0),
    ...households('02', 300, (i) => (i % 2 === 0 ? 500 : 700), 1000),
    ...households('06', 3000, (i) => (i % 2 === 0 ? 900 : 1100), 2000),
    // Suppressed state: left out.
    ...households('', 100, () => 5000, 9000),
  ];
  const predicted = SPENDING.map(() => new Float64Array(sample.length).fill(1000));
  const effects = estimateStateEffects(sample, predicted, CODES);
  const electricity = effects.find((e) => e.category === 'electricity')!;
  const factor = (state: string) => electricity.states.find((s) => s.state === state)!.factor;

  it('states with clear differences, keep their order and stay apart (Hawaii above Anchorage)', () => {
    expect(electricity.states.map((s) => s.state)).toEqual(['AK', 'CA', 'HI']);
    expect(factor('HI')).toBeGreaterThan(1.3);
    expect(factor('AK')).toBeLessThan(0.8);
  });

  it('factors, weighted by predicted spending, keep the region total of the known states', () => {
    const total = electricity.states.reduce((a, s) => a + s.households * 1000 * s.factor, 0);
    expect(total / (3600 * 1000)).toBeCloseTo(1, 12);
  });

  it('stateFactorTable, categories without an effect, are 1', () => {
    const table = stateFactorTable(effects);
    expect(Object.keys(table)).toEqual(['AK', 'CA', 'HI']);
    expect(table.HI![CATEGORY_INDEX.food_home]).toBe(1);
    expect(table.HI![ELECTRICITY]).toBe(Number(factor('HI').toPrecision(12)));
  });
});

describe('betweenStateVariance', () => {
  it('estimates no larger than their sampling noise, gives 0 (full shrinkage to the region)', () => {
    expect(
      betweenStateVariance([
        [1.01, 0.01],
        [0.99, 0.01],
        [1.0, 0.01],
      ]),
    ).toBe(0);
  });

  it('estimates far apart with small noise, gives about their spread', () => {
    const tau2 = betweenStateVariance([
      [0.5, 1e-4],
      [1.5, 1e-4],
      [1.0, 1e-4],
    ]);
    expect(tau2).toBeCloseTo(0.25, 2);
  });
});
