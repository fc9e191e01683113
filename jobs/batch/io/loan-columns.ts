/**
 * The applicant's proposed loan, read from an input row: `loan_monthly_payment`, or `loan_amount` with
 * `loan_term_months` and `loan_rate` (or `--loan-rate` for every row), whose annuity payment
 * (src/engine/loan-payment.ts) is then the payment. Columns are recognised by name like the contract's
 * (without regard to case, spaces and underscores) or renamed to these names by `--map`. A row whose loan
 * cells are all empty has no loan; one with some but not all of them, or one that cannot be read, is
 * rejected naming the column. docs/batch.md, "The applicant's loan".
 */

import { LIMITS } from '../../../src/contract/limits.js';
import type { ErrorItem } from '../../../src/contract/schemas.js';
import { annuityPayment } from '../../../src/engine/loan-payment.js';
import { roundHalfAwayFromZero } from '../../../src/engine/rounding.js';
import { type ColumnMap, headerKey } from './column-mapping.js';
import { LOAN_FIELDS, type LoanField } from './loan-fields.js';
import { PLAIN_NUMBER } from './row-request.js';
import type { Cell } from './typed-columns.js';

/** The longest term read, in months (50 years: longer than any mortgage; a typo above it is refused). */
export const LOAN_TERM_MAX = 600;

/** How a file gives its loans: the input columns of the fields, and the rate of every row (`--loan-rate`). */
export interface LoanPlan {
  readonly columns: Readonly<Partial<Record<LoanField, number>>>;
  /** `--loan-rate`, as a fraction; only with `loan_amount` and no `loan_rate` column. */
  readonly fixedRate: number | null;
}

const FIELD_BY_KEY = new Map(LOAN_FIELDS.map((field) => [headerKey(field), field]));

const isLoanField = (name: string): name is LoanField => (LOAN_FIELDS as readonly string[]).includes(name);

/**
 * The file's loan columns, or null when it has none. Fails on an incomplete or ambiguous set of columns,
 * naming what is missing or what to drop.
 */
export function planLoan(
  header: readonly string[],
  map: ColumnMap,
  fixedRate: string | undefined,
): LoanPlan | null {
  const columns: Partial<Record<LoanField, number>> = {};
  header.forEach((name, column) => {
    const renamed = map.columns[name];
    const field = renamed === undefined ? FIELD_BY_KEY.get(headerKey(name)) : renamed;
    if (field === undefined || !isLoanField(field)) return;
    if (columns[field] !== undefined)
      throw new Error(
        `columns "${header[columns[field]]}" and "${name}" both supply ${field}; rename one or fix the column map`,
      );
    columns[field] = column;
  });
  const rate = fixedRate === undefined ? null : rateOf(fixedRate);
  if (typeof rate === 'string') throw new Error(`--loan-rate ${rate}`);
  checkLoanColumns(columns, rate);
  return Object.keys(columns).length === 0 ? null : { columns, fixedRate: rate };
}

function checkLoanColumns(columns: Partial<Record<LoanField, number>>, rate: number | null): void {
  const has = (field: LoanField) => columns[field] !== undefined;
  if (has('loan_monthly_payment')) {
    const other = LOAN_FIELDS.slice(1).filter(has);
    if (other.length > 0 || rate !== null)
      throw new Error(
        `the input gives the loan both as loan_monthly_payment and as ${[...other, ...(rate === null ? [] : ['--loan-rate'])].join(', ')}: give one (the payment, or amount, term and rate)`,
      );
    return;
  }
  const anyOf = has('loan_amount') || has('loan_term_months') || has('loan_rate') || rate !== null;
  if (!anyOf) return;
  if (has('loan_rate') && rate !== null)
    throw new Error('the input has a loan_rate column and --loan-rate was given: give one');
  const missing = [
    ...(['loan_amount', 'loan_term_months'] as const).filter((field) => !has(field)),
    ...(has('loan_rate') || rate !== null ? [] : ['loan_rate (or --loan-rate)']),
  ];
  if (missing.length > 0)
    throw new Error(
      `the loan is given by amount, term and rate, but the input has no column for ${missing.join(', ')} (or give loan_monthly_payment)`,
    );
}

/** A row's loan: its monthly payment (whole cents), null when the row gives none, or why it cannot be read. */
export type RowLoan =
  | { readonly ok: true; readonly payment: number | null }
  | { readonly ok: false; readonly errors: ErrorItem[] };

const NO_LOAN: RowLoan = { ok: true, payment: null };

const isEmpty = (cell: Cell) => cell === null || cell === undefined || cell === '';

