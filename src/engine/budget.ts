/**
 * Budget allocation. Given categories keep their amount (rounded to whole units); the others share what
 * is left of the rounded net income in proportion to the modeled amounts, by largest remainder
 * (`apportion.ts`), so the budget adds up exactly to the rounded income. Savings and other debt payments
 * are never filled: they are 0 unless given. When the given amounts exceed the income the filled
 * categories are 0 and the budget adds up to more than the income — the shortfall stays visible instead
 * of going negative.
 *
 * The modeled amounts in whole units, the quotas and the spending the score subtracts read the same given
 * and modeled amounts, so they are computed in one pass over the categories.
 */
import { OTHER_DEBT_INDEX, SAVINGS_INDEX, SPENDING_CATEGORY_COUNT } from '../contract/categories.js';
import { fileQuota, placeLeftover, skipQuota } from './apportion.js';
import { roundNonNegative } from './rounding.js';

/** The buffers an allocation reads and writes. */
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
 * Writes the budget into `out` and the modeled amounts in whole units into `modelOut`, and returns the
 * spending of the saving ability (`monthlySavingAbility`): every category but savings, given amounts as
 * sent and modeled ones otherwise, in contract order. `givenWhole` is the sum of the given amounts
 * rounded to whole units, and `fillableWeight` the sum of the modeled amounts of the categories to fill
 * (neither given, nor savings, nor other debt payments), in index order, as the model returns it.
 */
export function allocateBudget(
  buffers: AllocationBuffers,
  netIncome: number,
  givenWhole: number,
  fillableWeight: number,
): number {
  const { given, isGiven, modeled, out, modelOut } = buffers;
  // Every amount rounded here is ≥ 0 (the income > 0), hence roundNonNegative.
  const total = Math.max(0, roundNonNegative(netIncome) - givenWhole);
  const perWeight = total / fillableWeight;
  let roundedSum = 0;
  let spending = 0;
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) {
    modelOut[i] = roundNonNegative(modeled[i]!);
    if (isGiven[i] === 1) {
      out[i] = roundNonNegative(given[i]!);
      skipQuota(i);
      spending += given[i]!;
    } else {
      roundedSum += fileQuota(i, modeled[i]! * perWeight, out);
      spending += modeled[i]!;
    }
  }
  modelOut[SAVINGS_INDEX] = roundNonNegative(modeled[SAVINGS_INDEX]!);
  // The contract fixes modeled other debt payments at 0, whatever a model writes.
  modelOut[OTHER_DEBT_INDEX] = 0;
  // Savings and other debt payments are never filled; other debt payments, when given, are spending.
  for (const i of NEVER_FILLED) {
    out[i] = isGiven[i] === 1 ? roundNonNegative(given[i]!) : 0;
    skipQuota(i);
  }
  if (isGiven[OTHER_DEBT_INDEX] === 1) spending += given[OTHER_DEBT_INDEX]!;
  placeLeftover(total, fillableWeight, roundedSum, out);
  return spending;
}

/** The categories after the spending ones (categories.ts checks the order). */
const NEVER_FILLED = [SAVINGS_INDEX, OTHER_DEBT_INDEX] as const;
