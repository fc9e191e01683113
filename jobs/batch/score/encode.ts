/**
 * Turns one batch of row outcomes into output: CSV text (for CSV output) or typed columns (for Arrow
 * output), reject lines, reject reasons and the few numbers per scored row the summary needs. Runs where
 * the rows were scored (in a worker, so the main thread only writes), and allocates per batch, not per row.
 */
import { CATEGORIES, CATEGORY_COUNT } from '../../../src/contract/categories.js';
import type { ErrorItem } from '../../../src/contract/schemas.js';
import { PSA_KEY } from '../../../src/contract/schemas.js';
import { formatScore } from '../../../src/engine/rounding.js';
import { CsvBytes } from '../io/csv-encoding.js';
import { type CellGrid, cellAt } from '../io/input-source.js';
import type { Cell } from '../io/typed-columns.js';
import { type Utf8Buffers, Utf8ColumnBuilder } from '../io/utf8-column.js';
import { zipPadded } from '../io/zip-cell.js';
import { type ScoredRows, type ScoredRowsBuffer, scoredRowsBuffer } from '../report/summary.js';
import type { ExplanationValues, WrittenFigures } from './explain.js';
import { LENDING_COLUMNS, type OutputLayout } from './layout.js';
import type { LendingValues } from './lending.js';

/** Derived values of the scored rows of a batch, column by column (Arrow output). */
export interface ScoredColumns {
  /** Each scored row's 1-based input row number (the rejects file's numbering). */
  readonly rowNumber: Int32Array;
  /**
   * CATEGORY_COUNT columns, column c from `c × categoryStride`: its first `scored` values are the scored
   * rows' amounts, the rest is room the batch's rejects left unused.
   */
  readonly budget: Int32Array;
  readonly model: Int32Array;
  readonly categoryStride: number;
  readonly psa: Int32Array;
  readonly score: Float64Array;
  readonly savingsScore: Float64Array;
  readonly geoLevel: Utf8Buffers;
  readonly state: Utf8Buffers;
  readonly cbsa: Utf8Buffers;
  /** The explanation columns (EXPLANATION_COLUMNS). */
  readonly index: Float64Array;
  readonly savingsIndex: Float64Array;
  readonly percentile: Float64Array;
  readonly reasonCodes: Utf8Buffers;
  readonly expenseFlags: Utf8Buffers;
}

/** The text columns, built row by row. */
const TEXT_COLUMNS = ['geoLevel', 'state', 'cbsa', 'reasonCodes', 'expenseFlags'] as const;
type TextColumn = (typeof TEXT_COLUMNS)[number];

type ColumnsInProgress = Omit<ScoredColumns, TextColumn> & {
  readonly [C in TextColumn]: Utf8ColumnBuilder;
};

export interface EncodedBatch {
  readonly seq: number;
  readonly rowsIn: number;
  readonly scored: number;
  /** Index within the batch of each scored row, in order (Arrow output passes input columns through by it). */
  readonly scoredIndex: Int32Array;
  /** Scored rows as CSV bytes (CSV output; empty for Arrow output). */
  readonly csv: Uint8Array;
  readonly columns: ScoredColumns | null;
  readonly rejectsCsv: Uint8Array;
  readonly rejectReasons: string[];
  /** Per scored row, what the summary needs. */
  readonly stats: ScoredRows;
  /** Scored rows whose ZIP had its leading zeros restored (./zip-cell.ts). */
  readonly zipsPadded: number;
}

export const cellText = (cell: Cell): string => (cell === null || cell === undefined ? '' : String(cell));

export type RowOutcome =
  | {
      readonly ok: true;
      readonly value: WrittenFigures;
      readonly explanation: ExplanationValues;
      readonly demographics: Record<string, unknown>;
      /** Lender mode of a row with a loan (absent or null without one). */
      readonly lending?: LendingValues | null;
    }
  | { readonly ok: false; readonly errors: readonly ErrorItem[]; readonly reason?: string };

/** A reject's stable category for the summary: the first error's field and rule. */
export const rejectCategory = (errors: readonly ErrorItem[]): string => {
  const first = errors[0];
  return first === undefined ? 'rejected' : `${first.path || '(row)'} ${first.message}`;
};

