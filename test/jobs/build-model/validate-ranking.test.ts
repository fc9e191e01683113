/**
 * The model card's ranking table (jobs/build-model/validate-ranking.ts) over the shipped model and
 * synthetic CE-like households (a fixed generator): its shape, that it is the same on every run, and
 * that households the API refuses are counted, not scored. The numbers themselves are the card's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Household } from '../../../jobs/build-model/extract-households.js';
import { isHeldOut } from '../../../jobs/build-model/hold-out.js';
import { type RankingInputs, rankingTable } from '../../../jobs/build-model/validate-ranking.js';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../../src/contract/categories.js';
import { loadSpendingModel } from '../../../src/model/load.js';
import type { SpendingModel } from '../../../src/model/types.js';

const newid = (k: number) => `${100_000 + k}1`;
/** The first synthetic household in the hold-out: it gets a negative take-home, which the API refuses. */
const REFUSED = Array.from({ length: 100 }, (_, k) => k).find((k) => isHeldOut(newid(k)))!;

function households(count: number): Household[] {
  let seed = 7;
  const next = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 4_294_967_296;
  };
  return Array.from({ length: count }, (_, k) => {
    const takeHome = k === REFUSED ? -500 : Math.round(8_000 + 120_000 * next());
    const spending = new Float64Array(CATEGORY_COUNT);
    spending[CATEGORY_INDEX.food_home] = Math.abs(takeHome) * (0.4 + next());
    spending[CATEGORY_INDEX.mortgage_and_rent] = Math.abs(takeHome) * 0.3 * next();
    return {
      newid: newid(k),
      weight: 1_000 + Math.round(9_000 * next()),
      monthsInScope: 3,
      age: 20 + Math.floor(60 * next()),
      members: 1 + Math.floor(4 * next()),
      cutenure: 4,
      isHomeowner: false,
      stateFips: '',
      region: 1 + Math.floor(4 * next()),
      urban: true,
      popsize: 0,
      incRank: 0,
      famType: 8,
      grossIncome: Math.abs(takeHome) * 1.2,
      takeHome,
      spending,
    };
  });
}

describe('rankingTable', () => {
  let inputs: RankingInputs;
  beforeAll(async () => {
    const model: SpendingModel = await loadSpendingModel();
    inputs = {
      model,
      households: households(2_000),
      payments: (h) => ({ housing: h.spending[CATEGORY_INDEX.mortgage_and_rent]!, vehicle: 1_200 }),
      incomeScale: 1.3,
      rpp: new Map(),
      stateCodes: new Map(),
    };
  });

  it('rankingTable: synthetic households, one overall row and five quintile rows of AUC and KS', () => {
    const lines = rankingTable(inputs).split('\n');
    const rows = lines.filter((line) => /^\| (all|Q[1-5])/.test(line));
    expect(rows.map((row) => row.split('|')[1]!.trim().slice(0, 3))).toEqual([
      'all',
      'Q1:',
      'Q2:',
      'Q3:',
      'Q4:',
      'Q5:',
    ]);
    for (const row of rows) {
      const metrics = row
        .split('|')
        .slice(4, 12)
        .map((cell) => Number(cell));
      for (const value of metrics) expect(value).toBeGreaterThanOrEqual(0);
      for (const value of metrics) expect(value).toBeLessThanOrEqual(1);
    }
  });

  it('rankingTable: the same inputs twice, the same text', () => {
    expect(rankingTable(inputs)).toBe(rankingTable(inputs));
  });

  it('rankingTable: a held-out household with negative take-home, counted as refused with the reason', () => {
    const header = rankingTable(inputs).split('\n')[0]!;
    const [, scored, held] = /Held out: (\d+) of (\d+)/.exec(header)!;
    expect(Number(held) - Number(scored)).toBe(1);
    expect(header).toMatch(
      /refused by the API's validation: 1 × \/demographics\/net_annual_income must be > 0\./,
    );
  });
});
