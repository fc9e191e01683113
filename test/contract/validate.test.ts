import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../src/contract/validate.js';

const valid = { demographics: { zip: '35210', net_annual_income: 41004 } };

describe('validateRequest', () => {
  it('accepts the minimal request (zip and net income only)', () => {
    expect(validateRequest(valid).ok).toBe(true);
  });

  it.each([
    ['married_couple', 2],
    ['one_parent', 2],
    ['single_or_other', 1],
    ['one_parent', undefined],
  ])('accepts household_type %s with household_members %s', (household_type, household_members) => {
    const demographics = { ...valid.demographics, household_type, household_members };
    expect(validateRequest({ demographics }).ok).toBe(true);
  });

  it('normalises a ZIP+4 to its 5-digit ZIP', () => {
    const result = validateRequest({ demographics: { zip: '35210-1234', net_annual_income: 1 } });
    expect(result.ok && result.request.demographics.zip).toBe('35210');
  });

  it.each([
    [{ demographics: { zip: 35210, net_annual_income: 1 } }, '/demographics/zip', 'must be string'],
    [
      { demographics: { zip: '35210', net_annual_income: '50000' } },
      '/demographics/net_annual_income',
      'must be number',
    ],
    [
      { demographics: { zip: '35210', net_annual_income: 0 } },
      '/demographics/net_annual_income',
      'must be > 0',
    ],
    [
      { demographics: { zip: '3521', net_annual_income: 1 } },
      '/demographics/zip',
      'must be a 5-digit ZIP code or ZIP+4 (12345 or 12345-6789)',
    ],
    [
      { demographics: { zip: '35210', net_annual_income: 1, color: 'red' } },
      '/demographics/color',
      'is not an allowed field',
    ],
    [{ demographics: { net_annual_income: 1 } }, '/demographics/zip', 'is required'],
    [{ demographics: { zip: '35210', net_annual_income: 1, age: 14 } }, '/demographics/age', 'must be >= 15'],
    [
      { demographics: { zip: '35210', net_annual_income: 1, household_type: 'couple' } },
      '/demographics/household_type',
      'must be one of "married_couple", "one_parent", "single_or_other"',
    ],
    [
      {
        demographics: {
          zip: '35210',
          net_annual_income: 1,
          household_type: 'married_couple',
          household_members: 1,
        },
      },
      '/demographics/household_type',
      'must be "single_or_other" when household_members is 1 ("married_couple" needs at least 2 members)',
    ],
    [
      {
        demographics: {
          zip: '35210',
          net_annual_income: 1,
          household_type: 'one_parent',
          household_members: 1,
        },
      },
      '/demographics/household_type',
      'must be "single_or_other" when household_members is 1 ("one_parent" needs at least 2 members)',
    ],
    [
      { demographics: { zip: '35210', net_annual_income: 1 }, budget: { savings: -1 } },
      '/budget/savings',
      'must be >= 0',
    ],
  ])('rejects %j with the field path and rule', (body, path, message) => {
    const result = validateRequest(body);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).toBe('Invalid request body');
      expect(result.error.errors).toContainEqual({ path, message });
    }
  });
});
