import { CATEGORY_COUNT } from '../contract/categories.js';

/**
 * Largest-remainder apportionment of a whole total over the 38 categories. Used for the budget's filled
 * categories, for period conversions and for grouped totals, so all share one tie rule: each category
 * gets the whole part of its quota, and the units left over go one each to the largest fractional parts,
 * equal fractions to the category that comes first in contract order. Fractions are compared at a
 * resolution of 2^-40 (about 1e-12 of a unit), so floating-point noise far below a cent cannot reorder
 * categories whose shares are meant to be equal.
 */

/**
 * Writes whole amounts summing to `total` (a whole number ≥ 0) into `out` at the indices where `eligible`
 * is 1, in proportion to `weights`, and leaves the other indices of `out` untouched. When the eligible
 * weights sum to 0 there is no proportion to follow: the eligible amounts are set to 0 and false is
 * returned.
 */
export function apportion(
  total: number,
  weights: Float64Array,
  eligible: Uint8Array,
  out: Float64Array,
): boolean {
  let weightSum = 0;
  for (let i = 0; i < CATEGORY_COUNT; i++) if (eligible[i] === 1) weightSum += weights[i]!;
  return apportionBySum(total, weights, weightSum, eligible, out);
}

/**
 * `apportion` with the eligible weights' sum (in index order) already known, as the budget knows it from
 * the model: each quota is weight × (total ÷ weightSum).
 */
export function apportionBySum(
  total: number,
  weights: Float64Array,
  weightSum: number,
  eligible: Uint8Array,
  out: Float64Array,
): boolean {
  if (!(weightSum > 0)) {
    for (let i = 0; i < CATEGORY_COUNT; i++) if (eligible[i] === 1) out[i] = 0;
    return false;
  }
  const perWeight = total / weightSum;
  let wholeSum = 0;
  for (let i = 0; i < CATEGORY_COUNT; i++) {
    if (eligible[i] !== 1) continue;
    const quota = weights[i]! * perWeight;
    const whole = Math.floor(quota);
    // +0, never −0: a quota of −0 gives an amount of 0.
    out[i] = whole + 0;
    fractions[i] = Math.floor((quota - whole) * FRACTION_STEPS);
    wholeSum += whole;
  }
  giveLeftoverUnits(total - wholeSum, eligible, out);
  return true;
}

/**
 * One unit to each of the `units` eligible categories with the largest fractions (equal ones in contract
 * order), or to all of them when they are fewer. A NaN fraction (from an infinite weight) never gets one,
 * and a NaN leftover gives none.
 */
function giveLeftoverUnits(units: number, eligible: Uint8Array, out: Float64Array): void {
  if (!(units > 0)) return;
  let count = 0;
  for (let i = 0; i < CATEGORY_COUNT; i++) {
    if (eligible[i] === 1 && !Number.isNaN(fractions[i])) order[count++] = i;
  }
  const ranked = order.subarray(0, count).sort(byLargerFraction);
  for (let k = 0; k < Math.min(units, count); k++) out[ranked[k]!]! += 1;
}

const byLargerFraction = (a: number, b: number): number => fractions[b]! - fractions[a]! || a - b;

/** Fractions are quantised to multiples of 2^-40 of a unit. */
const FRACTION_STEPS = 2 ** 40;

/**
 * Scratch shared by every apportionment: one apportionment never interleaves with another (nothing in
 * it yields), and each worker thread has its own module instance.
 */
const fractions = new Float64Array(CATEGORY_COUNT);
const order = new Uint8Array(CATEGORY_COUNT);
