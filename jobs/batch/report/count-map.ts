/**
 * An exact multiset of integers (value → count). PSA is whole dollars and scores have one decimal
 * (stored ×10), so every statistic of a summary can be derived from these maps, and two maps merge by
 * adding counts: that is what makes shard summaries combine into exactly the single-run summary.
 * Memory is proportional to the number of distinct values (plus a fixed-size window), never to the number
 * of rows.
 */

/**
 * A count map's contents sorted by value, as two parallel typed arrays (16 bytes per distinct value). A
 * summary holds hundreds of thousands of distinct PSAs over its cohorts: as one `[value, count]` array
 * each, they were ~70 bytes apiece and the largest allocation at the end of a 10-million-row run.
 */
export class SortedCounts {
  /** Distinct values, ascending. */
  readonly values: Float64Array;
  /** `counts[i]` is the number of times `values[i]` was added (≥ 1). */
  readonly counts: Float64Array;

  constructor(values: Float64Array, counts: Float64Array) {
    if (values.length !== counts.length)
      throw new Error(`sorted counts: ${values.length} values but ${counts.length} counts`);
    this.values = values;
    this.counts = counts;
  }

  get length(): number {
    return this.values.length;
  }

  /** Sum of the counts: the number of values added. */
  total(): number {
    let total = 0;
    for (let i = 0; i < this.counts.length; i++) total += this.counts[i]!;
    return total;
  }

  /** From `[value, count]` pairs in any order (as read from a summary file); repeated values add up. */
  static fromPairs(pairs: Iterable<readonly [value: number, count: number]>): SortedCounts {
    const map = new CountMap();
    for (const [value, count] of pairs) map.add(value, count);
    return map.sorted();
  }
}

/**
 * Most values fall in a narrow band (scores are 0–1000, PSAs cluster around the median), so those are
 * counted in a dense window of a typed array indexed by value: a batch run adds 12 values per row (more with
 * --group-by), and with hundreds of thousands of distinct PSAs spread over many cohorts a Map lookup per add
 * was the batch job's largest main-thread cost. Values the window cannot reach without passing DENSE_MAX_SPAN go to a Map.
 * A map starts without a window, in the Map, until it holds WINDOW_AFTER distinct values: `--group-by`
 * cohorts (a ZIP code, say) often hold a handful of rows, and a window of up to DENSE_MAX_SPAN slots for
 * each of their three maps took gigabytes (200,000 rows grouped by ZIP: 2.4 GB peak RSS).
 */
const DENSE_MAX_SPAN = 1 << 15;
const DENSE_INITIAL_SPAN = 1 << 10;
const WINDOW_AFTER = 64;
/**
 * The window's slots are 32-bit: half the memory of 64-bit ones, and so fewer cache misses, which are most
 * of an add's cost (a PSA lands at a random slot of a window of up to 128 KB per cohort). A count that
 * would pass a slot's maximum goes to the Map instead, so the counts stay exact.
 */
const SLOT_MAX = 0xffff_ffff;

export class CountMap {
  /**
   * Counts of the values `#low … #low + #dense.length - 1`, at most SLOT_MAX each; the rest of a value's
   * count is in #sparse, and so is that of a value added before the window existed.
   */
  #dense = new Uint32Array(0);
  #low = 0;
  readonly #sparse = new Map<number, number>();

  add(value: number, count = 1): void {
    // The common case first, small enough for the compiler to inline into the summary's loop over rows
    // (three adds per row and dimension): a value inside the window.
    const slot = value - this.#low;
    const dense = this.#dense;
    if (slot >= 0 && slot < dense.length && Number.isSafeInteger(value) && Number.isSafeInteger(count)) {
      const total = dense[slot]! + count;
      if (count >= 1 && total <= SLOT_MAX) {
        dense[slot] = total;
        return;
      }
    }
    this.#addChecked(value, count);
  }

  #addChecked(value: number, count: number): void {
    if (!Number.isSafeInteger(value)) throw new Error(`count map: value ${value} is not a safe integer`);
    if (!Number.isSafeInteger(count) || count < 1)
      throw new Error(`count map: count ${count} is not a positive integer`);
    const covered = value - this.#low >= 0 && value - this.#low < this.#dense.length;
    if (covered || (this.#sparse.size >= WINDOW_AFTER && this.#widenTo(value))) {
      const slot = value - this.#low;
      const total = this.#dense[slot]! + count;
      if (total <= SLOT_MAX) {
        this.#dense[slot] = total;
        return;
      }
    }
    this.#sparse.set(value, (this.#sparse.get(value) ?? 0) + count);
  }

