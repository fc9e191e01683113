import { describe, expect, it } from 'vitest';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import type { OperationRequest } from '../../src/contract/schemas.js';
import {
  basisBenchmark,
  expenseFlags,
  heldToBenchmarks,
  type PeerBenchmarks,
  rangeBenchmarks,
} from '../../src/engine/benchmark.js';
import { indicesOf, statedSpending } from '../../src/engine/index-score.js';
import { benchmarksOf, partsOf, shippedParts } from './scored-sample.js';

/** Peers spending 1,000 a year on average on each of the 36 spending categories. */
const peers = new Float64Array(CATEGORY_COUNT).fill(1000, 0, 36);
/** Their percentiles 25, 50 and 75: 500, 900 and 1,300 in every category but pets (p25 600). */
const ranges = Float64Array.from({ length: 36 * 3 }, (_, at) => [500, 900, 1300][at % 3]!);
ranges[3 * CATEGORY_INDEX.pets] = 600;
const standIn = rangeBenchmarks(ranges);

describe('rangeBenchmarks', () => {
  it('unit: reads p25 and p50 of a category from the model ranges layout [category][p25, p50, p75]', () => {
    expect([standIn.at(0, 25), standIn.at(0, 50)]).toEqual([500, 900]);
    expect([standIn.at(CATEGORY_INDEX.pets, 25), standIn.at(CATEGORY_INDEX.pets, 50)]).toEqual([600, 900]);
  });
});

describe('expenseFlags', () => {
  it('a stated category below the p25 by at least half a point: flagged with its benchmark', () => {
    // 500 − 100 = 400 a year on 40,000 is 1 point: material.
    expect(expenseFlags({ netIncome: 40_000, stated: { food_home: 100 }, peers }, standIn)).toEqual([
      { code: 'BELOW_PEERS', category: 'food_home', stated: 100, benchmark: 500 },
    ]);
  });

  it('a shortfall under half a point: not flagged', () => {
    // 500 a year on 200,000 is 0.25 point.
    expect(expenseFlags({ netIncome: 200_000, stated: { food_home: 0 }, peers }, standIn)).toEqual([]);
  });

  it('two basics stated low together: flagged each, and their total', () => {
    const flags = expenseFlags(
      { netIncome: 40_000, stated: { food_home: 0, electricity: 0, pets: 0 }, peers },
      standIn,
    );
    expect(flags.map((f) => [f.code, f.category, f.stated, f.benchmark])).toEqual([
      ['BELOW_PEERS', 'food_home', 0, 500],
      ['BELOW_PEERS', 'electricity', 0, 500],
      ['BELOW_PEERS', 'pets', 0, 600],
      ['BASICS_TOTAL_BELOW_PEERS', null, 0, 1000],
    ]);
  });

  it('savings and other debt payments stated at 0: never flagged (no peer figure)', () => {
    expect(
      expenseFlags({ netIncome: 40_000, stated: { savings: 0, other_debt_payments: 0 }, peers }, standIn),
    ).toEqual([]);
  });
});

describe('heldToBenchmarks', () => {
  /** Percentiles 25 and 50 at 100 and 200 for every category, to tell them apart. */
  const distinct: PeerBenchmarks = { at: (_index, p) => 4 * p };

  it('basics held to the median, discretionary to the p25, housing and debt as stated', () => {
    expect(basisBenchmark(CATEGORY_INDEX.food_home, distinct)).toBe(200);
    expect(basisBenchmark(CATEGORY_INDEX.food_out, distinct)).toBe(100);
    expect(basisBenchmark(CATEGORY_INDEX.mortgage_and_rent, distinct)).toBeUndefined();
    expect(basisBenchmark(CATEGORY_INDEX.other_debt_payments, distinct)).toBeUndefined();
  });

  it('the greater of stated and benchmark per stated category; the rest as on the default basis', () => {
    const parts = {
      netIncome: 50_000,
      stated: { food_home: 50, food_out: 150, mortgage_and_rent: 0, other_debt_payments: 10, savings: 9 },
      peers,
    };
    // Default: 36,000 − 3 × 1,000 + 50 + 150 + 0 + 10 = 33,210. Benchmark: food_home 200 (its median),
    // food_out 150 (above its p25 of 100), rent 0 as stated: 150 more.
    expect(statedSpending(parts)).toBe(33_210);
    expect(statedSpending(heldToBenchmarks(parts, distinct))).toBe(33_360);
  });
});

/** The shipped model's p25 of food at home for the Birmingham renter (mean $3,140, median $2,906). */
const P25_FOOD_HOME = 2131;

describe('the Birmingham renter (README: ZIP 35210, take-home 41,004, age 25)', async () => {
  const shipped = await shippedParts();
  const birmingham = (budget?: OperationRequest['budget']): OperationRequest => ({
    demographics: { zip: '35210', net_annual_income: 41_004, age: 25, is_homeowner: false },
    ...(budget === undefined ? {} : { budget }),
  });

  it('food_home: 100 stated: flagged, naming food_home', () => {
    const request = birmingham({ food_home: 100 });
    const parts = partsOf(shipped, request);
    const benchmarks = benchmarksOf(shipped, request);
    // The shipped model's p25 of peers' food at home.
    expect(expenseFlags(parts, benchmarks)).toEqual([
      { code: 'BELOW_PEERS', category: 'food_home', stated: 100, benchmark: P25_FOOD_HOME },
    ]);
  });

  it('food_home: 100 on the benchmark basis: the PSA of no stated food plus (mean − median) / 12', () => {
    const request = birmingham({ food_home: 100 });
    const stated = partsOf(shipped, request);
    const none = partsOf(shipped, birmingham());
    const psaOnBenchmark = indicesOf(
      stated,
      statedSpending(heldToBenchmarks(stated, benchmarksOf(shipped, request))),
    ).psa;
    const psaWithoutFood = indicesOf(none, statedSpending(none)).psa;
    // Shipped model: 626 on the default basis; 372 with no stated food (its mean, $3,140); 392 on the
    // benchmark basis (its median, $2,906: (3,140 − 2,906) / 12 = 19.5 a month more). The gap is the
    // median-for-basics rule's, 5.4 % of this profile's PSA: it is not tuned to fit a threshold.
    expect(indicesOf(stated, statedSpending(stated)).psa).toBe(626);
    const food = CATEGORY_INDEX.food_home;
    const meanMinusMedian = none.peers[food]! - benchmarksOf(shipped, request).at(food, 50);
    expect(Math.abs(psaOnBenchmark - psaWithoutFood - meanMinusMedian / 12)).toBeLessThanOrEqual(1);
    expect([psaOnBenchmark, psaWithoutFood]).toEqual([392, 372]);
  });
});