const describeErrors = (errors: readonly ErrorItem[]): string =>
  errors.map((e) => (e.path === '' ? e.message : `${e.path} ${e.message}`)).join('; ');

export class BatchEncoder {
  private readonly csv: CsvBytes;
  private readonly rejectsCsv: CsvBytes;
  private readonly rejectReasons: string[] = [];
  private readonly scoredIndex: Int32Array;
  private readonly columns: ColumnsInProgress | null;
  private readonly stats: ScoredRowsBuffer;
  /** The input column bound to `zip` (-1: none). */
  private readonly zipColumn: number;
  private scored = 0;
  private zipsPadded = 0;

  constructor(
    private readonly layout: OutputLayout,
    private readonly seq: number,
    private readonly cells: CellGrid,
    private readonly rowNumbers: Int32Array,
  ) {
    const n = rowNumbers.length;
    this.csv = new CsvBytes(layout.csv);
    this.rejectsCsv = new CsvBytes(layout.csv, 256);
    this.scoredIndex = new Int32Array(n);
    this.columns =
      layout.format === 'arrow'
        ? {
            rowNumber: new Int32Array(n),
            budget: new Int32Array(n * CATEGORY_COUNT),
            model: new Int32Array(n * CATEGORY_COUNT),
            categoryStride: n,
            psa: new Int32Array(n),
            score: new Float64Array(n),
            savingsScore: new Float64Array(n),
            geoLevel: new Utf8ColumnBuilder(n),
            state: new Utf8ColumnBuilder(n),
            cbsa: new Utf8ColumnBuilder(n),
            index: new Float64Array(n),
            savingsIndex: new Float64Array(n),
            percentile: new Float64Array(n),
            reasonCodes: new Utf8ColumnBuilder(n),
            expenseFlags: new Utf8ColumnBuilder(n),
          }
        : null;
    this.stats = scoredRowsBuffer(n, layout.groups.length);
    this.zipColumn = layout.plan.bindings.find(({ field }) => field.name === 'zip')?.column ?? -1;
  }

  add(index: number, outcome: RowOutcome): void {
    if (outcome.ok)
      this.addScored(index, outcome.value, outcome.explanation, outcome.demographics, outcome.lending);
    else this.addRejected(index, outcome.errors, outcome.reason);
  }

  private inputFields(out: CsvBytes, index: number): void {
    const { cells } = this;
    const width = this.layout.header.length;
    for (let c = 0; c < width; c++) {
      if (c > 0) out.separator();
      out.field(cells.kind === 'rows' ? (cells.rows[index]![c] ?? '') : cellText(cellAt(cells, index, c)));
    }
  }

  /** A scored row; `demographics` are the request's, read for the summary before the next row. */
  addScored(
    index: number,
    figures: WrittenFigures,
    explanation: ExplanationValues,
    demographics: Record<string, unknown>,
    lending: LendingValues | null = null,
  ): void {
    const k = this.scored++;
    this.scoredIndex[k] = index;
    if (this.hadZerosRestored(index, demographics.zip)) this.zipsPadded++;
    this.stats.lendingIndex[k] = lending === null ? Number.NaN : lending.index;
    if (this.columns === null) this.csvRecord(index, figures, explanation, lending);
    else {
      this.columns.rowNumber[k] = this.rowNumbers[index]!;
      setColumns(this.columns, k, figures, explanation);
    }
    this.addStats(k, index, figures, explanation, demographics);
  }

  /**
   * Whether the row's ZIP cell had its leading zeros restored. A restored ZIP starts with 0, so only such
   * rows read their cell again: reading every row's took ~0.15 s a million rows (Arrow → Arrow).
   */
  private hadZerosRestored(index: number, zip: unknown): boolean {
    if (this.zipColumn < 0 || typeof zip !== 'string' || !zip.startsWith('0')) return false;
    return zipPadded(cellAt(this.cells, index, this.zipColumn));
  }

