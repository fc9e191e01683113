/**
 * Statistics of one cohort (or of all rows), derived only from its exact count maps. Both a single run and
 * `outlay merge` go through `cohortStats`, so equal count maps give equal statistics, number for number.
 */
import {
  CountMap,
  countBelow,
  type DistributionFacts,
  describeEntries,
  PERCENTILES,
  type SortedCounts,
} from './count-map.js';
import { roundTo } from './format.js';
import type {
  CohortStats,
  HistogramBin,
  IndexStatistics,
  PercentileStatistics,
  Percentiles,
  PsaStatistics,
  ScoreBand,
  ScoreStatistics,
} from './summary-schema.js';

/** Scores are kept as integers: score × 10 (they have exactly one decimal). */
export const SCORE_SCALE = 10;

/** The exact state of a cohort: everything its statistics are derived from. */
export class CohortAccumulator {
  readonly psa = new CountMap();
  readonly scoreX10 = new CountMap();
  readonly savingsScoreX10 = new CountMap();
  /** The index and its percentile, ×10 like the scores (both have one decimal). */
  readonly indexX10 = new CountMap();
  readonly percentileX10 = new CountMap();

  addDistribution(distribution: CohortStats['distribution']): void {
    this.psa.addSorted(distribution.psa);
    this.scoreX10.addSorted(distribution.score_x10);
    this.savingsScoreX10.addSorted(distribution.savings_score_x10);
    this.indexX10.addSorted(distribution.index_x10);
    this.percentileX10.addSorted(distribution.percentile_x10);
  }

  addAll(other: CohortAccumulator): void {
    this.psa.addAll(other.psa);
    this.scoreX10.addAll(other.scoreX10);
    this.savingsScoreX10.addAll(other.savingsScoreX10);
    this.indexX10.addAll(other.indexX10);
    this.percentileX10.addAll(other.percentileX10);
  }
}

/** Score bands of the report, on the ×10 scale: <60, 60–70, 70–80, 80–90, ≥90 (each [from, to)). */
const SCORE_BAND_EDGES_X10 = [600, 700, 800, 900] as const;

/** About this many bins between the 1st and 99th percentiles; the tails go to two open-ended bins. */
const HISTOGRAM_TARGET_BINS = 20;

const meanOf = (sum: bigint, count: number, scale: number): number => roundTo(Number(sum) / count / scale, 2);

function statistics(facts: DistributionFacts | null, scale: number) {
  if (facts === null) return { mean: null, min: null, max: null, percentiles: null };
  const percentiles = Object.fromEntries(
    PERCENTILES.map((p) => [`p${p}`, facts.percentiles[p] / scale]),
  ) as unknown as Percentiles;
  return {
    mean: meanOf(facts.sum, facts.count, scale),
    min: facts.min / scale,
    max: facts.max / scale,
    percentiles,
  };
}

/** 1, 2, 5, 10, 20, 50, … : the smallest such width that spans `range` in the target number of bins. */
function niceBinWidth(range: number): number {
  for (let magnitude = 1; ; magnitude *= 10) {
    for (const step of [1, 2, 5]) {
      if (step * magnitude * HISTOGRAM_TARGET_BINS >= range) return step * magnitude;
    }
  }
}

/**
 * PSA histogram: equal bins of a round width covering the 1st to 99th percentile, plus an open-ended bin
 * below and above when values fall there, so one extreme household does not flatten the chart.
 */
function psaHistogram(sorted: SortedCounts, facts: DistributionFacts | null): HistogramBin[] {
  if (facts === null) return [];
  const width = niceBinWidth(facts.percentiles[99] - facts.percentiles[1]);
  const start = Math.floor(facts.percentiles[1] / width) * width;
  const end = (Math.floor(facts.percentiles[99] / width) + 1) * width;
  const inner = (end - start) / width;
  const counts = binCounts(sorted, start, end, width);
  const bins: HistogramBin[] = [];
  if ((counts[0] ?? 0) > 0) bins.push({ from: null, to: start, count: counts[0] ?? 0 });
  for (let i = 0; i < inner; i += 1) {
    bins.push({ from: start + i * width, to: start + (i + 1) * width, count: counts[i + 1] ?? 0 });
  }
  if ((counts[inner + 1] ?? 0) > 0) bins.push({ from: end, to: null, count: counts[inner + 1] ?? 0 });
  return bins;
}

