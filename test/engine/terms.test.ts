/**
 * `details.terms`: every term of the index decomposition, in dollars a year, summing to 12 × PSA within
 * the PSA's rounding (at most $6 a year) and the terms' cents.
 */
import { describe, expect, it } from 'vitest';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import { heldToBenchmarks } from '../../src/engine/benchmark.js';
import { indicesOf, type ScoreParts, statedSpending } from '../../src/engine/index-score.js';
import { scoreTerms } from '../../src/engine/terms.js';
import { scoredSample, shippedParts } from './scored-sample.js';

/** Peers spending 1,000 a year on each of the 36 spending categories: 36,000 in all. */
const peers = new Float64Array(CATEGORY_COUNT).fill(1000, 0, 36);

describe('scoreTerms', () => {
  it('unit: take-home less peer spending, each stated category against peers, debt; summing to 12 × PSA', () => {
    const parts = {
      netIncome: 42_000,
      stated: { food_home: 2500, electricity: 400, other_debt_payments: 1200 },
      peers,
    };
    // 42,000 − 36,000 = 6,000; food 1,000 − 2,500 = −1,500; electricity 1,000 − 400 = 600; debt −1,200:
    // 3,900 = 42,000 − (36,000 + 1,500 − 600 + 1,200), 12 × PSA (325 a month).
    expect(scoreTerms(parts)).toEqual([
      { code: 'TAKE_HOME_LESS_PEER_SPENDING', category: null, amount: 6000 },
      { code: 'STATED_VS_PEERS', category: 'food_home', amount: -1500 },
      { code: 'STATED_VS_PEERS', category: 'electricity', amount: 600 },
      { code: 'OTHER_DEBT_PAYMENTS', category: 'other_debt_payments', amount: -1200 },
    ]);
    expect(indicesOf(parts, statedSpending(parts)).psa).toBe(325);
  });

  it('unit: a category counted at its benchmark is BENCHMARK_VS_PEERS', () => {
    const floors = { at: () => 0, floor: (i: number) => (i === CATEGORY_INDEX.food_home ? 1500 : 0) };
    const held = heldToBenchmarks({ netIncome: 42_000, stated: {}, peers }, floors);
    expect(scoreTerms(held).slice(1)).toEqual([
      { code: 'BENCHMARK_VS_PEERS', category: 'food_home', amount: -500 },
    ]);
  });
});

const ROWS = 10_000;

describe(`scoreTerms over outlay sample --rows ${ROWS}`, async () => {
  const rows = scoredSample(await shippedParts(), ROWS);
  const sum = (parts: ScoreParts) => scoreTerms(parts).reduce((total, term) => total + term.amount, 0);

  it('property: every row, stated and benchmark basis, the terms sum to 12 × PSA within $12', () => {
    const off: string[] = [];
    for (const { parts, benchmarks, request } of rows) {
      for (const basisParts of [parts, heldToBenchmarks(parts, benchmarks)]) {
        const { psa } = indicesOf(basisParts, statedSpending(basisParts));
        if (Math.abs(sum(basisParts) - 12 * psa) > 12)
          off.push(`${JSON.stringify(request)}: ${sum(basisParts)} vs ${12 * psa}`);
      }
    }
    expect(off.length, off.slice(0, 3).join('\n')).toBe(0);
  });
});
