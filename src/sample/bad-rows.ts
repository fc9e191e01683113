/**
 * Deliberately bad rows, so the rejects path of `outlay score` is visible. Each kind breaks exactly one
 * rule of the request contract (src/contract/schemas.ts) and names the error validateRequest reports for
 * it, once the row's cells are read into a request (numbers as numbers, true/false as booleans, empty
 * cells as not given, anything else as text). sample-data/README.md lists them.
 */
import { LIMITS } from '../contract/limits.js';
import type { SampleRow } from './columns.js';

export interface BadRowKind {
  readonly name: string;
  readonly problem: string;
  readonly corrupt: (row: SampleRow) => void;
  /** The error validateRequest reports for the row (path into the request body, message). */
  readonly rejects: { readonly path: string; readonly message: string };
}

const ZIP_MESSAGE = 'must be a 5-digit ZIP code or ZIP+4 (12345 or 12345-6789)';

/** In the order they are placed; `--bad-rows K` uses the first K kinds, cycling when K exceeds the list. */
export const BAD_ROW_KINDS: readonly BadRowKind[] = [
  {
    name: 'zip_four_digits',
    problem: 'ZIP with its first digit lost (as spreadsheets do to leading zeros)',
    corrupt: (row) => {
      row.zip = String(row.zip).slice(1);
    },
    rejects: { path: '/demographics/zip', message: ZIP_MESSAGE },
  },
  {
    name: 'zip_with_letters',
    problem: 'ZIP with a letter O typed for a zero',
    corrupt: (row) => {
      row.zip = `${String(row.zip).slice(0, 4)}O`;
    },
    rejects: { path: '/demographics/zip', message: ZIP_MESSAGE },
  },
  {
    name: 'negative_income',
    problem: 'gross income negative',
    corrupt: (row) => {
      row.gross_annual_income = -Math.abs(Number(row.gross_annual_income)) || -1;
    },
    rejects: { path: '/demographics/gross_annual_income', message: 'must be >= 0' },
  },
  {
    name: 'zero_net_income',
    problem: 'net income 0',
    corrupt: (row) => {
      row.net_annual_income = 0;
    },
    rejects: { path: '/demographics/net_annual_income', message: 'must be > 0' },
  },
  {
    name: 'child_age',
    problem: 'age 7',
    corrupt: (row) => {
      row.age = 7;
    },
    rejects: { path: '/demographics/age', message: `must be >= ${LIMITS.ageMin}` },
  },
  {
    name: 'empty_household',
    problem: 'household of 0 members',
    corrupt: (row) => {
      row.household_members = 0;
    },
    rejects: { path: '/demographics/household_members', message: 'must be >= 1' },
  },
  {
    name: 'homeowner_maybe',
    problem: 'is_homeowner "maybe"',
    corrupt: (row) => {
      row.is_homeowner = 'maybe';
    },
    rejects: { path: '/demographics/is_homeowner', message: 'must be boolean' },
  },
  {
    name: 'income_in_words',
    problem: 'net income written in words ("forty thousand")',
    corrupt: (row) => {
      row.net_annual_income = 'forty thousand';
    },
    rejects: { path: '/demographics/net_annual_income', message: 'must be number' },
  },
  {
    name: 'negative_fixed_expense',
    problem: 'mortgage_and_rent negative (a refund typed as a payment)',
    corrupt: (row) => {
      row.mortgage_and_rent = -(Number(row.mortgage_and_rent) || 1200);
    },
    rejects: { path: '/budget/mortgage_and_rent', message: 'must be >= 0' },
  },
  {
    name: 'missing_zip',
    problem: 'ZIP empty',
    corrupt: (row) => {
      row.zip = null;
    },
    rejects: { path: '/demographics/zip', message: 'is required' },
  },
  {
    name: 'household_too_large',
    problem: `household of ${LIMITS.householdMax + 5} members (the documented maximum is ${LIMITS.householdMax})`,
    corrupt: (row) => {
      row.household_members = LIMITS.householdMax + 5;
    },
    rejects: { path: '/demographics/household_members', message: `must be <= ${LIMITS.householdMax}` },
  },
  {
    name: 'fractional_age',
    problem: 'age 34.5',
    corrupt: (row) => {
      row.age = 34.5;
    },
    rejects: { path: '/demographics/age', message: 'must be integer' },
  },
];

/** The kind of the k-th bad row (0-based, in file order). */
export const badRowKind = (k: number): BadRowKind => BAD_ROW_KINDS[k % BAD_ROW_KINDS.length]!;
