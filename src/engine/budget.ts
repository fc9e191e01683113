/**
 * Budget allocation. Given categories keep their amount (rounded to whole units); the others share what
 * is left of the rounded net income in proportion to the modeled amounts, by largest remainder, so the
 * budget adds up exactly to the rounded income. Savings and other debt payments are never filled: they
 * are 0 unless given. When the given amounts exceed the income the filled categories are 0 and the
 * budget adds up to more than the income — the shortfall stays visible instead of going negative.
 *
 * The model amounts, the floors of the apportionment and the spending the score subtracts read the same
 * given and modeled amounts, so they are computed in one pass over the categories rather than in one
 * pass each; the two sums that pass needs first come from the steps before it (`givenBudgetReader`, the
 * model's `predict`).
 */
import {
  CATEGORY_COUNT,
  OTHER_DEBT_INDEX,
  SAVINGS_INDEX,
  SPENDING_CATEGORY_COUNT,
} from '../contract/categories.js';
import { fileQuota, placeLeftover, skipQuota } from './apportion.js';
import { roundNonNegative } from './rounding.js';

/** The buffers an allocation reads and writes, fixed when the allocator is made (see `budgetAllocator`). */
export interface AllocationBuffers {
  /** The given amounts, read where `isGiven` is 1: never negative, as the contract validates them. */
  readonly given: Float64Array;
  readonly isGiven: Uint8Array;
  /**
   * The model's amounts, never negative (`SpendingModel`); other debt payments' is not read for the
   * budget or the spending.
   */
  readonly modeled: Float64Array;
  /** The budget, written. */
  readonly out: Float64Array;
  /** The modeled amounts in whole units, written. */
  readonly modelOut: Float64Array;
}

/**
 * Returns the allocation over `buffers`: it writes the budget into `out` and the modeled amounts in whole
 * units into `modelOut`, and returns the spending of the saving ability (`monthlySavingAbility`): every
 * category but savings, given amounts as sent and modeled ones otherwise. `givenWhole` is the sum of the
 * given amounts rounded to whole units, and `fillableWeight` the sum of the modeled amounts of the
 * categories to fill (neither given, nor savings, nor other debt payments), in index order.
 */
export function budgetAllocator({
  given,
  isGiven,
  modeled,
  out,
  modelOut,
}: AllocationBuffers): (netIncome: number, givenWhole: number, fillableWeight: number) => number {
  // The apportionment's keys, bound here to be folded into the loops (see `fileQuota`).
  const keys = new Float64Array(CATEGORY_COUNT);
  // Every amount rounded here is ≥ 0 (the income > 0), hence roundNonNegative.
  return function allocate(netIncome: number, givenWhole: number, fillableWeight: number): number {
    const total = Math.max(0, roundNonNegative(netIncome) - givenWhole);
    // One division, not one per category: divisions are the slowest step of the quotas.
    const perWeight = total / fillableWeight;
    let roundedSum = 0;
    let spending = 0;
    // The spending categories; savings and other debt payments, the last two, after the loop, so that it
    // tests no index (bench/analysis/engine.md, eleventh round, in git history).
    for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) {
      const weight = modeled[i]!;
      modelOut[i] = roundNonNegative(weight);
      if (isGiven[i] === 1) {
        const amount = given[i]!;
        out[i] = roundNonNegative(amount);
        skipQuota(i, keys);
        spending += amount;
      } else {
        spending += weight;
        roundedSum += fileQuota(i, weight * perWeight, out, keys);
      }
    }
    // Never filled: 0 unless given. Savings are not part of the spending; other debt payments, when given,
    // are, added last as in contract order.
    modelOut[SAVINGS_INDEX] = roundNonNegative(modeled[SAVINGS_INDEX]!);
    out[SAVINGS_INDEX] = isGiven[SAVINGS_INDEX] === 1 ? roundNonNegative(given[SAVINGS_INDEX]!) : 0;
    skipQuota(SAVINGS_INDEX, keys);
    // The contract fixes modeled other debt payments at 0, whatever a model writes.
    modelOut[OTHER_DEBT_INDEX] = 0;
    if (isGiven[OTHER_DEBT_INDEX] === 1) {
      const amount = given[OTHER_DEBT_INDEX]!;
      out[OTHER_DEBT_INDEX] = roundNonNegative(amount);
      spending += amount;
    } else {
      out[OTHER_DEBT_INDEX] = 0;
    }
    skipQuota(OTHER_DEBT_INDEX, keys);
    placeLeftover(total, fillableWeight, roundedSum, out, keys);
    return spending;
  };
}
