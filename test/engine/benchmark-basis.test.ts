/**
 * The benchmark basis gives no reward for understating (docs/scores.md, "The benchmark basis"): over the
 * rows of `outlay sample`, for every row and every category, stating 0 never gives a higher benchmark-basis
 * index than leaving the category unstated, and the benchmark basis never scores a row above the default
 * basis. On the 20,000 rows of `outlay sample --rows 20000` when OUTLAY_FULL_TESTS is set (CI's
 * first pass: 760,000 row × category pairs), else on its first 500 rows to keep a maintainer's run short.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, type Category } from '../../src/contract/categories.js';
import { heldToBenchmarks } from '../../src/engine/benchmark.js';
import { indicesOf, type ScoreParts, statedSpending } from '../../src/engine/index-score.js';
import { sizedForRun } from '../support/full-tests.js';
import { type ScoredRow, scoredSample, shippedParts } from './scored-sample.js';

const ROWS = sizedForRun(20_000, 500);
let rows: ScoredRow[];

beforeAll(async () => {
  rows = scoredSample(await shippedParts(), ROWS);
}, 120_000);

/** A row's benchmark-basis index with `stated` in place of its stated amounts. */
function benchmarkIndex({ parts, benchmarks }: ScoredRow, stated: ScoreParts['stated']): number {
  const held = heldToBenchmarks({ ...parts, stated }, benchmarks);
  return indicesOf(held, statedSpending(held)).index;
}

describe(`the benchmark basis over outlay sample --rows ${ROWS}`, () => {
  it('property: every row and category, stated at 0 → an index never above the index with it unstated', () => {
    const raised: string[] = [];
    for (const row of rows) {
      for (const category of CATEGORIES) {
        const { [category]: _, ...unstated } = row.parts.stated as Record<Category, number>;
        const without = benchmarkIndex(row, unstated);
        const atZero = benchmarkIndex(row, { ...unstated, [category]: 0 });
        if (atZero > without)
          raised.push(`${JSON.stringify(row.request)} ${category}: ${atZero} > ${without}`);
      }
    }
    expect(raised.length, raised.slice(0, 3).join('\n')).toBe(0);
  });

  it('property: every row, the benchmark-basis index is never above the default basis index', () => {
    const above = rows.filter(
      (row) => benchmarkIndex(row, row.parts.stated) > indicesOf(row.parts, statedSpending(row.parts)).index,
    );
    expect(above.map((row) => row.request)).toEqual([]);
  });
});