  private csvRecord(
    index: number,
    figures: WrittenFigures,
    explanation: ExplanationValues,
    lending: LendingValues | null,
  ): void {
    const { budget, model, geography, scoreValues } = figures;
    const out = this.csv;
    out.integer(this.rowNumbers[index]!);
    out.separator();
    this.inputFields(out, index);
    for (let c = 0; c < CATEGORY_COUNT; c++) {
      out.separator();
      out.integer(safeInteger(budget[c]!, c));
    }
    for (let c = 0; c < CATEGORY_COUNT; c++) {
      out.separator();
      out.integer(safeInteger(model[c]!, c));
    }
    out.separator();
    // The score response's texts (`scoreTexts`), written without building them: PSA is a whole number.
    out.integer(safeInteger(scoreValues[0]!, PSA_KEY));
    out.separator();
    out.decimal(formatScore(scoreValues[1]!));
    out.separator();
    out.decimal(formatScore(scoreValues[2]!));
    for (const text of [geography.level, geography.state ?? '', geography.cbsa ?? '']) {
      out.separator();
      out.plain(text);
    }
    for (const value of [
      explanation.outlay_index,
      explanation.savings_index,
      explanation.outlay_percentile,
    ]) {
      out.separator();
      out.decimal(formatTenths(value));
    }
    // Lists joined by `;`: quoted in the `;` dialect.
    out.separator();
    out.field(explanation.reason_codes);
    out.separator();
    out.field(explanation.expense_flags);
    if (this.layout.loan !== null) writeLending(out, lending);
    out.endRecord();
  }

  private addStats(
    k: number,
    index: number,
    figures: WrittenFigures,
    explanation: ExplanationValues,
    demographics: Record<string, unknown>,
  ): void {
    const { stats } = this;
    const { scoreValues } = figures;
    stats.psa[k] = scoreValues[0]!;
    stats.score[k] = scoreValues[1]!;
    stats.savingsScore[k] = scoreValues[2]!;
    stats.netIncome[k] = demographics.net_annual_income as number;
    stats.grossIncome[k] = (demographics.gross_annual_income as number | undefined) ?? Number.NaN;
    const homeowner = demographics.is_homeowner as boolean | undefined;
    stats.homeowner[k] = homeowner === undefined ? Number.NaN : Number(homeowner);
    stats.age[k] = (demographics.age as number | undefined) ?? Number.NaN;
    stats.householdMembers[k] = (demographics.household_members as number | undefined) ?? Number.NaN;
    stats.householdType.push((demographics.household_type as string | undefined) ?? null);
    stats.state.push(figures.geography.state);
    stats.geoLevel.push(figures.geography.level);
    stats.index[k] = explanation.outlay_index;
    stats.percentile[k] = explanation.outlay_percentile;
    stats.reasonCodes.push(explanation.reason_codes);
    stats.expenseFlags.push(explanation.expense_flags);
    const { groups } = this.layout;
    for (let g = 0; g < groups.length; g++)
      stats.groups[g]!.push(cellText(cellAt(this.cells, index, groups[g]!.column)));
  }

  private addRejected(index: number, errors: readonly ErrorItem[], reason: string | undefined): void {
    const out = this.rejectsCsv;
    out.integer(this.rowNumbers[index]!);
    out.separator();
    this.inputFields(out, index);
    out.separator();
    out.field(describeErrors(errors));
    out.endRecord();
    this.rejectReasons.push(reason ?? rejectCategory(errors));
  }

  finish(): EncodedBatch {
    const n = this.rowNumbers.length;
    const k = this.scored;
    const trim = <T extends Float64Array | Int32Array>(array: T): T => array.subarray(0, k) as T;
    const { columns, stats } = this;
    return {
      seq: this.seq,
      rowsIn: n,
      scored: k,
      scoredIndex: trim(this.scoredIndex),
      csv: this.csv.take(),
      columns:
        columns === null
          ? null
          : {
              ...columns,
              rowNumber: trim(columns.rowNumber),
              psa: trim(columns.psa),
              score: trim(columns.score),
              savingsScore: trim(columns.savingsScore),
              index: trim(columns.index),
              savingsIndex: trim(columns.savingsIndex),
              percentile: trim(columns.percentile),
              geoLevel: columns.geoLevel.finish(),
              state: columns.state.finish(),
              cbsa: columns.cbsa.finish(),
              reasonCodes: columns.reasonCodes.finish(),
              expenseFlags: columns.expenseFlags.finish(),
            },
      rejectsCsv: this.rejectsCsv.take(),
      rejectReasons: this.rejectReasons,
      zipsPadded: this.zipsPadded,
      stats: {
        ...stats,
        psa: trim(stats.psa),
        score: trim(stats.score),
        savingsScore: trim(stats.savingsScore),
        netIncome: trim(stats.netIncome),
        grossIncome: trim(stats.grossIncome),
        homeowner: trim(stats.homeowner),
        age: trim(stats.age),
        householdMembers: trim(stats.householdMembers),
        index: trim(stats.index),
        percentile: trim(stats.percentile),
        lendingIndex: trim(stats.lendingIndex),
      },
    };
  }
}

