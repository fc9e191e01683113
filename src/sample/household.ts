/**
 * Draws one clean household: a CE record picked by survey weight (weighted bootstrap), smoothed with a
 * little jitter so rows are not copies of the 30k source records, placed in a ZIP of its state, with the
 * fixed expenses a lender would typically know stated for some of the rows.
 */
import { LIMITS } from '../contract/limits.js';
import type { Household } from './columns.js';
import type { Population } from './population.js';
import type { Random } from './random.js';

/**
 * Smoothing, a product choice: ±5% (1 sd) on money, ±2 years on age. Small next to the spread between
 * records, large enough that a 10M-row file has no exact duplicates of a source record's incomes.
 */
const MONEY_JITTER_SIGMA = 0.05;
const AGE_JITTER_YEARS = 2;

/**
 * How often a row states each fixed expense (illustrative, not from data): housing cost is usually on a
 * loan application, health premiums and savings goals sometimes, other debts less often.
 */
const STATED_SHARE = {
  mortgageAndRent: 0.6,
  healthInsurance: 0.3,
  vehicle: 0.5,
  otherDebt: 0.15,
  savings: 0.2,
} as const;

/**
 * CE records no loan payments, only that a household pays vehicle finance charges or leases; the payment
 * itself is illustrative: median $550 a month, spread ×/÷1.4 (1 sd).
 */
const VEHICLE_PAYMENT = { medianMonthly: 550, sigma: 0.35 } as const;

/** Other debt payments and savings goals as a share of take-home pay (illustrative ranges). */
const OTHER_DEBT_SHARE = { low: 0.02, high: 0.12 } as const;
const SAVINGS_SHARE = { low: 0.03, high: 0.15 } as const;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** A stated amount with probability `share` when `applies`, else null (not given). */
function stated(random: Random, share: number, applies: boolean, amount: () => number): number | null {
  return applies && random.float() < share ? Math.round(amount()) : null;
}

export function drawHousehold(id: string, population: Population, random: Random): Household {
  const record = population.drawHousehold(random);
  // One factor for both incomes keeps each record's tax and contribution rate (and gross ≥ take-home).
  const incomeFactor = random.lognormalFactor(MONEY_JITTER_SIGMA);
  const netAnnualIncome = Math.round(record.netAnnualIncome * incomeFactor);
  // One literal with every field (no spread): this runs 10M times for a benchmark file.
  return {
    id,
    age: clamp(
      record.age + random.integer(-AGE_JITTER_YEARS, AGE_JITTER_YEARS),
      LIMITS.ageMin,
      LIMITS.ageMax,
    ),
    gross_annual_income: Math.round(record.grossAnnualIncome * incomeFactor),
    household_members: record.householdMembers,
    is_homeowner: record.isHomeowner,
    net_annual_income: netAnnualIncome,
    zip: population.drawZip(record, random),
    mortgage_and_rent: stated(
      random,
      STATED_SHARE.mortgageAndRent,
      record.mortgageAndRent > 0,
      () => record.mortgageAndRent * random.lognormalFactor(MONEY_JITTER_SIGMA),
    ),
    vehicle_purchase_and_lease: stated(
      random,
      STATED_SHARE.vehicle,
      record.vehicleFinanced,
      () => 12 * VEHICLE_PAYMENT.medianMonthly * random.lognormalFactor(VEHICLE_PAYMENT.sigma),
    ),
    health_insurance: stated(
      random,
      STATED_SHARE.healthInsurance,
      record.healthInsurance > 0,
      () => record.healthInsurance * random.lognormalFactor(MONEY_JITTER_SIGMA),
    ),
    other_debt_payments: stated(
      random,
      STATED_SHARE.otherDebt,
      true,
      () => netAnnualIncome * random.uniform(OTHER_DEBT_SHARE.low, OTHER_DEBT_SHARE.high),
    ),
    savings: stated(
      random,
      STATED_SHARE.savings,
      true,
      () => netAnnualIncome * random.uniform(SAVINGS_SHARE.low, SAVINGS_SHARE.high),
    ),
  };
}
