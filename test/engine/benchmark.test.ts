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
import { indicesOf, type ScoreParts, statedSpending } from '../../src/engine/index-score.js';
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
  /** Percentiles 25 and 50 at 100 and 200 for every category, to tell them apart; food at home's floor 1,500. */
  const distinct: PeerBenchmarks = {
    at: (_index, p) => 4 * p,
    floor: (index) => (index === CATEGORY_INDEX.food_home ? 1500 : 0),
  };
  /** Peers spending 150 a year on average on each spending category, pets 300: between p25 and p50. */
  const low = new Float64Array(CATEGORY_COUNT).fill(150, 0, 36);
  low[CATEGORY_INDEX.pets] = 300;

  it('unit: the greatest of peers, their median (basics, housing too) or p25 (discretionary), the floor', () => {
    expect(basisBenchmark(CATEGORY_INDEX.electricity, distinct, low)).toBe(200);
    expect(basisBenchmark(CATEGORY_INDEX.mortgage_and_rent, distinct, low)).toBe(200);
    expect(basisBenchmark(CATEGORY_INDEX.food_out, distinct, low)).toBe(150);
    expect(basisBenchmark(CATEGORY_INDEX.pets, distinct, low)).toBe(300);
    expect(basisBenchmark(CATEGORY_INDEX.food_home, distinct, low)).toBe(1500);
    expect(basisBenchmark(CATEGORY_INDEX.electricity, distinct, peers)).toBe(1000);
    expect(basisBenchmark(CATEGORY_INDEX.other_debt_payments, distinct, low)).toBeUndefined();
    expect(basisBenchmark(CATEGORY_INDEX.savings, distinct, low)).toBeUndefined();
  });

  it('unit: every spending category at the greater of stated and benchmark, unstated ones at their benchmark', () => {
    const parts = {
      netIncome: 50_000,
      stated: { electricity: 50, food_out: 180, mortgage_and_rent: 0, other_debt_payments: 10, savings: 9 },
      peers: low,
    };
    // Default: 36 × 150 + 150 (pets) − 3 × 150 + 50 + 180 + 0 + 10 = 5,340. Benchmark: electricity and
    // housing at their median, 200 each; food_out 180 as stated (above 150); food at home, not stated, at
    // its floor, 1,500; the 31 other basics at their median, 200 (discretionary ones at peers'):
    // 5,340 + 150 + 200 + 1,350 + 50 × 21 (the 24 basics but these three) = 8,090.
    expect(statedSpending(parts)).toBe(5340);
    const held = heldToBenchmarks(parts, distinct);
    expect(statedSpending(held)).toBe(8090);
    expect(held.stated).toMatchObject({
      electricity: 200,
      food_out: 180,
      mortgage_and_rent: 200,
      food_home: 1500,
    });
    expect(held.benchmarked?.[CATEGORY_INDEX.food_home]).toBe(true);
    expect(held.benchmarked?.[CATEGORY_INDEX.food_out]).toBe(false);
  });

  it('unit: stating 0, or anything below the benchmark, counts exactly as stating nothing', () => {
    const none = statedSpending(heldToBenchmarks({ netIncome: 50_000, stated: {}, peers }, distinct));
    for (const amount of [0, 1, 999.99]) {
      const parts = { netIncome: 50_000, stated: { mortgage_and_rent: amount, electricity: amount }, peers };
      expect(statedSpending(heldToBenchmarks(parts, distinct))).toBe(none);
    }
  });

  it('unit: rent-free housing stays at 0 on the benchmark basis', () => {
    const parts = { netIncome: 50_000, stated: { mortgage_and_rent: 0 }, peers, rentFree: true };
    const none = statedSpending(heldToBenchmarks({ netIncome: 50_000, stated: {}, peers }, distinct));
    expect(statedSpending(heldToBenchmarks(parts, distinct))).toBe(none - 1000);
  });
});

/** The shipped model's p25 of food at home for the Birmingham renter (its mean is $3,137). */
const P25_FOOD_HOME = 2093;

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

  it('food_home: 100 on the benchmark basis: as no stated food, which counts at USDA Thrifty for one', () => {
    const request = birmingham({ food_home: 100 });
    const stated = partsOf(shipped, request);
    const none = partsOf(shipped, birmingham());
    const onBenchmark = (parts: ScoreParts) =>
      indicesOf(parts, statedSpending(heldToBenchmarks(parts, benchmarksOf(shipped, request)))).psa;
    // Shipped model: 481 on the default basis, 228 with no stated food (its mean, $3,137). On the benchmark
    // basis $100 is below food's benchmark, so food counts as not stated: at the mean, raised to the USDA
    // Thrifty cost for one person (household size not given), $4,004.43 (data/reference/benchmark-floors.json):
    // (4,004.43 − 3,137) / 12 = 72 a month less than 228.
    expect(indicesOf(stated, statedSpending(stated)).psa).toBe(481);
    expect(indicesOf(none, statedSpending(none)).psa).toBe(228);
    const food = CATEGORY_INDEX.food_home;
    expect(onBenchmark(stated)).toBe(onBenchmark(none));
    expect(Math.abs(228 - onBenchmark(stated) - (4004.43 - none.peers[food]!) / 12)).toBeLessThanOrEqual(1);
  });
});
