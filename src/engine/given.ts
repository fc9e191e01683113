import { CATEGORY_COUNT, CATEGORY_INDEX_BY_KEY, type Category } from '../contract/categories.js';
import type { GivenBudget } from '../contract/schemas.js';
import { roundHalfAwayFromZero } from './rounding.js';

/**
 * Copies a validated request's fixed expenses into `amounts`/`isGiven` (CATEGORIES order) and returns
 * their sum in whole units (each amount rounded), which the budget leaves out of the income it shares.
 * Only the given keys are visited, since most requests fix a handful of categories or none; their order
 * does not matter for the sum, which is exact: at most 38 whole amounts of at most `LIMITS.amountMax`
 * (10^8) each stay far below 2^53. A key present with the value `undefined` (possible from library
 * callers, never from JSON) counts as not given.
 */
export function readGivenBudget(
  budget: GivenBudget | undefined,
  amounts: Float64Array,
  isGiven: Uint8Array,
): number {
  // A loop, not fill(0): the builtin's call costs more than the stores.
  for (let i = 0; i < CATEGORY_COUNT; i++) isGiven[i] = 0;
  if (budget === undefined) return 0;
  let whole = 0;
  for (const key in budget) {
    const value = budget[key as Category];
    if (value === undefined) continue;
    const index = CATEGORY_INDEX_BY_KEY.get(key)!;
    amounts[index] = value;
    isGiven[index] = 1;
    whole += roundHalfAwayFromZero(value);
  }
  return whole;
}
