/**
 * The artifact's household-size factors, sizes 1…SIZE_TABLE_MAX, and the guards that keep a household's
 * needs from falling as it grows (docs/model.md, "Household size").
 *
 * The fit pools sizes from FIT_SIZE_MAX up (CE 2014 has 90 CU-quarters of 9–15 members); beyond it each
 * category's ln factor continues with its ln-size slope between FIT_SIZE_MAX − 1 and FIT_SIZE_MAX, never
 * falling. The table covers every size the contract accepts, so no valid household_members is capped.
 */
import { LIMITS } from '../../src/contract/limits.js';
import { NEEDS as IRS_NEEDS } from '../../src/model/needs.js';
import type { SpendingCategory } from './ce-categories.js';
import { SIZE_MAX as FIT_SIZE_MAX } from './design.js';
import { SPENDING } from './fit.js';
import { runningMax } from './monotone.js';

/** Sizes the artifact's tables cover: every household_members the contract accepts. */
export const SIZE_TABLE_MAX = LIMITS.householdMax;

/** The IRS national-standard categories (src/model/needs.ts): each held non-decreasing in size on its own. */
export const NEEDS: readonly SpendingCategory[] = IRS_NEEDS;

/**
 * Share of the other categories' rise that the categories falling with one more member may take, at
 * every tenure, take-home grid point and age: the rest is left for the household-type mixture and the
 * region, urbanity and price factors the tables do not carry.
 */
const FALL_SHARE_OF_RISE = 0.5;

/**
 * The least share by which one more member raises total spending in the tables, at every tenure,
 * take-home grid point and age. Without it, where the size factors rise little (high take-home, where
 * food is a small share) the household-type mixture of a profile that does not state its type — P(type)
 * moves with size — made totals fall by up to 0.4 % per member.
 */
const MIN_TOTAL_RISE = 0.015;

/** The size table, [category][size − 1], from the fitted factor (which pools sizes from FIT_SIZE_MAX up). */
export function sizeTable(fitted: (category: number, size: number) => number): number[] {
  return SPENDING.flatMap((category, c) => {
    const ln = Array.from({ length: SIZE_TABLE_MAX }, (_, s) =>
      Math.log(fitted(c, Math.min(s + 1, FIT_SIZE_MAX))),
    );
    const top = FIT_SIZE_MAX - 1;
    const slope = Math.max(0, (ln[top]! - ln[top - 1]!) / Math.log(FIT_SIZE_MAX / (FIT_SIZE_MAX - 1)));
    for (let s = FIT_SIZE_MAX; s < SIZE_TABLE_MAX; s++)
      ln[s] = ln[top]! + slope * Math.log((s + 1) / FIT_SIZE_MAX);
    const factors = ln.map(Math.exp);
    return NEEDS.includes(category) ? runningMax(factors) : factors;
  });
}

/**
 * Holds total spending rising in size: at each step from one size to the next, the fall of the
 * categories that fall is scaled back until it takes at most FALL_SHARE_OF_RISE of what the others add,
 * then, where the total still rises less than MIN_TOTAL_RISE, every category's factor at the larger size
 * is lifted by one common factor until it does, for every tenure, take-home grid point and age. Left alone, the fitted quadratic in ln size made totals
 * fall beyond five members (health insurance, vehicles, toys and life insurance turn down at fixed income).
 * `size` is [category][size − 1] (changed in place), `income` [tenure][category][grid point] with
 * `gridPoints` per row, `age` [category][age].
 */
export function holdTotalsRisingInSize(
  size: number[],
  income: readonly number[],
  gridPoints: number,
  age: readonly number[],
  ages: number,
): void {
  const weights = sizeStepWeights(income, gridPoints, age, ages);
  for (let s = 1; s < SIZE_TABLE_MAX; s++) {
    const scale = allowedFallScale(size, weights, s);
    for (let c = 0; c < SPENDING.length; c++) {
      const before = size[c * SIZE_TABLE_MAX + s - 1]!;
      const after = size[c * SIZE_TABLE_MAX + s]!;
      if (after < before) size[c * SIZE_TABLE_MAX + s] = before - scale * (before - after);
    }
    const lift = (1 + MIN_TOTAL_RISE) / smallestTotalRatio(size, weights, s);
    if (lift > 1) for (let c = 0; c < SPENDING.length; c++) size[c * SIZE_TABLE_MAX + s]! *= lift;
  }
}

/** The smallest ratio of total spending at size s + 1 to size s over the weightings. */
function smallestTotalRatio(size: readonly number[], weights: readonly Float64Array[], s: number): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (const w of weights) {
    let before = 0;
    let after = 0;
    for (let c = 0; c < w.length; c++) {
      before += size[c * SIZE_TABLE_MAX + s - 1]! * w[c]!;
      after += size[c * SIZE_TABLE_MAX + s]! * w[c]!;
    }
    smallest = Math.min(smallest, after / before);
  }
  return smallest;
}

/** Per tenure, take-home grid point and age, each category's spending before its size factor. */
function sizeStepWeights(
  income: readonly number[],
  gridPoints: number,
  age: readonly number[],
  ages: number,
): Float64Array[] {
  const n = SPENDING.length;
  const weights: Float64Array[] = [];
  for (let tenure = 0; tenure < 3; tenure++)
    for (let g = 0; g < gridPoints; g++)
      for (let a = 0; a < ages; a++)
        weights.push(
          Float64Array.from(
            SPENDING,
            (_, c) => income[(tenure * n + c) * gridPoints + g]! * age[c * ages + a]!,
          ),
        );
  return weights;
}

/** The largest scale (≤ 1) of the falls from size s to s + 1 that keeps them within FALL_SHARE_OF_RISE of the rises. */
function allowedFallScale(size: readonly number[], weights: readonly Float64Array[], s: number): number {
  let scale = 1;
  for (const w of weights) {
    let rise = 0;
    let fall = 0;
    for (let c = 0; c < w.length; c++) {
      const step = (size[c * SIZE_TABLE_MAX + s]! - size[c * SIZE_TABLE_MAX + s - 1]!) * w[c]!;
      if (step < 0) fall -= step;
      else rise += step;
    }
    if (fall > 0) scale = Math.min(scale, Math.max(0, (FALL_SHARE_OF_RISE * rise) / fall));
  }
  return scale;
}
