import { CATEGORY_COUNT } from '../contract/categories.js';

/**
 * Largest-remainder apportionment of a whole total over the 38 categories. Used for the budget's filled
 * categories, for period conversions and for grouped totals, so all share one tie rule: each category
 * gets the whole part of its quota, and the units left over go one each to the largest fractional parts,
 * equal fractions to the category that comes first in contract order. Fractions are compared at a
 * resolution of 2^-40 (about 1e-12 of a unit), so floating-point noise far below a cent cannot reorder
 * categories whose shares are meant to be equal.
 *
 * Each quota is first rounded to the nearest unit (a fraction of one half or more up): the categories
 * rounded up are those with the largest fractions, so they are the first that largest remainder gives a
 * unit to, only perhaps too many or too few (the 36 rounding errors add up to a unit or two). Those few
 * units are then taken back from the smallest fractions rounded up, or given to the largest rounded down,
 * one scan each.
 *
 * An apportionment is three steps, so that a caller that visits the categories anyway (the budget) files
 * each quota in its own pass instead of a pass of its own: `fileQuota` for every eligible category with
 * its quota, weight × (total ÷ the eligible weights' sum in index order), adding up the amounts it
 * returns; `skipQuota` for every other category; then `placeLeftover`.
 */

/** Fractions are quantised to multiples of 2^-40 of a unit. */
const FRACTION_STEPS = 2 ** 40;
const HALF = FRACTION_STEPS / 2;

/** The fraction noted for a category not apportioned, or whose unit is placed: no scan chooses it. */
const SKIPPED = -1;

/**
 * Each category's quantised fraction (NaN from a NaN quota, which no comparison chooses), or SKIPPED.
 * Scratch shared by every apportionment: one apportionment's steps never interleave with another's
 * (nothing between them yields), and each worker thread has its own module instance.
 */
const fractions = new Float64Array(CATEGORY_COUNT);

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
  const perWeight = total / weightSum;
  let roundedSum = 0;
  for (let i = 0; i < CATEGORY_COUNT; i++) {
    if (eligible[i] === 1) roundedSum += fileQuota(i, weights[i]! * perWeight, out);
    else skipQuota(i);
  }
  return placeLeftover(total, weightSum, roundedSum, out);
}

/**
 * Writes category `i`'s quota rounded to the nearest unit into `out[i]`, notes its fraction, and returns
 * the rounded amount. A quota of −0 gives 0; a NaN quota (from an infinite weight) gives NaN.
 */
export function fileQuota(i: number, quota: number, out: Float64Array): number {
  const whole = Math.floor(quota);
  const fraction = Math.floor((quota - whole) * FRACTION_STEPS);
  fractions[i] = fraction;
  // Whether a quota rounds up is random, so the comparison is added as a number rather than branched on
  // (Arrow → Arrow on 200,000 rows: the budget took a third more time with the branch); −0 + 0 is +0.
  const rounded = whole + Number(fraction >= HALF);
  out[i] = rounded;
  return rounded;
}

/** Marks category `i` as not apportioned: `placeLeftover` leaves its amount as it is. */
export function skipQuota(i: number): void {
  fractions[i] = SKIPPED;
}

/**
 * Brings the amounts `fileQuota` wrote to the total: `roundedSum` is the sum of the amounts it returned,
 * `weightSum` the eligible weights' sum; the return value is as for `apportion`.
 */
export function placeLeftover(
  total: number,
  weightSum: number,
  roundedSum: number,
  out: Float64Array,
): boolean {
  if (!(weightSum > 0)) {
    for (let i = 0; i < CATEGORY_COUNT; i++) if (fractions[i] !== SKIPPED) out[i] = 0;
    return false;
  }
  const excess = roundedSum - total;
  if (excess > 0) takeUnits(excess, out);
  else if (excess < 0) giveUnits(-excess, out);
  // A NaN quota (from an infinite weight) makes the sum NaN: every category keeps its whole part.
  else if (excess !== 0) takeUnits(CATEGORY_COUNT, out);
  return true;
}

/**
 * Takes a unit back from each of the `units` categories rounded up (fraction ≥ HALF) whose fractions are
 * the smallest (of equal ones, the latest in contract order), or from all of them when they are fewer.
 */
function takeUnits(units: number, out: Float64Array): void {
  for (let taken = 0; taken < units; taken++) {
    let chosen = -1;
    let smallest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      const fraction = fractions[i]!;
      if (fraction >= HALF && fraction <= smallest) {
        smallest = fraction;
        chosen = i;
      }
    }
    if (chosen < 0) return;
    out[chosen]! -= 1;
    fractions[chosen] = SKIPPED;
  }
}

/**
 * Gives a unit to each of the `units` categories rounded down whose fractions are the largest (of equal
 * ones, the earliest in contract order), or to all of them when they are fewer.
 */
function giveUnits(units: number, out: Float64Array): void {
  for (let given = 0; given < units; given++) {
    let chosen = -1;
    // Fractions rounded down are at least 0, above SKIPPED.
    let largest = SKIPPED;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      const fraction = fractions[i]!;
      if (fraction < HALF && fraction > largest) {
        largest = fraction;
        chosen = i;
      }
    }
    if (chosen < 0) return;
    out[chosen]! += 1;
    fractions[chosen] = SKIPPED;
  }
}
