import { CATEGORY_COUNT, CATEGORY_INDEX, type Category } from '../contract/categories.js';
import type { GivenBudget } from '../contract/schemas.js';

/**
 * Copies a validated request's fixed expenses into `amounts`/`isGiven` (CATEGORIES order). Only the
 * given keys are visited, since most requests fix a handful of categories or none. A key present with
 * the value `undefined` (possible from library callers, never from JSON) counts as not given.
 */
export function readGivenBudget(
  budget: GivenBudget | undefined,
  amounts: Float64Array,
  isGiven: Uint8Array,
): void {
  // A loop, not fill(0): the builtin's call costs more than the stores.
  for (let i = 0; i < CATEGORY_COUNT; i++) isGiven[i] = 0;
  if (budget === undefined) return;
  for (const key in budget) {
    const value = budget[key as Category];
    if (value === undefined) continue;
    const index = CATEGORY_INDEX[key as Category];
    amounts[index] = value;
    isGiven[index] = 1;
  }
}
