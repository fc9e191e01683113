import { CATEGORY_COUNT, CATEGORY_INDEX_BY_KEY, type Category } from '../contract/categories.js';
import type { GivenBudget } from '../contract/schemas.js';
import { roundNonNegative } from './rounding.js';

/**
 * Returns the reader of a validated request's fixed expenses into `amounts`/`isGiven` (CATEGORIES order):
 * it sets the flags of the given categories, clears the others', and returns the given amounts' sum in
 * whole units (each amount rounded), which the budget leaves out of the income it shares.
 *
 * Only the given keys are visited, since most requests fix a handful of categories or none; their order
 * does not matter for the sum, which is exact: at most 38 whole amounts of at most `LIMITS.amountMax`
 * (10^8) each stay far below 2^53. A key present with the value `undefined` (possible from library
 * callers, never from JSON) counts as not given.
 *
 * The reader owns the flags: it clears only those it set on the previous call instead of all 38 (a
 * third of its cost on the bench's profiles, which fix 1.3 categories each), so nothing else may set
 * them. A closure over its buffers, like the budget's allocation (`budgetAllocator`).
 */
export function givenBudgetReader(
  amounts: Float64Array,
  isGiven: Uint8Array,
): (budget: GivenBudget | undefined) => number {
  isGiven.fill(0);
  const set = new Int32Array(CATEGORY_COUNT);
  let setCount = 0;
  const indexOf = CATEGORY_INDEX_BY_KEY;
  return function readGivenBudget(budget: GivenBudget | undefined): number {
    for (let j = 0; j < setCount; j++) isGiven[set[j]!] = 0;
    setCount = 0;
    if (budget === undefined) return 0;
    let whole = 0;
    for (const key in budget) {
      const value = budget[key as Category];
      if (value === undefined) continue;
      const index = indexOf.get(key)!;
      amounts[index] = value;
      // Keys are unique and every flag is clear here, so each index is listed once.
      isGiven[index] = 1;
      set[setCount++] = index;
      // Given amounts are never negative: the contract validates them.
      whole += roundNonNegative(value);
    }
    return whole;
  };
}
