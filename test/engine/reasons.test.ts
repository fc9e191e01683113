import { describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_COUNT } from '../../src/contract/categories.js';
import { CATEGORY_DESCRIPTIONS } from '../../src/engine/category-kinds.js';
import { indicesOf, statedSpending } from '../../src/engine/index-score.js';
import {
  lendingReasons,
  MAX_REASONS,
  REASON_CODES,
  savingsReasons,
  scoreReasons,
} from '../../src/engine/reasons.js';
import { codeCell, docsTable } from './scores-doc.js';

/** Peers spending 1,000 a year on each of the 36 spending categories: 36,000 in all. */
const peers = new Float64Array(CATEGORY_COUNT).fill(1000, 0, 36);

describe('scoreReasons', () => {
  it('take-home below peer spending and stated expenses above peers: largest first, in points', () => {
    const parts = {
      netIncome: 30_000,
      stated: { mortgage_and_rent: 7000, food_home: 1600, other_debt_payments: 900, savings: 5000 },
      peers,
    };
    const reasons = scoreReasons(parts);
    // 100 × 6,000 / 30,000 = 20 (income), 100 × 6,000 / 30,000 = 20 (rent, ties after income),
    // 100 × 900 / 30,000 = 3 (debt), 100 × 600 / 30,000 = 2 (food); savings is not the main score's.
    expect(reasons.map((r) => [r.code, r.points])).toEqual([
      ['INCOME_BELOW_PEER_SPENDING', 20],
      ['HIGH_MORTGAGE_AND_RENT', 20],
      ['OTHER_DEBT_PAYMENTS', 3],
      ['HIGH_FOOD_HOME', 2],
    ]);
    expect(reasons[1]!.text).toBe(
      'Stated mortgage and rent of $7,000 a year is $6,000 above the $1,000 that comparable households spend',
    );
  });

  it('the reasons points: add up to the distance of the unrounded index below 80', () => {
    const parts = { netIncome: 30_000, stated: { mortgage_and_rent: 7000, food_home: 400 }, peers };
    const total = scoreReasons(parts).reduce((sum, r) => sum + r.points, 0);
    // Food below peers raises the index by 100 × 600 / 30,000 = 2: not a reason, but in the index.
    const unrounded = 80 + (100 * (30_000 - statedSpending(parts))) / 30_000;
    expect(total - 2).toBeCloseTo(80 - unrounded, 9);
    // Spending 36,000 + 6,000 − 600 = 41,400: PSA −950, index 80 − 100 × 11,400 / 30,000 = 42 = 80 − 20 − 20 + 2.
    expect(indicesOf(parts, statedSpending(parts)).index).toBe(42);
  });

  it('more than four candidate reasons: the four largest', () => {
    // The first ten categories stated at 2,000, 2,100, …, 2,900: the last four are furthest above peers.
    const stated = Object.fromEntries(CATEGORIES.slice(0, 10).map((c, i) => [c, 2000 + 100 * i]));
    const reasons = scoreReasons({ netIncome: 100_000, stated, peers });
    expect(reasons).toHaveLength(MAX_REASONS);
    expect(reasons.map((r) => r.code)).toEqual([
      'HIGH_RESIDENTIAL_PHONE_SERVICE',
      'HIGH_HEATING_FUELS_OTHER',
      'HIGH_ELECTRICITY',
      'HIGH_NATURAL_GAS',
    ]);
  });

  it('take-home above peer spending and nothing stated above peers: no reasons', () => {
    expect(scoreReasons({ netIncome: 50_000, stated: { food_home: 500 }, peers })).toEqual([]);
  });
});

describe('savingsReasons and lendingReasons', () => {
  it('a stated savings target: a reason of the SAViNGS score only', () => {
    const parts = { netIncome: 50_000, stated: { savings: 5000 }, peers };
    expect(savingsReasons(parts)).toEqual([
      {
        code: 'SAVINGS_TARGET',
        text: 'The stated savings target of $5,000 a year is 10.0% of take-home pay',
        points: 10,
      },
    ]);
  });

  it('a loan payment: a reason of the lending index, as stressed', () => {
    const [reason] = lendingReasons({ netIncome: 50_000, stated: {}, peers }, 400, 500);
    // 100 × 12 × 500 / 50,000 = 12 points
    expect(reason).toEqual({
      code: 'LOAN_PAYMENT',
      text: 'The proposed loan payment of $400 a month, $500 with the stress buffer, is 12.0% of take-home pay',
      points: 12,
    });
  });
});

describe('docs/scores.md', () => {
  it('the reason codes table: lists every code the engine gives, in tie order', () => {
    expect(docsTable('Reason codes').map(codeCell)).toEqual(REASON_CODES);
  });

  it('the wordings: never name age, household type or marital status (Regulation B)', () => {
    const prohibited = /\b(age|aged|older|younger|married|marital|single|spouse|household type|parent)\b/i;
    for (const row of docsTable('Reason codes')) expect(row[1]).not.toMatch(prohibited);
    const parts = {
      netIncome: 10_000,
      stated: Object.fromEntries(CATEGORIES.map((c) => [c, 5000])),
      peers,
    };
    for (const reason of [...savingsReasons(parts), ...lendingReasons(parts, 100, 125)]) {
      expect(reason.text).not.toMatch(prohibited);
    }
  });

  it('the basics and discretionary table: the engine labels, category by category', () => {
    const rows = docsTable('Basics and discretionary spending');
    expect(rows.map((row) => [codeCell(row), row[1], row[2]])).toEqual(
      CATEGORIES.map((c) => [c, CATEGORY_DESCRIPTIONS[c].label, CATEGORY_DESCRIPTIONS[c].kind]),
    );
  });
});
