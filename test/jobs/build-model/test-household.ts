/**
 * One renter CU of a synthetic sample for the build's estimators: a 40-year-old couple, urban, $40k
 * take-home, a quarter in scope, weight 1; a test sets what it varies.
 */
import type { Household } from '../../../jobs/build-model/extract-households.js';

export function testHousehold(id: number, spending: Float64Array, fields: Partial<Household>): Household {
  return {
    newid: `${id}1`,
    weight: 1,
    monthsInScope: 3,
    age: 40,
    members: 2,
    cutenure: 4,
    isHomeowner: false,
    stateFips: '36',
    region: 1,
    urban: true,
    popsize: 0,
    incRank: 0.5,
    famType: 1,
    grossIncome: 50_000,
    takeHome: 40_000,
    spending,
    ...fields,
  };
}
