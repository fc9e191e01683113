/**
 * The model card's ranking table (jobs/build-model/validate-ranking.ts) over the shipped model and
 * synthetic CE-like households (a fixed generator): its shape, that it is the same on every run, that its
 * comparator is fitted on the training CUs only, and that households the API refuses are counted, not
 * scored. The numbers themselves are the card's (rebuilt from raw data in validate-ranking-rebuild.test.ts).
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

/** The rows of the markdown table whose header cell is `title`, split into trimmed cells. */
function tableRows(text: string, title: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${title} |`));
  const rows: string[][] = [];
  for (let k = start + 2; k < lines.length && lines[k]!.startsWith('|'); k++) {
    rows.push(
      lines[k]!.split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe('rankingTable', () => {
  let inputs: RankingInputs;
  let table: string;
  beforeAll(async () => {
    const model: SpendingModel = await loadSpendingModel();
    inputs = {
      model,
      households: households(2_000),
      payments: (h) => ({ housing: h.spending[CATEGORY_INDEX.mortgage_and_rent]!, vehicle: 1_200 }),
      incomeScale: 1.3,
      rpp: new Map(),
      stateCodes: new Map(),
      bootstrap: { replicates: 40, seed: 3, level: 0.95 },
    };
    table = rankingTable(inputs);
  });

  it('rankingTable: synthetic households, all and five quintiles, every score with AUC and KS within 0–1', () => {
    expect(tableRows(table, 'take-home (2014 $)').map((row) => row[0]!.slice(0, 3))).toEqual([
      'all',
      'Q1:',
      'Q2:',
      'Q3:',
      'Q4:',
      'Q5:',
    ]);
    for (const metric of ['AUC', 'KS']) {
      const rows = tableRows(table, metric);
      expect(rows.map((row) => row[0])).toEqual([
        'outlay_index, payments stated',
        'outlay_index, nothing stated',
        'take-home alone',
        'residual: take-home − payments ($)',
        'residual share: (take-home − payments) / take-home',
        'logistic regression, same inputs',
      ]);
      for (const value of rows.flatMap((row) => row.slice(1).map(Number))) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
  });

  it('rankingTable: synthetic households, every AUC difference with an interval around the estimate', () => {
    const rows = tableRows(table, 'AUC difference (95 % interval)');
    expect(rows).toHaveLength(5);
    const number = (x: string) => Number(x.replace('−', '-'));
    for (const cell of rows.flatMap((row) => row.slice(1))) {
      const [, estimate, low, high] = /^([+−]\d\.\d{3}) \(([+−]\d\.\d{3}) to ([+−]\d\.\d{3})\)$/.exec(cell)!;
      expect(number(low!)).toBeLessThanOrEqual(number(high!));
      expect(Math.abs(number(estimate!))).toBeLessThanOrEqual(1);
    }
  });

  it('rankingTable: the same inputs twice, the same text', () => {
    expect(rankingTable(inputs)).toBe(table);
  });

  it('rankingTable: held-out outcomes changed, the same-inputs regression unchanged (fitted on training CUs only)', () => {
    const flipped = inputs.households.map((h) => {
      if (!isHeldOut(h.newid)) return h;
      const spending = Float64Array.from(h.spending);
      // Food at home is drawn as take-home × U(0.4, 1.4): mirrored, other held-out households overspend.
      spending[CATEGORY_INDEX.food_home] = Math.abs(h.takeHome) * 1.8 - spending[CATEGORY_INDEX.food_home]!;
      return { ...h, spending };
    });
    const logit = (text: string) => /logit = [^(]*/.exec(text)![0];
    const changed = rankingTable({ ...inputs, households: flipped });
    expect(logit(changed)).toBe(logit(table));
    expect(tableRows(changed, 'AUC')).not.toEqual(tableRows(table, 'AUC'));
  });

  it('rankingTable: a held-out household with negative take-home, counted as refused with the reason', () => {
    const header = table.split('\n')[0]!;
    const [, scored, held] = /Held out: (\d+) of (\d+)/.exec(header)!;
    expect(Number(held) - Number(scored)).toBe(1);
    expect(header).toMatch(
      /refused by the API's validation: 1 × \/demographics\/net_annual_income must be > 0\./,
    );
  });
});
