/**
 * SPENDiD's grouped inputs: a known total for a group of categories, shared among them in proportion to
 * the peer model's amounts and then treated as stated, as if the caller had sent the shares in `budget`.
 */
import {
  CATEGORY_COUNT,
  CATEGORY_INDEX_BY_KEY,
  type Category,
  OTHER_DEBT_INDEX,
} from '../contract/categories.js';
import type { GivenBudget, GroupedInput } from '../contract/schemas.js';
import { apportion } from './apportion.js';

/** Weights for a group the model gives nothing: its total is shared equally. */
const EQUAL_WEIGHTS = new Float64Array(CATEGORY_COUNT).fill(1);

/**
 * The request's stated amounts: `budget` and every group's shares (`groupShares`). The validation has
 * made sure that no category is in two groups or both in a group and in `budget`.
 */
export function statedWithGroups(
  budget: GivenBudget | undefined,
  groups: readonly GroupedInput[],
  modeled: Float64Array,
): GivenBudget {
  const stated: GivenBudget = { ...budget };
  for (const group of groups) Object.assign(stated, groupShares(group, modeled));
  return stated;
}

/**
 * A group's total shared among its categories in proportion to `modeled` (the model's unrounded amounts,
 * CATEGORIES order; other debt payments count 0, as the model answers them), by largest remainder
 * (src/engine/apportion.ts) in the total's own unit: whole dollars for a whole total, cents otherwise
 * (the validation refuses finer totals). The shares therefore add up to the total exactly. When the
 * model gives every category of the group 0, the total is shared equally, the earlier categories in
 * contract order taking the units left over.
 */
export function groupShares({ items, value }: GroupedInput, modeled: Float64Array): GivenBudget {
  const eligible = new Uint8Array(CATEGORY_COUNT);
  for (const item of items) eligible[CATEGORY_INDEX_BY_KEY.get(item)!] = 1;
  const weights = Float64Array.from(modeled);
  weights[OTHER_DEBT_INDEX] = 0;
  const inCents = !Number.isInteger(value);
  const total = inCents ? Math.round(value * 100) : value;
  const units = new Float64Array(CATEGORY_COUNT);
  if (!apportion(total, weights, eligible, units)) apportion(total, EQUAL_WEIGHTS, eligible, units);
  const shares: Partial<Record<Category, number>> = {};
  for (const item of items) {
    const share = units[CATEGORY_INDEX_BY_KEY.get(item)!]!;
    shares[item] = inCents ? share / 100 : share;
  }
  return shares;
}
