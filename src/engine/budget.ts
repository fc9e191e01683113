/**
 * Budget allocation. Given categories keep their amount (rounded to whole units); the others share what
 * is left of the rounded net income in proportion to the modeled amounts, by largest remainder
 * (`apportion.ts`), so the budget adds up exactly to the rounded income. Savings and other debt payments
 * are never filled: they are 0 unless given. When the given amounts exceed the income the filled
 * categories are 0 and the budget adds up to more than the income — the shortfall stays visible instead
 * of going negative.
 */
import { CATEGORY_COUNT, OTHER_DEBT_INDEX, SPENDING_CATEGORY_COUNT } from '../contract/categories.js';
import { apportionBySum } from './apportion.js';
import { roundNonNegative } from './rounding.js';

/** The categories to fill; scratch, as one allocation never interleaves with another. */
const fillable = new Uint8Array(CATEGORY_COUNT);

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
 * spending of the saving ability (`monthlySavingAbility`). `givenWhole` is the sum of the given amounts
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
  for (let i = 0; i < CATEGORY_COUNT; i++) {
    modelOut[i] = roundNonNegative(modeled[i]!);
    out[i] = isGiven[i] === 1 ? roundNonNegative(given[i]!) : 0;
    // Savings and other debt payments, the last two categories, are never filled.
    fillable[i] = +(isGiven[i] === 0 && i < SPENDING_CATEGORY_COUNT);
  }
  // The contract fixes modeled other debt payments at 0, whatever a model writes.
  modelOut[OTHER_DEBT_INDEX] = 0;
  const total = Math.max(0, roundNonNegative(netIncome) - givenWhole);
  apportionBySum(total, modeled, fillableWeight, fillable, out);
  return spendingOf(buffers);
}

/**
 * What the saving ability subtracts: every category but savings, given amounts as sent and modeled ones
 * otherwise, in contract order; other debt payments only when given (the model never fills them).
 */
function spendingOf({ given, isGiven, modeled }: AllocationBuffers): number {
  let spending = 0;
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) spending += isGiven[i] === 1 ? given[i]! : modeled[i]!;
  if (isGiven[OTHER_DEBT_INDEX] === 1) spending += given[OTHER_DEBT_INDEX]!;
  return spending;
}
