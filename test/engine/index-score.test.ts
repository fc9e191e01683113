import { describe, expect, it } from 'vitest';
import { CATEGORY_COUNT } from '../../src/contract/categories.js';
import { indexPoints, indicesOf, statedSpending } from '../../src/engine/index-score.js';

/** Peers spending 1,000 a year on each of the 36 spending categories: 36,000 in all. */
const peers = new Float64Array(CATEGORY_COUNT).fill(1000, 0, 36);

describe('indexPoints', () => {
  it('docs/api.md example: PSA 391 on 42,000 gives 91.2, as the score', () => {
    // 80 + 100 × 4,692 / 42,000 = 91.171…
    expect(indexPoints(391, 0, 42_000)).toBe(91.2);
  });

  it('above 20 % saved: is not clamped at 100', () => {
    // 80 + 100 × 36,000 / 42,000 = 165.714…
    expect(indexPoints(3000, 0, 42_000)).toBe(165.7);
  });

  it('a shortfall above 80 % of take-home: goes below 0', () => {
    // 80 − 100 × 36,000 / 24,000 = −70
    expect(indexPoints(-3000, 0, 24_000)).toBe(-70);
  });

  it('halves: round away from zero in tenths, as the score does', () => {
    // 800 + 1000 × 12 × 1 / 480 = 825 tenths exactly → 82.5; 800 + 1000 × 12 × (−50.5) / 1200 = 295 exactly
    expect(indexPoints(1, 0, 480)).toBe(82.5);
    expect(indexPoints(-50.5, 0, 1200)).toBe(29.5);
  });

  it('savings index: subtracts the savings target', () => {
    // 80 + 100 × (4,692 − 3,000) / 42,000 = 84.028…
    expect(indexPoints(391, 3000, 42_000)).toBe(84);
  });
});

describe('statedSpending and indicesOf', () => {
  it('no stated amounts: spends the peers amounts, other debt payments 0', () => {
    const parts = { netIncome: 48_000, stated: {}, peers };
    expect(statedSpending(parts)).toBe(36_000);
    // PSA = (48,000 − 36,000) / 12 = 1,000; index 80 + 100 × 12,000 / 48,000 = 105
    expect(indicesOf(parts, statedSpending(parts))).toEqual({ psa: 1000, index: 105, savingsIndex: 105 });
  });

  it('stated amounts: replace the peers amounts; other debt counts, savings does not', () => {
    const parts = {
      netIncome: 48_000,
      stated: { food_home: 4000, other_debt_payments: 1200, savings: 6000 },
      peers,
    };
    // 36,000 − 1,000 + 4,000 + 1,200 = 40,200; PSA = 7,800 / 12 = 650
    expect(statedSpending(parts)).toBe(40_200);
    // index 80 + 100 × 7,800 / 48,000 = 96.25 → 96.3; savings 80 + 100 × 1,800 / 48,000 = 83.75 → 83.8
    expect(indicesOf(parts, statedSpending(parts))).toEqual({ psa: 650, index: 96.3, savingsIndex: 83.8 });
  });
});
