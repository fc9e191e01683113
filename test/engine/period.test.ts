import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, type CategoryRecord } from '../../src/contract/categories.js';
import { amountsForPeriod, isPeriod, PERIOD_NAMES, PERIODS_PER_YEAR } from '../../src/engine/period.js';

const record = (amount: (i: number) => number) =>
  Object.fromEntries(CATEGORIES.map((c, i) => [c, amount(i)])) as CategoryRecord;
const sum = (r: CategoryRecord) => Object.values(r).reduce((a, b) => a + b, 0);

describe('amountsForPeriod', () => {
  it('has the documented periods per year', () => {
    expect(PERIODS_PER_YEAR).toEqual({
      annual: 1,
      monthly: 12,
      'semi-monthly': 24,
      biweekly: 26,
      weekly: 52,
      daily: 365,
    });
    expect(isPeriod('weekly') && !isPeriod('fortnightly') && !isPeriod('toString')).toBe(true);
  });

  it('returns annual amounts unchanged, as a copy', () => {
    const annual = record((i) => i * 100);
    const copy = amountsForPeriod(annual, 'annual');
    expect(copy).toEqual(annual);
    expect(copy).not.toBe(annual);
  });

  it('splits a 42,000 budget into months that add up to 3,500, in contract key order', () => {
    // 37 × 1,105 + 1,115 = 42,000; / 12 = 3,500 exactly.
    const annual = record((i) => (i === 0 ? 1_115 : 1_105));
    const monthly = amountsForPeriod(annual, 'monthly');
    expect(sum(monthly)).toBe(3_500);
    expect(Object.keys(monthly)).toEqual([...CATEGORIES]);
    // All floors are 92 (1,105 / 12 = 92.08, 1,115 / 12 = 92.92): 38 × 92 = 3,496, so 4 units are left; the
    // largest fraction (food at home) gets one, then the equal fractions in category order.
    expect(monthly.food_home).toBe(93);
    expect(CATEGORIES.slice(1, 5).map((c) => monthly[c])).toEqual([93, 93, 93, 92]);
  });

  it('property: every period sums to the annual total / periods rounded, each amount within one unit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100_000_000 }), { minLength: 38, maxLength: 38 }),
        fc.constantFrom(...PERIOD_NAMES),
        (amounts, period) => {
          const annual = record((i) => amounts[i]!);
          const converted = amountsForPeriod(annual, period);
          const perYear = PERIODS_PER_YEAR[period];
          expect(sum(converted)).toBe(Math.round(sum(annual) / perYear));
          for (const c of CATEGORIES) {
            expect(Number.isInteger(converted[c]) && converted[c] >= 0).toBe(true);
            expect(Math.abs(converted[c] - annual[c] / perYear)).toBeLessThan(1);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
