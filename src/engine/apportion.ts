import { CATEGORY_COUNT } from '../contract/categories.js';
import { floorBelowWhole, floorOfNonNegative } from './rounding.js';

/**
 * Largest-remainder apportionment of a whole total over the 38 categories, in proportion to weights.
 * Used for the budget's filled categories and for period conversions, so both share one tie rule: the
 * leftover units go to the largest fractional parts, and equal fractions go to the category that comes
 * first in contract order. Fractions are compared at a resolution of 2^-40 (about 1e-12 of a unit), so
 * floating-point noise far below a cent cannot reorder categories whose shares are meant to be equal.
 *
 * Every quota is first rounded to the nearest unit (a fraction of one half or more up). The categories
 * rounded up are those with the largest fractions, so they are the first of the units largest remainder
 * gives out, only perhaps too many or too few: the rounded amounts miss the total by the sum of 36
 * rounding errors, each within ±½, which on the engine's profiles is 0 in a quarter of the cases and
 * 1.3 units on average. Each of those units is then taken from the smallest fraction rounded up, or
 * given to the largest one rounded down, by one scan of the 38 categories' keys. The batch job
 * apportions millions of budgets a second, and this needs no sorting, no buckets and no state to clear.
 */

/**
 * Writes whole amounts summing to `total` (a whole number ≥ 0) into `out` at the indices where `eligible`
 * is 1, and leaves the other indices of `out` untouched. When the eligible weights sum to 0 there is no
 * proportion to follow: the eligible amounts are set to 0 and false is returned.
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
    if (eligible[i] === 1) roundedSum += fileQuota(i, weights[i]! * perWeight, out, keys);
    else skipQuota(i, keys);
  }
  return placeLeftover(total, weightSum, roundedSum, out, keys);
}

/*
 * `apportion` in two steps, for a caller that visits the categories anyway (the budget): `fileQuota` for
 * every eligible category with its quota, weight × (total ÷ the eligible weights' sum in index order),
 * adding up the amounts it returns, and `skipQuota` for every other category; then `placeLeftover`. The
 * sum is the caller's local rather than state here, so it stays in a register instead of being stored
 * and reloaded in every iteration of the caller's loop.
 *
 * `keys` (one double per category) is scratch that the caller owns. The budget's allocator binds
 * its own, which V8 folds into the allocator's compiled loops; this module's array, a module constant,
 * was folded where the quotas are filed but not where the leftover scans read it, whose every read then
 * checked the array's map and bounds again: 380 instructions more per evaluation
 * (bench/analysis/engine.md, ninth round, in git history).
 */

/**
 * Writes category `i`'s quota rounded to the nearest unit (a fraction of one half or more up) into
 * `out[i]`, keeps its key in `keys[i]` (see KEY_SLOTS), and returns the rounded amount. A quota of −0
 * gives 0. With non-negative weights and a positive sum no quota is infinite; a NaN quota (from an
 * infinite weight) gives NaN, and a NaN key, which no scan chooses.
 */
export function fileQuota(i: number, quota: number, out: Float64Array, keys: Float64Array): number {
  const rest = quota - floorOfNonNegative(quota);
  // rest × 2^40 is below 2^40 (or NaN).
  const fraction = floorBelowWhole(rest * FRACTION_STEPS);
  keys[i] = fraction * KEY_SLOTS + (LAST_SLOT - i);
  // quota − rest is floor(quota) exactly; the comparison is added as a number, not branched on (it is
  // random).
  const rounded = quota - rest + +(fraction >= HALF);
  out[i] = rounded;
  return rounded;
}

/** Marks category `i` as not eligible: `placeLeftover` leaves its amount as it is. */
export function skipQuota(i: number, keys: Float64Array): void {
  keys[i] = SKIPPED;
}

/**
 * Brings the amounts `fileQuota` wrote to the total: `roundedSum` is the sum of the amounts it returned;
 * the return value is as for `apportion`.
 */
