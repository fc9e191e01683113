import type { Category } from '../contract/categories.js';

/** Fixed expenses a sample household may state, named like their budget categories. */
export const FIXED_EXPENSE_COLUMNS = [
  'mortgage_and_rent',
  'vehicle_purchase_and_lease',
  'health_insurance',
  'other_debt_payments',
  'savings',
] as const satisfies readonly Category[];

export type FixedExpenseColumn = (typeof FIXED_EXPENSE_COLUMNS)[number];

/** Columns of a sample file, in file order (the input columns `outlay score` reads). */
export const SAMPLE_COLUMNS = [
  'id',
  'age',
  'gross_annual_income',
  'household_members',
  'is_homeowner',
  'net_annual_income',
  'zip',
  ...FIXED_EXPENSE_COLUMNS,
] as const;

export type SampleColumn = (typeof SAMPLE_COLUMNS)[number];

/** A clean generated household; a null fixed expense is "not given" (an empty cell). */
export interface Household {
  id: string;
  age: number;
  gross_annual_income: number;
  household_members: number;
  is_homeowner: boolean;
  net_annual_income: number;
  zip: string;
  mortgage_and_rent: number | null;
  vehicle_purchase_and_lease: number | null;
  health_insurance: number | null;
  other_debt_payments: number | null;
  savings: number | null;
}

/** One written row: a household, or a deliberately bad row whose cells may hold the wrong kind of value. */
export type SampleRow = Record<SampleColumn, string | number | boolean | null>;
