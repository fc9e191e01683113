import { CATEGORY_COUNT } from '../contract/categories.js';

/**
 * Largest-remainder apportionment of a whole total over the 38 categories, in proportion to weights.
 * Used for the budget's filled categories and for period conversions, so both share one tie rule: the
 * leftover units go to the largest fractional parts, and equal fractions go to the category that comes
 * first in contract order. Fractions are compared at a resolution of 2^-40 (about 1e-12 of a unit), so
 * floating-point noise far below a cent cannot reorder categories whose shares are meant to be equal.
 *
 * Buffers are preallocated and the leftover units are placed by selecting a threshold rank (Wirth's
 * selection, linear on average) instead of sorting: the batch job calls this millions of times a second.
 */
export class Apportioner {
  private readonly rankOf = new Float64Array(CATEGORY_COUNT);
  private readonly ranks = new Float64Array(CATEGORY_COUNT);
  private readonly bucketOf = new Uint8Array(CATEGORY_COUNT);
  private readonly bucketCounts = new Int32Array(BUCKETS);
  private readonly inBucket = new Float64Array(CATEGORY_COUNT);

  /**
   * Writes whole amounts summing to `total` (a whole number ≥ 0) into `out` at the indices where
   * `eligible` is 1, and leaves the other indices of `out` untouched. When the eligible weights sum to
   * 0 there is no proportion to follow: the eligible amounts are set to 0 and false is returned.
   */
  apportion(total: number, weights: Float64Array, eligible: Uint8Array, out: Float64Array): boolean {
    let weightSum = 0;
    for (let i = 0; i < CATEGORY_COUNT; i++) if (eligible[i] === 1) weightSum += weights[i]!;
    return this.apportionSummed(total, weightSum, weights, eligible, out);
  }

  /**
   * `apportion` for a caller that has already summed the eligible weights, in index order (the sum must
   * be the same double `apportion` would compute, so that the result is the same).
   */
  apportionSummed(
    total: number,
    weightSum: number,
    weights: Float64Array,
    eligible: Uint8Array,
    out: Float64Array,
  ): boolean {
    if (!(weightSum > 0)) {
      for (let i = 0; i < CATEGORY_COUNT; i++) if (eligible[i] === 1) out[i] = 0;
      return false;
    }
    const { rankOf, ranks, bucketOf, bucketCounts } = this;
    bucketCounts.fill(0);
    // One division, not one per category: divisions are the slowest step of this loop.
    const perWeight = total / weightSum;
    let count = 0;
    let floorSum = 0;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      if (eligible[i] !== 1) {
        // Below every rank key (they are ≥ 0), so the last loop needs no eligibility test.
        rankOf[i] = -1;
        continue;
      }
      const quota = weights[i]! * perWeight;
      const whole = Math.floor(quota);
      out[i] = whole;
      floorSum += whole;
      const rank = rankKey(quota - whole, i);
      rankOf[i] = rank;
      const bucket = Math.floor(rank * BUCKET_SCALE);
      bucketOf[count] = bucket;
      bucketCounts[bucket]! += 1;
      ranks[count++] = rank;
    }
    // Floors lose less than one unit per category, so the leftover is a whole number below `count`.
    const leftover = Math.min(total - floorSum, count);
    if (leftover === 0) return true;
    // The threshold is the leftover-th largest rank. Buckets are monotone in the rank, so it lies in the
    // bucket where the counts from the top reach `leftover`; only that bucket's few ranks are selected.
    let bucket = BUCKETS - 1;
    let above = 0;
    while (above + bucketCounts[bucket]! < leftover) above += bucketCounts[bucket--]!;
    const { inBucket } = this;
    let m = 0;
    for (let j = 0; j < count; j++) if (bucketOf[j] === bucket) inBucket[m++] = ranks[j]!;
    const threshold = nthLargest(inBucket, m, leftover - 1 - above);
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      if (rankOf[i]! >= threshold) out[i]! += 1;
    }
    return true;
  }
}

const FRACTION_STEPS = 2 ** 40;
const INDEX_SLOTS = 64;
/** Rank keys are below FRACTION_STEPS × INDEX_SLOTS = 2^46; bucket = floor(key / 2^40), by fraction sixty-fourths. */
const BUCKETS = 64;
const BUCKET_SCALE = BUCKETS / (FRACTION_STEPS * INDEX_SLOTS);

/** Orders by fractional part (quantised), then by earlier category; unique per index, exact in a double. */
const rankKey = (fraction: number, index: number) =>
  Math.floor(fraction * FRACTION_STEPS) * INDEX_SLOTS + (INDEX_SLOTS - 1 - index);

/** The value at zero-based position `n` of `values[0..count)` sorted in descending order (reorders values). */
function nthLargest(values: Float64Array, count: number, n: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    do {
      while (values[i]! > pivot) i++;
      while (pivot > values[j]!) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < n) lo = i;
    if (n < i) hi = j;
  }
  return values[n]!;
}
