/**
 * Contract tests of issue 4 through the library, against the fake model of ./fakes.ts, whose amounts can
 * be worked out by hand: at net income 42,000 it models 672 for each 2% category, 3,360 for food at home,
 * 8,400 for housing (34,608 of spending in all) and savings of 42,000 − 34,608 = 7,392.
 */
import { describe, expect, it } from 'vitest';
import { CATEGORIES, type Category, OTHER_DEBT_INDEX } from '../../src/contract/categories.js';
import { createEngine, UNKNOWN_ZIP_MESSAGE } from '../../src/engine/create-engine.js';
import type { Engine } from '../../src/engine/types.js';
import type { SpendingModel } from '../../src/model/types.js';
import { fakeGeo, fakeModel } from './fakes.js';

const engine = createEngine({ model: fakeModel(), geo: fakeGeo });
const demographics = { zip: '35210', net_annual_income: 42_000 };
const request = (budget?: Partial<Record<Category, number>>, extra: object = {}) => ({
  demographics: { ...demographics, ...extra },
  ...(budget ? { budget } : {}),
});
const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0);

function value<T>(result: ReturnType<Engine['budget']> | { ok: boolean; value?: T }): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.value as T;
}
const budgetOf = (body: unknown) => value<{ budget: Record<Category, number> }>(engine.budget(body)).budget;
const modelOf = (body: unknown) => value<{ model: Record<Category, number> }>(engine.model(body)).model;
const scoreOf = (body: unknown) => value<Record<string, string>>(engine.score(body));

describe('budget operation', () => {
  it('fills a 42,000 budget in proportion to the model, by largest remainder with ties in category order', () => {
    const budget = budgetOf(request());
    // Quotas = modeled × 42,000 / 34,608: 815.53 for each 2% category, 4,077.67 food at home, 10,194.17 housing.
    // Floors sum to 41,981; the 19 leftover units go to food at home (.67), then the first 18 of the 2% categories.
    expect(budget.food_home).toBe(4078);
    expect(budget.mortgage_and_rent).toBe(10194);
    const twoPercent = CATEGORIES.filter(
      (c) => !['food_home', 'mortgage_and_rent', 'savings', 'other_debt_payments'].includes(c),
    );
    expect(twoPercent.map((c) => budget[c])).toEqual([
      ...new Array(18).fill(816),
      ...new Array(16).fill(815),
    ]);
    expect(sum(budget)).toBe(42_000);
  });

  it('returns every category in contract order, whole and non-negative', () => {
    const budget = budgetOf(request());
    expect(Object.keys(budget)).toEqual([...CATEGORIES]);
    for (const amount of Object.values(budget)) expect(Number.isInteger(amount) && amount >= 0).toBe(true);
  });

  it('keeps given amounts exactly, a given 0 included, and fills the rest to the income', () => {
    const budget = budgetOf(
      request({ mortgage_and_rent: 15_000, food_out: 0, savings: 2_500, other_debt_payments: 1_200 }),
    );
    expect(budget).toMatchObject({
      mortgage_and_rent: 15_000,
      food_out: 0,
      savings: 2_500,
      other_debt_payments: 1_200,
    });
    expect(sum(budget)).toBe(42_000);
  });

  it('keeps savings and other debt payments at 0 unless given', () => {
    const budget = budgetOf(request({ mortgage_and_rent: 15_000 }));
    expect([budget.savings, budget.other_debt_payments]).toEqual([0, 0]);
  });

  it('sums to the net income rounded half away from zero (42,000.50 → 42,001)', () => {
    expect(sum(budgetOf(request(undefined, { net_annual_income: 42_000.5 })))).toBe(42_001);
  });

  it('rounds fractional given amounts to whole units (1,200.50 → 1,201) and still sums to the income', () => {
    const budget = budgetOf(request({ reading: 1_200.5 }));
    expect(budget.reading).toBe(1_201);
    expect(sum(budget)).toBe(42_000);
  });

  it('shows a shortfall honestly: given amounts above the income are kept, filled categories are 0', () => {
    const budget = budgetOf(request({ mortgage_and_rent: 40_000, vehicle_insurance: 5_000 }));
    expect(budget.mortgage_and_rent).toBe(40_000);
    expect(budget.vehicle_insurance).toBe(5_000);
    expect(sum(budget)).toBe(45_000);
    for (const amount of Object.values(budget)) expect(amount).toBeGreaterThanOrEqual(0);
  });

  it('fills nothing when the given amounts exactly use up the income', () => {
    expect(sum(budgetOf(request({ mortgage_and_rent: 42_000 })))).toBe(42_000);
  });

  it('leaves the remainder unallocated when no category left to fill has a modeled amount', () => {
    const allSpending = Object.fromEntries(
      CATEGORIES.filter((c) => c !== 'savings' && c !== 'other_debt_payments').map((c) => [c, 100]),
    );
    const budget = budgetOf(request(allSpending));
    expect(sum(budget)).toBe(3_600);
    expect(budget.savings).toBe(0);
  });
});