export function readLoan(plan: LoanPlan, cellOf: (column: number) => Cell): RowLoan {
  const { columns } = plan;
  const given = LOAN_FIELDS.filter(
    (field) => columns[field] !== undefined && !isEmpty(cellOf(columns[field]!)),
  );
  if (given.length === 0) return NO_LOAN;
  if (columns.loan_monthly_payment !== undefined) {
    const payment = amountOf(cellOf(columns.loan_monthly_payment));
    return typeof payment === 'string' ? refused('loan_monthly_payment', payment) : paymentOf(payment);
  }
  const missing = LOAN_FIELDS.filter((field) => columns[field] !== undefined && !given.includes(field));
  if (missing.length > 0)
    return {
      ok: false,
      errors: missing.map((field) => ({
        path: pathOf(field),
        message: `is required when the row gives ${given.join(', ')}`,
      })),
    };
  const amount = amountOf(cellOf(columns.loan_amount!));
  if (typeof amount === 'string') return refused('loan_amount', amount);
  const term = termOf(cellOf(columns.loan_term_months!));
  if (typeof term === 'string') return refused('loan_term_months', term);
  const rate = columns.loan_rate === undefined ? plan.fixedRate! : rateOf(cellOf(columns.loan_rate));
  if (typeof rate === 'string') return refused('loan_rate', rate);
  return paymentOf(annuityPayment(amount, term, rate));
}

/** The payment in whole cents, within the contract's bound for `loan.monthly_payment`. */
function paymentOf(payment: number): RowLoan {
  if (payment > LIMITS.amountMax)
    return refused(
      'loan_monthly_payment',
      `${payment} is above the contract's maximum of ${LIMITS.amountMax}`,
    );
  return { ok: true, payment: roundHalfAwayFromZero(payment * 100) / 100 };
}

const pathOf = (field: LoanField) => `/loan/${field.slice('loan_'.length)}`;
const refused = (field: LoanField, message: string): RowLoan => ({
  ok: false,
  errors: [{ path: pathOf(field), message }],
});

/** A plain number from a cell (digits, optional sign and decimals; typed numbers as they are), or why not. */
function numberOf(cell: Cell): number | string {
  if (typeof cell === 'number' && Number.isFinite(cell)) return cell;
  if (typeof cell === 'bigint' && Number.isSafeInteger(Number(cell))) return Number(cell);
  if (typeof cell === 'string' && PLAIN_NUMBER.test(cell)) return Number(cell);
  return `must be a number written with digits, got ${JSON.stringify(String(cell))}`;
}

function amountOf(cell: Cell): number | string {
  const value = numberOf(cell);
  if (typeof value === 'string') return value;
  return value >= 0 && value <= LIMITS.amountMax
    ? value
    : `must be between 0 and ${LIMITS.amountMax}, got ${value}`;
}

/** LendingClub and other loan systems write the term with its unit: "36 months" (a leading space too). */
const MONTHS_TEXT = /^\s*([0-9]+) months\s*$/;

function termOf(cell: Cell): number | string {
  const months =
    typeof cell === 'string' && MONTHS_TEXT.test(cell) ? Number(MONTHS_TEXT.exec(cell)![1]) : numberOf(cell);
  if (typeof months === 'string') return `${months} (whole months, e.g. 36 or "36 months")`;
  return Number.isInteger(months) && months >= 1 && months <= LOAN_TERM_MAX
    ? months
    : `must be a whole number of months from 1 to ${LOAN_TERM_MAX}, got ${months}`;
}

/** "12.5%" (a leading space allowed, as LendingClub writes it) is a percent; a plain number is a fraction. */
const PERCENT_TEXT = /^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*%$/;

/**
 * An annual rate as a fraction: "12.5%" (percent, with its sign) or 0.125 (a plain number is a fraction,
 * below 1), so that no value reads two ways: a plain 12.5 is refused, not taken as a percent. At most 100 %.
 */
export function rateOf(cell: Cell): number | string {
  const percent = typeof cell === 'string' ? PERCENT_TEXT.exec(cell) : null;
  if (percent !== null) {
    const value = Number(percent[1]) / 100;
    return value >= 0 && value <= 1 ? value : `must be from 0% to 100%, got ${String(cell).trim()}`;
  }
  const value = numberOf(cell);
  if (typeof value === 'string')
    return value.replace('must be a number', 'must be a percent ("12.5%") or a fraction (0.125)');
  if (value >= 0 && value < 1) return value;
  return `must be a percent written with % ("12.5%") or a fraction below 1 (0.125), got ${value}: a plain number is read as a fraction, so ${value} would be ${value * 100}%`;
}
