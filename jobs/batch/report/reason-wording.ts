/**
 * Reason codes and expense flags in words, for the report's frequency tables. A scored row's own wording
 * has its amounts (docs/scores.md, "Reason codes"); a table of many rows says what the code means.
 */
import { CATEGORY_DESCRIPTIONS } from '../../../src/engine/category-kinds.js';

const REASONS: Readonly<Record<string, string>> = {
  INCOME_BELOW_PEER_SPENDING: 'Take-home pay is below what comparable households spend',
  OTHER_DEBT_PAYMENTS: 'Other debt payments take a share of take-home pay',
  SAVINGS_TARGET: 'The stated savings target takes a share of take-home pay',
  LOAN_PAYMENT: 'The proposed loan payment, with the stress buffer, takes a share of take-home pay',
};

const FLAGS: Readonly<Record<string, string>> = {
  BASICS_TOTAL_BELOW_PEERS:
    "Two or more basics are stated and their total is below their peers' 25th percentiles together",
  GROSS_BELOW_TAKE_HOME: 'Gross income is below take-home pay (often a typo or swapped fields)',
};

const labelOf = (category: string): string =>
  (CATEGORY_DESCRIPTIONS as Readonly<Record<string, { label: string } | undefined>>)[category]?.label ??
  category;

/** A reason code's meaning; the code itself when it is not known here. */
export function reasonWording(code: string): string {
  const known = REASONS[code];
  if (known !== undefined) return known;
  if (code.startsWith('HIGH_'))
    return `Stated ${labelOf(code.slice(5).toLowerCase())} is above what comparable households spend`;
  return code;
}

/** An expense flag's meaning (`CODE:category` or `CODE`); the flag itself when it is not known here. */
export function flagWording(flag: string): string {
  const [code = '', category] = flag.split(':');
  if (code === 'BELOW_PEERS' && category !== undefined)
    return `Stated ${labelOf(category)} is below the peers' 25th percentile`;
  return FLAGS[code] ?? flag;
}