describe('model operation', () => {
  it('returns the modeled amounts as whole numbers, savings modeled and other debt payments 0', () => {
    const model = modelOf(request());
    expect(model.food_home).toBe(3_360);
    expect(model.mortgage_and_rent).toBe(8_400);
    expect(model.savings).toBe(7_392);
    expect(model.other_debt_payments).toBe(0);
    expect(Object.keys(model)).toEqual([...CATEGORIES]);
  });

  it('model operation: a model that writes other debt payments → 0 in the model and the budget, as without it', () => {
    const base = fakeModel();
    // The fake's predictInto calls `this.predict`, so it binds this override.
    const writesOtherDebt: SpendingModel = {
      ...base,
      predict(profile, geo, out, excluded) {
        const included = base.predict(profile, geo, out, excluded);
        out[OTHER_DEBT_INDEX] = 999;
        return included;
      },
    };
    const withIt = createEngine({ model: writesOtherDebt, geo: fakeGeo });
    const body = request({ mortgage_and_rent: 15_000 });
    expect(value<{ model: Record<Category, number> }>(withIt.model(body)).model).toEqual(modelOf(body));
    expect(value<{ budget: Record<Category, number> }>(withIt.budget(body)).budget).toEqual(budgetOf(body));
    expect(value(withIt.score(body))).toEqual(scoreOf(body));
  });

  it('rounds modeled amounts half away from zero (2% of 0.8 × 42,031.25 = 672.5 → 673)', () => {
    expect(modelOf(request(undefined, { net_annual_income: 42_031.25 })).food_out).toBe(673);
  });

  it('ignores a valid budget in the request (one body serves all three operations)', () => {
    expect(modelOf(request({ mortgage_and_rent: 30_000, savings: 1 }))).toEqual(modelOf(request()));
  });

  it('still rejects an invalid budget in the request', () => {
    expect(engine.model(request({ savings: -5 })).ok).toBe(false);
  });
});

