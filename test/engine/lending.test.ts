import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STRESS_MULTIPLIER } from '../../src/contract/limits.js';
import { lendingOf } from '../../src/engine/lending.js';

describe('lendingOf', () => {
  it('default stress: the payment × 1.25, surplus in dollars and on the score scale', () => {
    // 400 × 1.25 = 500; surplus 391 − 500 = −109; index 80 − 100 × 1,308 / 42,000 = 76.886 → 76.9
    expect(lendingOf(391, 42_000, { monthlyPayment: 400 })).toEqual({
      stressedPayment: 500,
      surplus: -109,
      index: 76.9,
      score: 76.9,
    });
    expect(DEFAULT_STRESS_MULTIPLIER).toBe(1.25);
  });

  it('a caller multiplier, and a surplus beyond 20 % of take-home: index unclamped, score clamped', () => {
    // 100 × 1 = 100; surplus 2,000; index 80 + 100 × 24,000 / 42,000 = 137.14 → 137.1
    expect(lendingOf(2100, 42_000, { monthlyPayment: 100, stressMultiplier: 1 })).toEqual({
      stressedPayment: 100,
      surplus: 2000,
      index: 137.1,
      score: 100,
    });
  });

  it('a multiplier below 1 or a negative payment: refused, naming the field', () => {
    expect(() => lendingOf(0, 1, { monthlyPayment: 1, stressMultiplier: 0.9 })).toThrow(
      /loan.stress_multiplier/,
    );
    expect(() => lendingOf(0, 1, { monthlyPayment: -1 })).toThrow(/loan.monthly_payment/);
  });

  it('more payment: a lower surplus, and never a higher index or score', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50_000, max: 50_000 }),
        fc.double({ min: 1000, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 20_000, noNaN: true }),
        fc.double({ min: 1, max: 10_000, noNaN: true }),
        fc.double({ min: 1, max: 3, noNaN: true }),
        (psa, net, payment, extra, stressMultiplier) => {
          const less = lendingOf(psa, net, { monthlyPayment: payment, stressMultiplier });
          const more = lendingOf(psa, net, { monthlyPayment: payment + extra, stressMultiplier });
          expect(more.surplus).toBeLessThan(less.surplus);
          expect(more.index).toBeLessThanOrEqual(less.index);
          expect(more.score).toBeLessThanOrEqual(less.score);
        },
      ),
    );
  });
});
