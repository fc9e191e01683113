import { CATEGORIES, CATEGORY_COUNT, type CategoryRecord } from '../contract/categories.js';
import { apportion } from './apportion.js';
import { categoryRecord } from './record.js';
import { roundHalfAwayFromZero } from './rounding.js';

/** Number of periods in a year. Responses are annual; callers convert with `amountsForPeriod`. */
export const PERIODS_PER_YEAR = {
  annual: 1,
  monthly: 12,
  'semi-monthly': 24,
  biweekly: 26,
  weekly: 52,
  daily: 365,
} as const;

export type Period = keyof typeof PERIODS_PER_YEAR;

export const PERIOD_NAMES = Object.keys(PERIODS_PER_YEAR) as Period[];

export const isPeriod = (name: string): name is Period => Object.hasOwn(PERIODS_PER_YEAR, name);

const ALL_CATEGORIES = new Uint8Array(CATEGORY_COUNT).fill(1);

/**
 * Converts annual whole amounts (a budget or a model) to one period, in whole units. Each amount is
 * divided by the number of periods and the results are rounded by largest remainder (the engine's tie
 * rule), so the period amounts add up exactly to the annual total divided by the number of periods,
 * rounded half away from zero: a budget that adds up to the income still adds up to the income per period.
 * Annual amounts are returned unchanged.
 */
export function amountsForPeriod(annual: CategoryRecord, period: Period): CategoryRecord {
  const perYear = PERIODS_PER_YEAR[period];
  if (perYear === 1) return { ...annual };
  const amounts = Float64Array.from(CATEGORIES, (c) => annual[c]);
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  const out = new Float64Array(CATEGORY_COUNT);
  apportion(roundHalfAwayFromZero(total / perYear), amounts, ALL_CATEGORIES, out);
  return categoryRecord(out);
}
