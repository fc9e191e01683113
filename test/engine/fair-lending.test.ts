import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUSEHOLD_TYPES, type OperationRequest } from '../../src/contract/schemas.js';
import { fairLendingRequest } from '../../src/engine/fair-lending.js';
import { shippedParts } from './scored-sample.js';

const { engine } = await shippedParts();

const scoreOf = (request: OperationRequest) => {
  const result = engine.score(request);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
};

describe('fairLendingRequest', () => {
  it('leaves out age and household type, keeps the rest as sent', () => {
    const request: OperationRequest = {
      demographics: {
        zip: '35210',
        net_annual_income: 41_004,
        age: 25,
        household_type: 'married_couple',
        household_members: 2,
      },
      budget: { food_home: 100 },
    };
    expect(fairLendingRequest(request)).toEqual({
      demographics: { zip: '35210', net_annual_income: 41_004, household_members: 2 },
      budget: { food_home: 100 },
    });
    expect(request.demographics.age).toBe(25);
  });

  it('two applicants differing only in age and household type: the same fair-lending score', () => {
    const type = fc.option(fc.constantFrom(...HOUSEHOLD_TYPES), { nil: undefined });
    const age = fc.option(fc.integer({ min: 18, max: 100 }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.double({ min: 5_000, max: 400_000, noNaN: true }),
        fc.integer({ min: 2, max: 8 }),
        fc.boolean(),
        age,
        type,
        age,
        type,
        (net, members, isHomeowner, age1, type1, age2, type2) => {
          const request = (
            age: number | undefined,
            household_type: (typeof HOUSEHOLD_TYPES)[number] | undefined,
          ) =>
            fairLendingRequest({
              demographics: {
                zip: '10021',
                net_annual_income: net,
                household_members: members,
                is_homeowner: isHomeowner,
                age,
                household_type,
              },
            });
          expect(scoreOf(request(age1, type1))).toEqual(scoreOf(request(age2, type2)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
