/**
 * Expenditure benchmarks: what households like this one spend per category at a given percentile, the
 * flags for stated expenses far below it, and the benchmark basis of the PSA (the greater of stated and
 * benchmark per category, a category not stated counting as stated at 0), an open counterpart of
 * Australia's Household Expenditure Measure. docs/scores.md ("Benchmarks and flags") documents every rule
 * and constant here.
 */
import {
  CATEGORIES,
  CATEGORY_INDEX,
  type Category,
  SPENDING_CATEGORY_COUNT,
} from '../contract/categories.js';
import { RANGE_PERCENTILES } from '../model/artifact.js';
import { NO_FLOORS } from './benchmark-floors.js';
import { CATEGORY_DESCRIPTIONS } from './category-kinds.js';
import { type ScoreParts, type StatedAmounts, statedByIndex } from './index-score.js';
import { roundHalfAwayFromZero } from './rounding.js';

/** The percentiles the flags and the benchmark basis read. */
export type BenchmarkPercentile = 25 | 50;

/** Per category, what peers spend at a percentile, and the public standard below which no benchmark goes. */
export interface PeerBenchmarks {
  /** Peers' annual spending on the spending category at `index` (CATEGORIES order) at `percentile`. */
  at(index: number, percentile: BenchmarkPercentile): number;
  /** The public minimum standard for the category at `index` for this household, annual; 0 when none. */
  floor(index: number): number;
}

/**
 * Benchmarks from the model's percentiles of peers' spending, [category][RANGE_PERCENTILES] as
 * `SpendingModel.ranges` writes them (docs/model.md, "Distributions"), and the household's public floors
 * (`FloorTable.of` its size; none by default). Both are read when asked, so the caller may refill them
 * for each household and keep one benchmarks object.
 */
export function rangeBenchmarks(
  ranges: ArrayLike<number>,
  floors: () => ArrayLike<number> = () => NO_FLOORS.of(undefined),
): PeerBenchmarks {
  return {
    at: (index, percentile) => ranges[index * RANGE_PERCENTILES.length + PERCENTILE_OFFSET[percentile]]!,
    floor: (index) => floors()[index]!,
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

import { FLAG_CODES, type FlagCode } from '../contract/score-details.js';

export { FLAG_CODES, type FlagCode };

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
 * A household declared rent-free (`options.rent_free`): its housing counts at 0 on both bases, and it is
 * flagged whatever the amount, with the housing benchmark it is exempt from.
 */
export function rentFreeFlags(parts: ScoreParts, benchmarks: PeerBenchmarks): Flag[] {
  if (parts.rentFree !== true) return [];
  const benchmark = basisBenchmark(HOUSING_INDEX, benchmarks, parts.peers)!;
  return [flagOf('RENT_FREE', 'mortgage_and_rent', 0, benchmark)];
}

/**
 * A category's benchmark on the benchmark basis, the least it counts at, or undefined for the categories
 * held to none: other debt payments (no peer figure: the model sets them at 0) and savings. It is the
 * greatest of what peers spend (`peers`, the model's amount: what the category counts at when not stated),
 * their median for basics or 25th percentile for discretionary spending (HEM's absolute and discretionary
 * basics) and the public standard that covers the category (`PeerBenchmarks.floor`). Housing is a basic
 * like the others, its peers those of the household's tenure, take-home and place.
 */
export function basisBenchmark(
  index: number,
  benchmarks: PeerBenchmarks,
  peers: ArrayLike<number>,
): number | undefined {
  if (index >= SPENDING_CATEGORY_COUNT) return undefined;
  return Math.max(peers[index]!, benchmarks.at(index, BASIS_PERCENTILE[index]!), benchmarks.floor(index));
}

/** The percentile each spending category's benchmark reads: 50 for basics, 25 for discretionary spending. */
const BASIS_PERCENTILE: readonly BenchmarkPercentile[] = CATEGORIES.slice(0, SPENDING_CATEGORY_COUNT).map(
  (category) => (CATEGORY_DESCRIPTIONS[category].kind === 'basic' ? 50 : 25),
);

/**
 * The household as the benchmark basis sees it: every spending category at the greater of its stated
 * amount and its benchmark (`basisBenchmark`), a category not stated at its benchmark. Stating less than
 * the benchmark, 0 included, therefore counts exactly as stating nothing, and no category counts below
 * what the default basis counts. Housing declared rent-free stays at 0; other debt payments and savings as
 * sent. `benchmarked` marks the categories counted at a benchmark other than the peers' amount. Its
 * `statedSpending` is the benchmark basis's spending, and its reasons are the benchmark basis's reasons.
 */
export function heldToBenchmarks(parts: ScoreParts, benchmarks: PeerBenchmarks): ScoreParts {
  const stated: Partial<Record<Category, number>> = { ...parts.stated };
  const benchmarked = new Array<boolean>(SPENDING_CATEGORY_COUNT).fill(false);
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) {
    if (i === HOUSING_INDEX && parts.rentFree === true) continue;
    const category = CATEGORIES[i]!;
    const amount = parts.stated[category];
    const benchmark = basisBenchmark(i, benchmarks, parts.peers)!;
    if (amount !== undefined && amount >= benchmark) continue;
    if (amount === undefined && benchmark === parts.peers[i]) continue;
    stated[category] = benchmark;
    benchmarked[i] = benchmark !== parts.peers[i];
  }
  return { ...parts, stated, benchmarked };
}
