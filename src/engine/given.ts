import { CATEGORY_INDEX_BY_KEY, type Category } from '../contract/categories.js';
import type { GivenBudget } from '../contract/schemas.js';
import { roundNonNegative } from './rounding.js';

/**
 * Reads a validated request's fixed expenses into `amounts`/`isGiven` (CATEGORIES order): sets the flags
 * of the given categories, clears the others', and returns the given amounts' sum in whole units (each
 * amount rounded), which the budget leaves out of the income it shares. The sum is exact: at most 38
 * whole amounts of at most `LIMITS.amountMax` (10^8) each stay far below 2^53. A key present with the
 * value `undefined` (possible from library callers, never from JSON) counts as not given.
 */
export function readGivenBudget(
  budget: GivenBudget | undefined,
  amounts: Float64Array,
  isGiven: Uint8Array,
): number {
  isGiven.fill(0);
  if (budget === undefined) return 0;
  let whole = 0;
  for (const key in budget) {
    const value = budget[key as Category];
    if (value === undefined) continue;
    const index = CATEGORY_INDEX_BY_KEY.get(key)!;
    amounts[index] = value;
    isGiven[index] = 1;
    // Given amounts are never negative: the contract validates them.
    whole += roundNonNegative(value);
  }
  return whole;
}