export function placeLeftover(
  total: number,
  weightSum: number,
  roundedSum: number,
  out: Float64Array,
  keys: Float64Array,
): boolean {
  if (!(weightSum > 0)) {
    for (let i = 0; i < CATEGORY_COUNT; i++) if (keys[i] !== SKIPPED) out[i] = 0;
    return false;
  }
  const excess = roundedSum - total;
  if (excess > 0) takeUnits(excess, out, keys);
  else if (excess < 0) giveUnits(-excess, out, keys);
  // A NaN fraction makes the sum NaN; largest remainder has no leftover to place then (the total less
  // the floors is NaN), and every category keeps its floor.
  else if (excess !== 0) takeUnits(CATEGORY_COUNT, out, keys);
  return true;
}

/*
 * The scans choose by one comparison per category that is rarely true after the first few, so the
 * processor predicts it. Whether a category was rounded up, true for half of them at random, is not
 * branched on: it moves the key out of the scan's range arithmetically (by APART), since a branch on it
 * would be mispredicted about every other category.
 */

/**
 * Takes a unit back from each of the `units` categories rounded up whose fractions are the smallest
 * (of equal ones, the latest in contract order), or from all of them when they are fewer: the floors
 * lose less than a unit each, so fewer means that the leftover was 0.
 */
function takeUnits(units: number, out: Float64Array, keys: Float64Array): void {
  for (let taken = 0; taken < units; taken++) {
    let smallest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      const key = keys[i]!;
      // Rounded down or skipped: above every key.
      const candidate = key + +(key < ROUNDED_UP) * APART;
      if (candidate < smallest) smallest = candidate;
    }
    if (!(smallest < KEY_LIMIT)) return;
    const chosen = categoryOfKey(smallest);
    out[chosen]! -= 1;
    keys[chosen] = SKIPPED;
  }
}

/**
 * Gives a unit to each of the `units` categories rounded down whose fractions are the largest (of equal
 * ones, the earliest in contract order), or to all of them when they are fewer (as when the leftover
 * is the number of categories; a NaN fraction never gets one).
 */
function giveUnits(units: number, out: Float64Array, keys: Float64Array): void {
  for (let given = 0; given < units; given++) {
    let largest = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      const key = keys[i]!;
      // Rounded up: below every key (and skipped ones are below too).
      const candidate = key - +(key >= ROUNDED_UP) * APART;
      if (candidate > largest) largest = candidate;
    }
    if (!(largest >= 0)) return;
    const chosen = categoryOfKey(largest);
    out[chosen]! += 1;
    keys[chosen] = SKIPPED;
  }
}

/** The category of a key (see KEY_SLOTS). */
const categoryOfKey = (key: number): number => LAST_SLOT - (key - KEY_SLOTS * Math.floor(key / KEY_SLOTS));

/** Fractions are quantised to multiples of 2^-40 of a unit. */
const FRACTION_STEPS = 2 ** 40;
const HALF = FRACTION_STEPS / 2;
/**
 * A category's key is its quantised fraction × KEY_SLOTS + (LAST_SLOT − its index): ordered by fraction,
 * and equal fractions by contract order, the earlier category's key the larger; keys are whole numbers
 * below KEY_LIMIT = 2^46, all exact.
 */
const KEY_SLOTS = 64;
const LAST_SLOT = KEY_SLOTS - 1;
if (CATEGORY_COUNT > KEY_SLOTS) throw new Error('the apportionment keys hold at most 64 categories');
const KEY_LIMIT = FRACTION_STEPS * KEY_SLOTS;
/** The keys of the categories rounded up are those from ROUNDED_UP (fraction ≥ HALF). */
const ROUNDED_UP = HALF * KEY_SLOTS;
/** Moves a key out of a scan's range: every key + APART is above KEY_LIMIT, every key − APART below 0. */
const APART = 2 * KEY_LIMIT;
/** The key of a category not apportioned (or whose unit is placed): no scan chooses it. */
const SKIPPED = -1;

/**
 * `apportion`'s scratch: one apportionment's steps never interleave with another's (nothing between
 * them yields or apportions), and each worker thread has its own module instance.
 */
const keys = new Float64Array(CATEGORY_COUNT);
