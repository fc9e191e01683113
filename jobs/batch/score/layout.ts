/**
 * The shape of the job's output: which input columns there are, which feed cohorts, the derived columns
 * appended to every scored row (all derived from CATEGORIES, so a new category needs no change here), the
 * explanation columns after them, and how the score is computed (basis, profile).
 */
import { CATEGORIES } from '../../../src/contract/categories.js';
import type { Basis } from '../../../src/contract/schemas.js';
import type { ScoreProfile } from '../../../src/engine/score-details.js';
import type { RequestPlan } from '../io/column-mapping.js';
import { type CsvDialect, DEFAULT_CSV_DIALECT } from '../io/csv-encoding.js';
import type { LoanPlan } from '../io/loan-columns.js';

export const SCORE_COLUMNS = ['predicted_saving_ability', 'outlay_score', 'savings_score'] as const;
export const GEO_COLUMNS = ['geo_level', 'state', 'cbsa'] as const;

export const DERIVED_COLUMNS: readonly string[] = [
  ...CATEGORIES.map((c) => `budget_${c}`),
  ...CATEGORIES.map((c) => `model_${c}`),
  ...SCORE_COLUMNS,
  ...GEO_COLUMNS,
];

/**
 * The score's explanation (docs/scores.md): the index and SAViNGS index unclamped, the index's percentile,
 * the main score's reason codes and the expense flags, each list joined by `;` (empty when none). An input
 * column of the same name keeps its name, and the job's takes the prefix `outlay_` (as in the rejects file).
 */
export const EXPLANATION_COLUMNS = [
  'outlay_index',
  'savings_index',
  'outlay_percentile',
  'reason_codes',
  'expense_flags',
] as const;

/**
 * Lender mode of a row with a loan (docs/scores.md, "Lender mode"), after the explanation and only when the
 * input gives loans: the monthly payment read or derived (amount, term, rate), the surplus after it
 * stressed, the lending index and score, and the lending index's reason codes joined by `;`. Empty for a
 * row without a loan.
 */
export const LENDING_COLUMNS = [
  'loan_payment',
  'lending_surplus',
  'lending_index',
  'lending_score',
  'lending_reason_codes',
] as const;

export const REJECT_ROW_COLUMN = 'row_number';
export const REJECT_REASON_COLUMN = 'reject_reason';

/** How scorers encode their output: CSV text, or columns for an Arrow or Parquet file. */
export type OutputFormat = 'csv' | 'arrow';

/** The format of an input or scored file. */
export type FileFormat = 'csv' | 'arrow' | 'parquet';

export const outputFormatOf = (file: FileFormat): OutputFormat => (file === 'csv' ? 'csv' : 'arrow');

/** Everything a scorer (main thread or worker) needs to turn rows into output; plain data, cloneable. */
export interface OutputLayout {
  readonly header: readonly string[];
  readonly plan: RequestPlan;
  readonly format: OutputFormat;
  /** Key of the main score in score responses. */
  readonly scoreKey: string;
  /** `--group-by` columns: name and input column index. */
  readonly groups: readonly { readonly name: string; readonly column: number }[];
  /** EXPLANATION_COLUMNS as the scored file names them (`outlay_` before a name the input has). */
  readonly explanationColumns: readonly string[];
  /**
   * The row number's column, first in the scored and rejects files: `row_number`, or `outlay_row_number`
   * when the input has a column of that name.
   */
  readonly rowNumberColumn: string;
  readonly scoring: ScoringOptions;
  /** The input's loan columns, null when it has none (then no lending columns are written). */
  readonly loan: LoanPlan | null;
  /** LENDING_COLUMNS as the scored file names them, empty without loans. */
  readonly lendingColumns: readonly string[];
  /** How the CSV files (scored rows, rejects, column dictionary) are written: `--excel` or not. */
  readonly csv: CsvDialect;
}

/** How the job computes the score (`--basis`, `--score-profile`; docs/scores.md). */
export interface ScoringOptions {
  readonly basis: Basis;
  readonly profile: ScoreProfile;
}

export const DEFAULT_SCORING: ScoringOptions = { basis: 'stated', profile: 'standard' };

export function makeLayout(
  header: readonly string[],
  plan: RequestPlan,
  format: OutputFormat,
  scoreKey: string,
  groupBy: readonly string[],
  scoring: ScoringOptions = DEFAULT_SCORING,
  loan: LoanPlan | null = null,
  csv: CsvDialect = DEFAULT_CSV_DIALECT,
): OutputLayout {
  const derived = new Set(DERIVED_COLUMNS);
  const clash = header.find((name) => derived.has(name));
  if (clash !== undefined) {
    throw new Error(
      `the input already has a column "${clash}", which the scored output adds; rename or drop it`,
    );
  }
  const groups = groupBy.map((name) => {
    const column = header.indexOf(name);
    if (column < 0) throw new Error(`--group-by ${name}: the input has no such column`);
    return { name, column };
  });
  const explanationColumns = EXPLANATION_COLUMNS.map((name) => unusedName(name, header));
  const rowNumberColumn = unusedName(REJECT_ROW_COLUMN, header);
  if (loan !== null && format !== 'csv')
    throw new Error(
      'the input gives loans, whose lending columns are written to CSV output: give --format csv',
    );
  const lendingColumns = loan === null ? [] : LENDING_COLUMNS.map((name) => unusedName(name, header));
  return {
    header,
    plan,
    format,
    scoreKey,
    groups,
    explanationColumns,
    rowNumberColumn,
    scoring,
    loan,
    lendingColumns,
    csv,
  };
}

/**
 * The scored file's columns: the row number (the input's, as in the rejects file: shards and resumed runs
 * keep the whole input's numbering), the input's columns, the derived columns, the explanation.
 */
export const scoredHeader = (layout: OutputLayout): string[] => [
  layout.rowNumberColumn,
  ...layout.header,
  ...DERIVED_COLUMNS,
  ...layout.explanationColumns,
  ...layout.lendingColumns,
];
/**
 * The rejects file's columns: the row number, the input's columns, the reason. When the input already has
 * a column of one of those names, the job's column takes the prefix `outlay_` (again, until the name is
 * free), so every header name stays unique and the input's columns keep their names.
 */
export const rejectsHeader = (layout: OutputLayout): string[] => [
  layout.rowNumberColumn,
  ...layout.header,
  unusedName(REJECT_REASON_COLUMN, layout.header),
];

function unusedName(name: string, taken: readonly string[]): string {
  let candidate = name;
  while (taken.includes(candidate)) candidate = `outlay_${candidate}`;
  return candidate;
}
