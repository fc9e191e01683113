/** Generators of request field values for the validation tests: mostly valid, now and then a wrong one. */
import fc from 'fast-check';
import { LIMITS } from '../../src/contract/limits.js';
import { HOUSEHOLD_TYPES } from '../../src/contract/schemas.js';

/** A valid value fifteen times in sixteen, else one of `wrong`. */
export const mostly = <T>(valid: fc.Arbitrary<T>, wrong: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 15, arbitrary: valid }, { weight: 1, arbitrary: wrong });

/** A valid amount of money, whole or not. */
export const amount = fc.oneof(
  fc.integer({ min: 0, max: LIMITS.amountMax }),
  fc.double({ min: 0, max: LIMITS.amountMax, noNaN: true }),
);

/** A valid net income: at least LIMITS.netIncomeMin. */
const netIncome = fc.oneof(
  fc.integer({ min: LIMITS.netIncomeMin, max: LIMITS.amountMax }),
  fc.double({ min: LIMITS.netIncomeMin, max: LIMITS.amountMax, noNaN: true }),
);

/** Each demographic field's values (net incomes of 0 and below the minimum are among the wrong ones). */
export const demographicValues = (wrong: fc.Arbitrary<unknown>) => ({
  zip: mostly(fc.constantFrom('35210', '00000', '99999', '35210-1234'), wrong),
  net_annual_income: mostly(fc.oneof(netIncome, fc.constant(0), fc.constant(0.5)), wrong),
  age: mostly(fc.integer({ min: LIMITS.ageMin, max: LIMITS.ageMax }), wrong),
  household_members: mostly(fc.integer({ min: LIMITS.householdMin, max: LIMITS.householdMax }), wrong),
  is_homeowner: mostly(fc.boolean(), wrong),
  household_type: mostly(fc.constantFrom(...HOUSEHOLD_TYPES), wrong),
  gross_annual_income: mostly(amount, wrong),
});