  /** Grows the window (doubling, so each value is copied a few times at most) to cover `value`, if it can. */
  #widenTo(value: number): boolean {
    const old = this.#dense;
    if (old.length === DENSE_MAX_SPAN) return false;
    if (old.length === 0) {
      this.#dense = new Uint32Array(DENSE_INITIAL_SPAN);
      this.#low = value - DENSE_INITIAL_SPAN / 2;
      return true;
    }
    const low = Math.min(this.#low, value);
    const needed = Math.max(this.#low + old.length, value + 1) - low;
    if (needed > DENSE_MAX_SPAN) return false;
    const span = Math.min(DENSE_MAX_SPAN, Math.max(needed, old.length * 2));
    // Room is added on the side the new value lies, where further values are likelier.
    const newLow = value < this.#low ? this.#low + old.length - span : this.#low;
    const grown = new Uint32Array(span);
    grown.set(old, this.#low - newLow);
    this.#dense = grown;
    this.#low = newLow;
    return true;
  }

  addAll(other: CountMap): void {
    const dense = other.#dense;
    for (let slot = 0; slot < dense.length; slot++) {
      if (dense[slot]! > 0) this.add(other.#low + slot, dense[slot]!);
    }
    for (const [value, count] of other.#sparse) this.add(value, count);
  }

  addSorted(sorted: SortedCounts): void {
    for (let i = 0; i < sorted.length; i++) this.add(sorted.values[i]!, sorted.counts[i]!);
  }

  /** The contents sorted by value, so that serialised summaries are deterministic. */
  sorted(): SortedCounts {
    const dense = this.#dense;
    const sparse = Float64Array.from(this.#sparse.keys()).sort();
    let bound = sparse.length;
    for (let slot = 0; slot < dense.length; slot++) if (dense[slot]! > 0) bound++;
    const values = new Float64Array(bound);
    const counts = new Float64Array(bound);
    // Merges the window's slots (in value order) with the sorted Map values; a value in both becomes one
    // entry.
    let length = 0;
    let s = 0;
    const take = (value: number, count: number) => {
      if (length > 0 && values[length - 1] === value) counts[length - 1]! += count;
      else {
        values[length] = value;
        counts[length] = count;
        length++;
      }
    };
    const takeSparseUpTo = (limit: number) => {
      for (; s < sparse.length && sparse[s]! <= limit; s++) take(sparse[s]!, this.#sparse.get(sparse[s]!)!);
    };
    for (let slot = 0; slot < dense.length; slot++) {
      if (dense[slot] === 0) continue;
      takeSparseUpTo(this.#low + slot - 1);
      take(this.#low + slot, dense[slot]!);
    }
    takeSparseUpTo(Number.POSITIVE_INFINITY);
    return length === bound
      ? new SortedCounts(values, counts)
      : new SortedCounts(values.slice(0, length), counts.slice(0, length));
  }
}

/** The percentiles every summary reports. */
export const PERCENTILES = [1, 5, 10, 25, 50, 75, 90, 95, 99] as const;
export type Percentile = (typeof PERCENTILES)[number];

export interface DistributionFacts {
  readonly count: number;
  /** Exact sum of value × count; BigInt because a 10-million-row file of large PSAs can pass 2^53. */
  readonly sum: bigint;
  readonly min: number;
  readonly max: number;
  readonly percentiles: Readonly<Record<Percentile, number>>;
}

/**
 * Nearest-rank percentile: the P-th percentile of n sorted values is the value at 1-based rank
 * ⌈P·n/100⌉, i.e. the smallest value with at least P % of the values at or below it. It is always an
 * observed value (no interpolation), so it is exact for integers and identical however the data was split.
 *
 * @example nearestRank(10, 25) // => 3 (the 3rd smallest of 10 values)
 */
export function nearestRank(count: number, percentile: number): number {
  return Math.max(1, Math.ceil((percentile * count) / 100));
}

/** Count, exact sum, extremes and nearest-rank percentiles, in one pass; null when empty. */
export function describeEntries(sorted: SortedCounts): DistributionFacts | null {
  const { values, counts, length } = sorted;
  if (length === 0) return null;
  let count = 0;
  // Summed as doubles while every product and partial sum is a safe integer, so exact; a BigInt per
  // entry cost more than the rest of the summary's finish. Past 2^53 the sum goes on in BigInt.
  let sum = 0;
  let bigSum: bigint | null = null;
  for (let i = 0; i < length; i++) {
    count += counts[i]!;
    const product = values[i]! * counts[i]!;
    if (bigSum === null && Math.abs(product) <= Number.MAX_SAFE_INTEGER) {
      const next = sum + product;
      if (Math.abs(next) <= Number.MAX_SAFE_INTEGER) {
        sum = next;
        continue;
      }
    }
    bigSum = (bigSum ?? BigInt(sum)) + BigInt(values[i]!) * BigInt(counts[i]!);
  }
  const percentiles = {} as Record<Percentile, number>;
  let index = 0;
  let cumulative = counts[0]!;
  for (const p of PERCENTILES) {
    const rank = nearestRank(count, p);
    while (cumulative < rank) {
      index += 1;
      cumulative += counts[index]!;
    }
    percentiles[p] = values[index]!;
  }
  return { count, sum: bigSum ?? BigInt(sum), min: values[0]!, max: values[length - 1]!, percentiles };
}

/** Number of values strictly below `bound` (values ≥ bound are not counted). */
export function countBelow(sorted: SortedCounts, bound: number): number {
  let below = 0;
  for (let i = 0; i < sorted.length && sorted.values[i]! < bound; i++) below += sorted.counts[i]!;
  return below;
}