/**
 * An index or percentile as written: one decimal, always shown ("80.0", "-112.5"). The engine computes
 * them in tenths, so a value with more decimals is a bug that must stop the job, not be rounded here.
 */
export function formatTenths(value: number): string {
  const text = value.toFixed(1);
  if (Number(text) !== value) throw new Error(`the index or percentile ${value} does not have one decimal`);
  return text;
}

/** The lending columns (LENDING_COLUMNS) of a row, each empty for a row without a loan. */
function writeLending(out: CsvBytes, lending: LendingValues | null): void {
  if (lending === null) {
    for (let i = 0; i < LENDING_COLUMNS.length; i++) out.separator();
    return;
  }
  out.separator();
  out.decimal(lending.payment.toFixed(2));
  out.separator();
  out.integer(safeInteger(lending.surplus, 'lending_surplus'));
  out.separator();
  out.decimal(formatTenths(lending.index));
  out.separator();
  out.decimal(formatScore(lending.score));
  out.separator();
  out.field(lending.reasonCodes);
}

/** Row `k` of the Arrow output's derived and explanation columns. */
function setColumns(
  columns: ColumnsInProgress,
  k: number,
  figures: WrittenFigures,
  explanation: ExplanationValues,
): void {
  const { budget, model, geography, scoreValues } = figures;
  const stride = columns.categoryStride;
  const budgetColumns = columns.budget;
  const modelColumns = columns.model;
  for (let c = 0, at = k; c < CATEGORY_COUNT; c++, at += stride) {
    budgetColumns[at] = int32(budget[c]!, c);
    modelColumns[at] = int32(model[c]!, c);
  }
  columns.psa[k] = int32(scoreValues[0]!, PSA_KEY);
  columns.score[k] = scoreValues[1]!;
  columns.savingsScore[k] = scoreValues[2]!;
  columns.geoLevel.add(geography.level);
  columns.state.add(geography.state);
  columns.cbsa.add(geography.cbsa);
  columns.index[k] = explanation.outlay_index;
  columns.savingsIndex[k] = explanation.savings_index;
  columns.percentile[k] = explanation.outlay_percentile;
  columns.reasonCodes.add(explanation.reason_codes);
  columns.expenseFlags.add(explanation.expense_flags);
}

const columnName = (what: string | number): string => (typeof what === 'number' ? CATEGORIES[what]! : what);

/**
 * CSV output writes amounts as whole numbers (`CsvBytes.integer` writes digits for a safe integer only);
 * any other value (1234.56, NaN, 2^53) must stop the job, not be written changed.
 */
function safeInteger(value: number, what: string | number): number {
  if (!Number.isSafeInteger(value))
    throw new Error(`${columnName(what)} ${value} is not a whole number the CSV output can write`);
  return value;
}

/**
 * Arrow output stores amounts as Int32; a value outside it must stop the job, not wrap around. The check
 * is the conversion itself: `value | 0` is the Int32 the column stores, equal to `value` only when that is
 * a whole number in range (76 times per row: comparing with the bounds and then converting for the store
 * took half the Arrow columns' writing).
 */
function int32(value: number, what: string | number): number {
  const stored = value | 0;
  if (stored !== value)
    throw new Error(`${columnName(what)} ${value} is not a whole number that fits the Int32 column`);
  return stored;
}
