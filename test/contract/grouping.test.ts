/** Validation of `grouped_inputs` and `transformer`: every refusal names the field and the rule. */
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { TRANSFORMER_EXAMPLE } from '../../src/contract/schemas.js';
import { validateRequest } from '../../src/contract/validate.js';

const demographics = { zip: '35210', net_annual_income: 42_000 };

const errorsOf = (body: object) => {
  const validation = validateRequest({ demographics, ...body });
  if (validation.ok) throw new Error('accepted');
  return validation.error.errors;
};

describe('validateRequest with grouped_inputs', () => {
  it('with disjoint groups beside other stated categories: accepts the request', () => {
    const body = {
      demographics,
      budget: { mortgage_and_rent: 12_000 },
      grouped_inputs: [
        { items: ['electricity', 'natural_gas'], value: 2_369 },
        { items: ['food_home'], value: 4_000.5 },
      ],
    };
    expect(validateRequest(body).ok).toBe(true);
  });

  it('with an unknown category, a negative and a non-number total: names each field', () => {
    expect(
      errorsOf({
        grouped_inputs: [
          { items: ['telephone_services'], value: -1 },
          { items: ['electricity'], value: '2369' },
        ],
      }),
    ).toEqual([
      {
        path: '/grouped_inputs/0/items/0',
        message: 'must be one of the 38 budget categories (src/contract/categories.ts)',
      },
      { path: '/grouped_inputs/0/value', message: 'must be >= 0' },
      { path: '/grouped_inputs/1/value', message: 'must be number' },
    ]);
  });

  it('with non-finite totals from a library caller: refuses them at their paths', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY])
      expect(errorsOf({ grouped_inputs: [{ items: ['electricity'], value }] }).map((e) => e.path)).toEqual([
        '/grouped_inputs/0/value',
      ]);
  });

  it('with an empty group, a category twice in one group and an unknown field: names each', () => {
    expect(
      errorsOf({
        grouped_inputs: [
          { items: [], value: 1 },
          { items: ['pets', 'pets'], value: 1 },
          { items: ['reading'], value: 1, label: 'x' },
        ],
      }),
    ).toEqual([
      { path: '/grouped_inputs/0/items', message: 'must not have fewer than 1 items' },
      { path: '/grouped_inputs/1/items', message: 'must not have duplicate items' },
      { path: '/grouped_inputs/2/label', message: 'is not an allowed field' },
    ]);
  });

  it('with a category in two groups, one also in budget, and a total below a cent: names each conflict', () => {
    expect(
      errorsOf({
        budget: { electricity: 900 },
        grouped_inputs: [
          { items: ['natural_gas', 'electricity'], value: 1_000.001 },
          { items: ['water_and_public_services', 'natural_gas'], value: 500 },
        ],
      }),
    ).toEqual([
      { path: '/grouped_inputs/0/value', message: 'must be in whole cents (at most 2 decimals)' },
      {
        path: '/grouped_inputs/0/items/1',
        message:
          '"electricity" is also stated in /budget/electricity: state a category either in budget or in one group',
      },
      {
        path: '/grouped_inputs/1/items/1',
        message: '"natural_gas" is already in /grouped_inputs/0: a category belongs to one group at most',
      },
    ]);
  });
});

describe('validateRequest with a transformer', () => {
  it('with an alias for each of the 38 categories: accepts the request', () => {
    expect(validateRequest({ demographics, transformer: TRANSFORMER_EXAMPLE }).ok).toBe(true);
  });

  it('without an alias for two categories, with an unknown key, an empty and a numeric alias: names each', () => {
    const { savings: _s, other_debt_payments: _o, ...partial } = TRANSFORMER_EXAMPLE;
    expect(
      errorsOf({ transformer: { ...partial, food_home: '', food_out: 3, telephone_services: 'Phone' } }),
    ).toEqual(
      expect.arrayContaining([
        { path: '/transformer/savings', message: 'is required' },
        { path: '/transformer/other_debt_payments', message: 'is required' },
        { path: '/transformer/telephone_services', message: 'is not an allowed field' },
        { path: '/transformer/food_home', message: 'must not have fewer than 1 characters' },
        { path: '/transformer/food_out', message: 'must be string' },
      ]),
    );
  });

  it('with no alias at all: lists every category as required, up to the bound of listed errors', () => {
    const errors = errorsOf({ transformer: {} });
    expect(errors.map((e) => e.path)).toEqual(CATEGORIES.map((c) => `/transformer/${c}`));
  });
});
