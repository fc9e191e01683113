/**
 * Expenditure benchmarks: what households like this one spend per category at a given percentile, the
 * flags for stated expenses far below it, and the benchmark basis of the PSA (the greater of stated and
 * benchmark per category), an open counterpart of Australia's Household Expenditure Measure.
 * docs/scores.md ("Benchmarks and flags") documents every rule and constant here.
 */
import {
  CATEGORIES,
  CATEGORY_INDEX,
  type Category,
  SPENDING_CATEGORY_COUNT,
} from '../contract/categories.js';
import { RANGE_PERCENTILES } from '../model/artifact.js';
import { CATEGORY_DESCRIPTIONS } from './category-kinds.js';
import { type ScoreParts, type StatedAmounts, statedByIndex } from './index-score.js';
import { roundHalfAwayFromZero } from './rounding.js';

/** The percentiles the flags and the benchmark basis read. */
export type BenchmarkPercentile = 25 | 50;

/** Per category, what peers spend at a percentile, annual. */
export interface PeerBenchmarks {
  /** Peers' annual spending on the spending category at `index` (CATEGORIES order) at `percentile`. */
  at(index: number, percentile: BenchmarkPercentile): number;
}

/**
 * Benchmarks from the model's percentiles of peers' spending, [category][RANGE_PERCENTILES] as
 * `SpendingModel.ranges` writes them (docs/model.md, "Distributions"). Read when asked, so the caller
 * may refill `ranges` for each household and keep one benchmarks object.
 */
export function rangeBenchmarks(ranges: ArrayLike<number>): PeerBenchmarks {
  return {
    at: (index, percentile) => ranges[index * RANGE_PERCENTILES.length + PERCENTILE_OFFSET[percentile]]!,
  };
}

/** Where each benchmark percentile sits among a category's RANGE_PERCENTILES. */
const PERCENTILE_OFFSET: Readonly<Record<BenchmarkPercentile, number>> = {
  25: RANGE_PERCENTILES.indexOf(25),
  50: RANGE_PERCENTILES.indexOf(50),
};

/**
 * A flag is raised only when the understatement moves the main score by at least this many points
 * (half a point: the understatement is at least 0.5 % of take-home pay), so that stating $0 for a
 * category peers spend a few dollars on is not flagged.
 */
export const FLAG_MIN_POINTS = 0.5;

export const FLAG_CODES = ['BELOW_PEERS', 'BASICS_TOTAL_BELOW_PEERS', 'GROSS_BELOW_TAKE_HOME'] as const;
export type FlagCode = (typeof FLAG_CODES)[number];

export interface Flag {
  readonly code: FlagCode;
  /** The category, or null for a total. */
  readonly category: Category | null;
  /** The stated amount (or total), annual, whole units. */
  readonly stated: number;
  /** The benchmark it falls below, annual, whole units. */
  readonly benchmark: number;
}

const HOUSING_INDEX = CATEGORY_INDEX.mortgage_and_rent;

/** Whether an understatement of `shortfall` a year is large enough to flag for this take-home. */
const isMaterial = (shortfall: number, netIncome: number) => (100 * shortfall) / netIncome >= FLAG_MIN_POINTS;

/**
 * Every stated spending category below its peers' 25th percentile, in CATEGORIES order, and the stated
 * basics together below their peers' 25th percentiles together, each when material (FLAG_MIN_POINTS).
 * `statedAmounts` is `statedByIndex(parts.stated)`, for a caller that has read it already.
 */
export function expenseFlags(
  parts: ScoreParts,
  benchmarks: PeerBenchmarks,
  statedAmounts: StatedAmounts = statedByIndex(parts.stated),
): Flag[] {
  const flags: Flag[] = [];
  let basicsStated = 0;
  let basicsBenchmark = 0;
  let basicsCount = 0;
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) {
    const stated = statedAmounts[i];
    if (stated === undefined) continue;
    const category = CATEGORIES[i]!;
    const benchmark = benchmarks.at(i, 25);
    if (stated < benchmark && isMaterial(benchmark - stated, parts.netIncome)) {
      flags.push(flagOf('BELOW_PEERS', category, stated, benchmark));
    }
    if (CATEGORY_DESCRIPTIONS[category].kind === 'basic') {
      basicsStated += stated;
      basicsBenchmark += benchmark;
      basicsCount++;
    }
  }
  // A single basic is already judged on its own.
  if (
    basicsCount > 1 &&
    basicsStated < basicsBenchmark &&
    isMaterial(basicsBenchmark - basicsStated, parts.netIncome)
  ) {
    flags.push(flagOf('BASICS_TOTAL_BELOW_PEERS', null, basicsStated, basicsBenchmark));
  }
  return flags;
}

/**
 * Gross income below take-home pay: possible (refundable credits paid beyond the taxes owed) but more
 * often a typo or the two fields swapped, so it is flagged, not refused. Gross does not enter the model
 * (docs/model.md, "Inputs"): the flag is the only thing it changes. `stated` is the gross, `benchmark` the
 * take-home.
 */
export function incomeFlags(netIncome: number, grossIncome: number | undefined): Flag[] {
  return grossIncome !== undefined && grossIncome < netIncome
    ? [flagOf('GROSS_BELOW_TAKE_HOME', null, grossIncome, netIncome)]
    : [];
}

const flagOf = (code: FlagCode, category: Category | null, stated: number, benchmark: number): Flag => ({
  code,
  category,
  stated: roundHalfAwayFromZero(stated),
  benchmark: roundHalfAwayFromZero(benchmark),
});

/**
 * The benchmark a stated amount is held to on the benchmark basis, or undefined when the stated amount
 * stands as it is: housing (the lender sees the lease or the mortgage) and other debt payments (no peer
 * figure: the model sets them at 0). Basics are held to the peers' median, discretionary spending to the
 * 25th percentile, as HEM holds absolute and discretionary basics.
 */
export function basisBenchmark(index: number, benchmarks: PeerBenchmarks): number | undefined {
  if (index === HOUSING_INDEX || index >= SPENDING_CATEGORY_COUNT) return undefined;
  return benchmarks.at(index, CATEGORY_DESCRIPTIONS[CATEGORIES[index]!].kind === 'basic' ? 50 : 25);
}

/**
 * The household as the benchmark basis sees it: each stated category at the greater of its stated amount
 * and its benchmark (`basisBenchmark`), everything else as sent. Its `statedSpending` is the benchmark
 * basis's spending, and its reasons are the benchmark basis's reasons.
 */
export function heldToBenchmarks(parts: ScoreParts, benchmarks: PeerBenchmarks): ScoreParts {
  const stated: Partial<Record<Category, number>> = { ...parts.stated };
  for (const [category, amount] of Object.entries(parts.stated) as [Category, number | undefined][]) {
    if (amount === undefined) continue;
    const benchmark = basisBenchmark(CATEGORY_INDEX[category], benchmarks);
    if (benchmark !== undefined) stated[category] = Math.max(amount, benchmark);
  }
  return { ...parts, stated };
}