/** Counts per bin of `width` from start to end, with the counts below start first and above end last. */
function binCounts(sorted: SortedCounts, start: number, end: number, width: number): number[] {
  const inner = (end - start) / width;
  const counts = new Array<number>(inner + 2).fill(0);
  for (let i = 0; i < sorted.length; i++) {
    const value = sorted.values[i]!;
    const slot = value < start ? 0 : value >= end ? inner + 1 : 1 + Math.floor((value - start) / width);
    counts[slot] = (counts[slot] ?? 0) + sorted.counts[i]!;
  }
  return counts;
}

function scoreBands(sortedX10: SortedCounts): ScoreBand[] {
  const edges: (number | null)[] = [null, ...SCORE_BAND_EDGES_X10, null];
  const total = sortedX10.total();
  const bands: ScoreBand[] = [];
  for (let i = 0; i + 1 < edges.length; i += 1) {
    const from = edges[i] ?? null;
    const to = edges[i + 1] ?? null;
    const count =
      (to === null ? total : countBelow(sortedX10, to)) - (from === null ? 0 : countBelow(sortedX10, from));
    bands.push({ label: scoreBandLabel(from, to), from: toScore(from), to: toScore(to), count });
  }
  return bands;
}

const toScore = (x10: number | null): number | null => (x10 === null ? null : x10 / SCORE_SCALE);

function scoreBandLabel(fromX10: number | null, toX10: number | null): string {
  if (fromX10 === null) return `<${toScore(toX10)}`;
  if (toX10 === null) return `≥${toScore(fromX10)}`;
  return `${toScore(fromX10)}–${toScore(toX10)}`;
}

/** 80 on the ×10 scale: break-even, the index of a household whose saving ability is 0. */
const BREAK_EVEN_X10 = 800;

/** The histogram of ×10 values, its bin edges in points. */
const histogramInPoints = (sortedX10: SortedCounts, facts: DistributionFacts | null): HistogramBin[] =>
  psaHistogram(sortedX10, facts).map(({ from, to, count }) => ({
    from: toScore(from),
    to: toScore(to),
    count,
  }));

function indexStatistics(sortedX10: SortedCounts): IndexStatistics {
  const facts = describeEntries(sortedX10);
  const below = countBelow(sortedX10, BREAK_EVEN_X10);
  return {
    ...statistics(facts, SCORE_SCALE),
    below_80_count: below,
    below_80_share: facts === null ? null : roundTo(below / facts.count, 4),
    histogram: histogramInPoints(sortedX10, facts),
  };
}

/** Rows per decile of the percentile, [0, 10) … [80, 90) and [90, 100] (100.0 in the last). */
function percentileStatistics(sortedX10: SortedCounts): PercentileStatistics {
  const counts = binCounts(sortedX10, 0, 1000, 100);
  const deciles = counts.slice(1, 11);
  deciles[9] = (deciles[9] ?? 0) + (counts[11] ?? 0);
  return { ...statistics(describeEntries(sortedX10), SCORE_SCALE), deciles };
}

function psaStatistics(sorted: SortedCounts): PsaStatistics {
  const facts = describeEntries(sorted);
  const negativeCount = countBelow(sorted, 0);
  return {
    ...statistics(facts, 1),
    negative_count: negativeCount,
    negative_share: facts === null ? null : roundTo(negativeCount / facts.count, 4),
    histogram: psaHistogram(sorted, facts),
  };
}

const scoreStatistics = (sortedX10: SortedCounts): ScoreStatistics => ({
  ...statistics(describeEntries(sortedX10), SCORE_SCALE),
  bands: scoreBands(sortedX10),
});

export function cohortStats(cohort: CohortAccumulator): CohortStats {
  const psa = cohort.psa.sorted();
  const scoreX10 = cohort.scoreX10.sorted();
  const savingsScoreX10 = cohort.savingsScoreX10.sorted();
  const indexX10 = cohort.indexX10.sorted();
  const percentileX10 = cohort.percentileX10.sorted();
  return {
    rows: psa.total(),
    psa: psaStatistics(psa),
    score: scoreStatistics(scoreX10),
    savings_score: scoreStatistics(savingsScoreX10),
    index: indexStatistics(indexX10),
    percentile: percentileStatistics(percentileX10),
    distribution: {
      psa,
      score_x10: scoreX10,
      savings_score_x10: savingsScoreX10,
      index_x10: indexX10,
      percentile_x10: percentileX10,
    },
  };
}