describe('score operation', () => {
  it('scores the issue example: PSA 391 a month on 42,000 → 80 + 100 × 4,692 / 42,000 = 91.2', () => {
    // Savings of 42,000 − 12 × 391 = 37,308 spent: give every spending category so nothing is modeled.
    const spending = CATEGORIES.filter((c) => c !== 'savings');
    const given = Object.fromEntries(
      spending.map((c, i) => [c, i === 0 ? 37_308 - 1_000 * (spending.length - 1) : 1_000]),
    );
    expect(scoreOf(request(given))).toEqual({
      'Predicted Saving Ability': '391',
      OUTLAY: '91.2',
      SAViNGS: '91.2',
    });
  });

  it('uses the model for every category not given: PSA = (42,000 − 34,608) / 12 = 616, OUTLAY 97.6', () => {
    // OUTLAY = 80 + 100 × 12 × 616 / 42,000 = 97.6; SAViNGS equals it when no savings amount is given.
    expect(scoreOf(request())).toEqual({
      'Predicted Saving Ability': '616',
      OUTLAY: '97.6',
      SAViNGS: '97.6',
    });
  });

  it('counts a requested savings amount only in SAViNGS: 80 + 100 × (7,392 − 3,000) / 42,000 = 90.5', () => {
    expect(scoreOf(request({ savings: 3_000 }))).toEqual({
      'Predicted Saving Ability': '616',
      OUTLAY: '97.6',
      SAViNGS: '90.5',
    });
  });

  it('replaces the modeled amount with a given one and may go negative: housing 20,000 → PSA −351, OUTLAY 70.0', () => {
    // PSA = (42,000 − 34,608 + 8,400 − 20,000) / 12 = −350.67 → −351; OUTLAY = 80 + 100 × 12 × (−351) / 42,000 = 69.97.
    expect(scoreOf(request({ mortgage_and_rent: 20_000 }))).toEqual({
      'Predicted Saving Ability': '-351',
      OUTLAY: '70.0',
      SAViNGS: '70.0',
    });
  });

  it('counts given other debt payments as a fixed expense: 1,200 a year lowers PSA by 100', () => {
    expect(scoreOf(request({ other_debt_payments: 1_200 }))['Predicted Saving Ability']).toBe('516');
  });

  it('clamps scores to 0.0 and 100.0', () => {
    expect(scoreOf(request({ mortgage_and_rent: 1_000_000 }))).toMatchObject({
      OUTLAY: '0.0',
      SAViNGS: '0.0',
    });
    const frugal = createEngine({ model: fakeModel(0.1), geo: fakeGeo });
    expect(value<Record<string, string>>(frugal.score(request()))).toMatchObject({ OUTLAY: '100.0' });
  });

  it('puts the keys in contract order and names the main score after the configured key', () => {
    const renamed = createEngine({ model: fakeModel(), geo: fakeGeo, config: { scoreKey: 'LEGACY' } });
    expect(Object.keys(value<object>(renamed.score(request())))).toEqual([
      'Predicted Saving Ability',
      'LEGACY',
      'SAViNGS',
    ]);
    expect(renamed.scoreKey).toBe('LEGACY');
    expect(Object.keys(scoreOf(request()))).toEqual(['Predicted Saving Ability', 'OUTLAY', 'SAViNGS']);
  });

  it('with a loan: LENDiNG, 80 + 100 × 12 × (616 − 1.25 × 400) / 42,000 = 83.3, after the other three', () => {
    const answer = scoreOf({ ...request(), loan: { monthly_payment: 400 } });
    expect(answer).toEqual({
      'Predicted Saving Ability': '616',
      OUTLAY: '97.6',
      SAViNGS: '97.6',
      LENDiNG: '83.3',
    });
    expect(Object.keys(answer)).toEqual(['Predicted Saving Ability', 'OUTLAY', 'SAViNGS', 'LENDiNG']);
  });

  it('LENDiNG unclamped, falling with the payment; the loan-free answer has no LENDiNG key', () => {
    // 616 − 1.25 × 2,000 = −1,884 a month: 80 − 100 × 22,608 / 42,000 = 26.17 → 26.2; a caller multiplier of 1
    // on 5,000: 616 − 5,000 = −4,384: 80 − 125.26 = −45.26 → −45.3.
    const lending = (loan: object) => scoreOf({ ...request(), loan }).LENDiNG;
    expect(lending({ monthly_payment: 2_000 })).toBe('26.2');
    expect(lending({ monthly_payment: 5_000, stress_multiplier: 1 })).toBe('-45.3');
    const indices = [0, 100, 1_000, 3_000, 10_000].map((p) => Number(lending({ monthly_payment: p })));
    expect(indices).toEqual([...indices].sort((a, b) => b - a));
    expect(new Set(indices).size).toBe(indices.length);
    expect(Object.keys(scoreOf(request()))).not.toContain('LENDiNG');
  });

  it('with a loan, the household answer (batch, evaluate) carries LENDiNG as the scores operation does', () => {
    const body = { ...request(), loan: { monthly_payment: 400 } };
    const household = value<{ score: Record<string, string> }>(engine.household(body));
    expect(household.score).toEqual(scoreOf(body));
  });

  it.each(['', 'Predicted Saving Ability', 'SAViNGS', 'LENDiNG'])(
    'refuses the score key %j, which would clash',
    (scoreKey) => {
      expect(() => createEngine({ model: fakeModel(), geo: fakeGeo, config: { scoreKey } })).toThrow(
        /invalid score key/,
      );
    },
  );
});

