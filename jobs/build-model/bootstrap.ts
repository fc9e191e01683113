/**
 * Paired cluster bootstrap of a difference in weighted AUC, for the model card's ranking table: how far
 * the AUC of one score over another could move with another draw of consumer units. A CU's quarters are
 * not independent draws, so whole CUs are resampled with replacement (a CU drawn k times counts k times its
 * survey weight); both scores are evaluated on the same resample (paired), and the interval is the
 * percentile interval of the replicates' differences. The same resampling gives the LendingClub table
 * (validate-lendingclub.ts) its intervals of several AUCs and KS statistics at once, each loan its own
 * cluster. Seeded (src/sample/random.ts), so the same inputs give the same interval on every run. Checked against an independent implementation in
 * test/jobs/build-model/bootstrap.test.ts.
 */
import { Random } from '../../src/sample/random.js';
import { ascending, separation } from './separation.js';

export interface BootstrapOptions {
  readonly replicates: number;
  readonly seed: number;
  /** Coverage of the percentile interval, e.g. 0.95. */
  readonly level: number;
}

/** AUC(a) − AUC(b) on the sample itself, with its interval. */
export type Difference = Interval;

/** The data both scores are evaluated on; `clusters[i]` is the consumer unit of row i. */
export interface PairedSample {
  readonly a: ArrayLike<number>;
  readonly b: ArrayLike<number>;
  readonly outcomes: ArrayLike<boolean>;
  readonly weights: ArrayLike<number>;
  readonly clusters: readonly string[];
}

/** A statistic with its percentile bootstrap interval. */
export interface Interval {
  /** The statistic on the sample itself. */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
}

/** AUC(a) − AUC(b) with its percentile bootstrap interval over resampled clusters. */
export function aucDifference(sample: PairedSample, options: BootstrapOptions): Difference {
  const { a, b, outcomes } = sample;
  const orderA = ascending(a);
  const orderB = ascending(b);
  const difference = (w: ArrayLike<number>) => [
    separation(a, outcomes, w, orderA).auc - separation(b, outcomes, w, orderB).auc,
  ];
  return bootstrapIntervals(sample, difference, options)[0]!;
}

/**
 * Percentile bootstrap intervals of the components of `statistics`, a function of the rows' weights, all
 * evaluated on the same resamples of whole clusters (a cluster drawn k times counts k times its weights),
 * so that intervals of several scores on one sample are paired.
 */
export function bootstrapIntervals(
  sample: { readonly weights: ArrayLike<number>; readonly clusters: readonly string[] },
  statistics: (weights: ArrayLike<number>) => readonly number[],
  options: BootstrapOptions,
): Interval[] {
  const { weights } = sample;
  const { rows, clusterCount } = rowsByCluster(sample.clusters);
  const random = new Random(options.seed, 0);
  const resampled = new Float64Array(weights.length);
  const replicates = Array.from({ length: options.replicates }, () => {
    resampled.fill(0);
    for (let k = 0; k < clusterCount; k++) {
      for (const i of rows[random.integer(0, clusterCount - 1)]!) resampled[i]! += weights[i]!;
    }
    return statistics(resampled);
  });
  const tail = (1 - options.level) / 2;
  return statistics(weights).map((estimate, j) => {
    const values = replicates.map((replicate) => replicate[j]!);
    return { estimate, low: quantile(values, tail), high: quantile(values, 1 - tail) };
  });
}

/** The rows of each cluster, clusters numbered in order of first appearance. */
function rowsByCluster(clusters: readonly string[]): { rows: number[][]; clusterCount: number } {
  const index = new Map<string, number>();
  const rows: number[][] = [];
  clusters.forEach((cluster, i) => {
    let k = index.get(cluster);
    if (k === undefined) {
      k = rows.length;
      index.set(cluster, k);
      rows.push([]);
    }
    rows[k]!.push(i);
  });
  return { rows, clusterCount: rows.length };
}

/**
 * The p-quantile by linear interpolation between order statistics at (n − 1) p (Hyndman–Fan type 7, the
 * default of numpy's `percentile` and R's `quantile`).
 */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('quantile of no values');
  const sorted = [...values].sort((x, y) => x - y);
  const at = (sorted.length - 1) * p;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (at - below) * (sorted[above]! - sorted[below]!);
}
