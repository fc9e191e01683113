/**
 * An exact multiset of integers (value → count). PSA is whole dollars and scores have one decimal
 * (stored ×10), so every statistic of a summary can be derived from these maps, and two maps merge by
 * adding counts: that is what makes shard summaries combine into exactly the single-run summary.
 * Memory is proportional to the number of distinct values (plus a fixed-size window), never to the number
 * of rows.
 */
export type CountEntries = readonly (readonly [value: number, count: number])[];

/**
 * Most values fall in a narrow band (scores are 0–1000, PSAs cluster around the median), so those are
 * counted in a dense window of a typed array indexed by value: a batch run adds 15 values per row, and with
 * hundreds of thousands of distinct PSAs spread over many cohorts a Map lookup per add was the batch job's
 * largest main-thread cost. Values the window cannot reach without passing DENSE_MAX_SPAN go to a Map.
 */
const DENSE_MAX_SPAN = 1 << 15;
const DENSE_INITIAL_SPAN = 1 << 10;

export class CountMap {
  /** Counts of the values `#low … #low + #dense.length - 1` (Float64Array: exact for any safe count). */
  #dense = new Float64Array(0);
  #low = 0;
  readonly #sparse = new Map<number, number>();

  add(value: number, count = 1): void {
    if (!Number.isSafeInteger(value)) throw new Error(`count map: value ${value} is not a safe integer`);
    if (!Number.isSafeInteger(count) || count < 1)
      throw new Error(`count map: count ${count} is not a positive integer`);
    const slot = value - this.#low;
    if (slot >= 0 && slot < this.#dense.length) this.#dense[slot]! += count;
    else if (this.#widenTo(value)) this.#dense[value - this.#low]! += count;
    else this.#sparse.set(value, (this.#sparse.get(value) ?? 0) + count);
  }

  /** Grows the window (doubling, so each value is copied a few times at most) to cover `value`, if it can. */
  #widenTo(value: number): boolean {
    const old = this.#dense;
    if (old.length === DENSE_MAX_SPAN) return false;
    if (old.length === 0) {
      this.#dense = new Float64Array(DENSE_INITIAL_SPAN);
      this.#low = value - DENSE_INITIAL_SPAN / 2;
      return true;
    }
    const low = Math.min(this.#low, value);
    const needed = Math.max(this.#low + old.length, value + 1) - low;
    if (needed > DENSE_MAX_SPAN) return false;
    const span = Math.min(DENSE_MAX_SPAN, Math.max(needed, old.length * 2));
    // Room is added on the side the new value lies, where further values are likelier.
    const newLow = value < this.#low ? this.#low + old.length - span : this.#low;
    const grown = new Float64Array(span);
    grown.set(old, this.#low - newLow);
    this.#dense = grown;
    this.#low = newLow;
    return true;
  }

  addAll(other: CountMap): void {
    this.addEntries(other.entries());
  }

  addEntries(entries: Iterable<readonly [value: number, count: number]>): void {
    for (const [value, count] of entries) this.add(value, count);
  }

  /** Entries sorted by value, so that serialised summaries are deterministic. */
  entries(): [value: number, count: number][] {
    const out: [number, number][] = [...this.#sparse];
    const dense = this.#dense;
    for (let slot = 0; slot < dense.length; slot++) {
      const count = dense[slot]!;
      if (count > 0) out.push([this.#low + slot, count]);
    }
    return out.sort((a, b) => a[0] - b[0]);
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

/** Count, exact sum, extremes and nearest-rank percentiles of sorted entries, in one pass; null when empty. */
export function describeEntries(sorted: CountEntries): DistributionFacts | null {
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (first === undefined || last === undefined) return null;
  let count = 0;
  let sum = 0n;
  for (const [value, n] of sorted) {
    count += n;
    sum += BigInt(value) * BigInt(n);
  }
  const percentiles = {} as Record<Percentile, number>;
  let index = 0;
  let cumulative = sorted[0]?.[1] ?? 0;
  for (const p of PERCENTILES) {
    const rank = nearestRank(count, p);
    while (cumulative < rank) {
      index += 1;
      cumulative += sorted[index]?.[1] ?? 0;
    }
    percentiles[p] = sorted[index]?.[0] ?? last[0];
  }
  return { count, sum, min: first[0], max: last[0], percentiles };
}

/** Number of values strictly below `bound` (values ≥ bound are not counted). */
export function countBelow(sorted: CountEntries, bound: number): number {
  let below = 0;
  for (const [value, n] of sorted) {
    if (value >= bound) break;
    below += n;
  }
  return below;
}