describe('request validation (all operations)', () => {
  it.each([
    ['a ZIP sent as a number', { demographics: { zip: 35210, net_annual_income: 1 } }, '/demographics/zip'],
    [
      'an income sent as a string',
      { demographics: { zip: '35210', net_annual_income: '50000' } },
      '/demographics/net_annual_income',
    ],
    ['an unknown demographic field', request(undefined, { color: 'red' }), '/demographics/color'],
    ['an unknown top-level field', { ...request(), extra: 1 }, '/extra'],
    ['an unknown budget category', request({ rent: 5 } as never), '/budget/rent'],
    ['a negative amount', request({ savings: -1 }), '/budget/savings'],
    ['a non-finite amount', request({ savings: Number.POSITIVE_INFINITY }), '/budget/savings'],
    ['a NaN amount', request({ savings: Number.NaN }), '/budget/savings'],
    ['a zero net income', request(undefined, { net_annual_income: 0 }), '/demographics/net_annual_income'],
    [
      'a negative net income',
      request(undefined, { net_annual_income: -5 }),
      '/demographics/net_annual_income',
    ],
    [
      'a net income above 100,000,000',
      request(undefined, { net_annual_income: 100_000_001 }),
      '/demographics/net_annual_income',
    ],
    ['a 4-digit ZIP', request(undefined, { zip: '3521' }), '/demographics/zip'],
    ['a malformed ZIP+4', request(undefined, { zip: '35210-12' }), '/demographics/zip'],
    ['an age of 14', request(undefined, { age: 14 }), '/demographics/age'],
    ['an age of 121', request(undefined, { age: 121 }), '/demographics/age'],
    ['a fractional age', request(undefined, { age: 40.5 }), '/demographics/age'],
    ['a household of 0', request(undefined, { household_members: 0 }), '/demographics/household_members'],
    ['a household of 21', request(undefined, { household_members: 21 }), '/demographics/household_members'],
    ['a missing ZIP', { demographics: { net_annual_income: 1 } }, '/demographics/zip'],
    ['a missing net income', { demographics: { zip: '35210' } }, '/demographics/net_annual_income'],
    ['missing demographics', { budget: {} }, '/demographics'],
    ['a body that is not an object', [1, 2], ''],
  ])('rejects %s with the 400 body naming %s', (_what, body, path) => {
    for (const operation of ['budget', 'model', 'score', 'household'] as const) {
      const result = engine[operation](body);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.message).toBe('Invalid request body');
      expect(result.error.errors.map((e) => e.path)).toContain(path);
      for (const error of result.error.errors) expect(error.message.length).toBeGreaterThan(0);
    }
  });

  it('accepts and normalises a ZIP+4, with the same result as the 5-digit ZIP', () => {
    expect(engine.household(request(undefined, { zip: '35210-1234' }))).toEqual(engine.household(request()));
  });

  it('accepts the documented bounds themselves', () => {
    const edges = { age: 15, household_members: 20, gross_annual_income: 100_000_000, is_homeowner: false };
    expect(engine.household(request({ savings: 100_000_000 }, edges)).ok).toBe(true);
  });
});

describe('household (batch entry point)', () => {
  it('returns exactly the three operation responses plus the geography used', () => {
    const body = request({ mortgage_and_rent: 15_000, savings: 1_000 });
    expect(engine.household(body)).toEqual({
      ok: true,
      value: {
        budget: budgetOf(body),
        model: modelOf(body),
        score: scoreOf(body),
        geo: { geo_level: 'zip', state: 'AL', cbsa: '13820' },
      },
    });
  });

  it('household, ZIP the geography does not know (00000), is refused naming the field', () => {
    expect(engine.household(request(undefined, { zip: '00000' }))).toEqual({
      ok: false,
      error: {
        message: 'Invalid request body',
        errors: [{ path: '/demographics/zip', message: UNKNOWN_ZIP_MESSAGE }],
      },
    });
  });

  it('household, ZIP known only as national (fake geography, 10001), reports the fallback as such', () => {
    const result = engine.household(request(undefined, { zip: '10001' }));
    expect(result.ok && result.value.geo).toEqual({ geo_level: 'national', state: null, cbsa: null });
  });

  it('evaluates the model once per household', () => {
    const model = fakeModel();
    let calls = 0;
    const counting: SpendingModel = {
      ...model,
      predict: (...args) => {
        calls++;
        return model.predict(...args);
      },
    };
    createEngine({ model: counting, geo: fakeGeo }).household(request());
    expect(calls).toBe(1);
  });

  it('does not leak one call into the next (buffers are reused)', () => {
    const first = engine.household(request({ food_home: 9_000 }));
    engine.household(request({ savings: 5_000 }, { net_annual_income: 99_999 }));
    expect(engine.household(request({ food_home: 9_000 }))).toEqual(first);
  });

  it('exposes the model version and price year', () => {
    expect([engine.modelVersion, engine.priceYear]).toEqual(['fake-1', 2024]);
  });
});
