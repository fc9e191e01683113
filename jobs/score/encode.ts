/**
 * Turns one batch of row outcomes into output: CSV text (for CSV output) or typed columns (for Arrow
 * output), reject lines, reject reasons and the few numbers per scored row the summary needs. Runs where
 * the rows were scored (in a worker, so the main thread only writes), and allocates per batch, not per row.
 */
import { CATEGORIES, CATEGORY_COUNT } from '../../src/contract/categories.js';
import { PSA_KEY, SAVINGS_SCORE_KEY } from '../../src/contract/schemas.js';
import type { ErrorItem } from '../../src/contract/schemas.js';
import type { HouseholdResult } from '../../src/engine/types.js';
import { csvField } from '../../src/io/csv-text.js';
import { type CellGrid, cellAt } from '../../src/io/input-source.js';
import type { Cell } from '../../src/io/row-request.js';
import type { OutputLayout } from './layout.js';

/** Derived values of the scored rows of a batch, column by column (Arrow output). */
export interface ScoredColumns {
  /** CATEGORY_COUNT columns of `length` values each, column after column. */
  readonly budget: Int32Array;
  readonly model: Int32Array;
  readonly psa: Int32Array;
  readonly score: Float64Array;
  readonly savingsScore: Float64Array;
  readonly geoLevel: string[];
  readonly state: (string | null)[];
  readonly cbsa: (string | null)[];
}

/** Per scored row, what the summary needs (NaN where an optional field was not given). */
export interface ScoredStats {
  readonly psa: Float64Array;
  readonly score: Float64Array;
  readonly savingsScore: Float64Array;
  readonly netIncome: Float64Array;
  readonly age: Float64Array;
  readonly householdMembers: Float64Array;
  readonly state: (string | null)[];
  /** One array per --group-by column. */
  readonly groups: string[][];
}

export interface EncodedBatch {
  readonly seq: number;
  readonly rowsIn: number;
  readonly scored: number;
  /** Index within the batch of each scored row, in order (Arrow output passes input columns through by it). */
  readonly scoredIndex: Int32Array;
  readonly csv: string;
  readonly columns: ScoredColumns | null;
  readonly rejectsCsv: string;
  readonly rejectReasons: string[];
  readonly stats: ScoredStats;
}

export const cellText = (cell: Cell): string => (cell === null || cell === undefined ? '' : String(cell));

export type RowOutcome =
  | { readonly ok: true; readonly value: HouseholdResult; readonly demographics: Record<string, unknown> }
  | { readonly ok: false; readonly errors: readonly ErrorItem[]; readonly reason?: string };

/** A reject's stable category for the summary: the first error's field and rule. */
export const rejectCategory = (errors: readonly ErrorItem[]): string => {
  const first = errors[0];
  return first === undefined ? 'rejected' : `${first.path || '(row)'} ${first.message}`;
};

const describeErrors = (errors: readonly ErrorItem[]): string =>
  errors.map((e) => (e.path === '' ? e.message : `${e.path} ${e.message}`)).join('; ');

export class BatchEncoder {
  private csv = '';
  private rejectsCsv = '';
  private readonly rejectReasons: string[] = [];
  private readonly scoredIndex: Int32Array;
  private readonly columns: ScoredColumns | null;
  private readonly stats: ScoredStats;
  private scored = 0;

  constructor(
    private readonly layout: OutputLayout,
    private readonly seq: number,
    private readonly cells: CellGrid,
    private readonly rowNumbers: Int32Array,
  ) {
    const n = rowNumbers.length;
    this.scoredIndex = new Int32Array(n);
    this.columns =
      layout.format === 'arrow'
        ? {
            budget: new Int32Array(n * CATEGORY_COUNT),
            model: new Int32Array(n * CATEGORY_COUNT),
            psa: new Int32Array(n),
            score: new Float64Array(n),
            savingsScore: new Float64Array(n),
            geoLevel: [],
            state: [],
            cbsa: [],
          }
        : null;
    this.stats = {
      psa: new Float64Array(n),
      score: new Float64Array(n),
      savingsScore: new Float64Array(n),
      netIncome: new Float64Array(n),
      age: new Float64Array(n),
      householdMembers: new Float64Array(n),
      state: [],
      groups: layout.groups.map(() => []),
    };
  }

  add(index: number, outcome: RowOutcome): void {
    if (outcome.ok) this.addScored(index, outcome.value, outcome.demographics);
    else this.addRejected(index, outcome.errors, outcome.reason);
  }

  private inputFields(index: number): string {
    const { cells } = this;
    let text = '';
    const width = this.layout.header.length;
    if (cells.kind === 'rows') {
      const row = cells.rows[index]!;
      for (let c = 0; c < width; c++) text += (c === 0 ? '' : ',') + csvField(row[c] ?? '');
    } else {
      for (let c = 0; c < width; c++) text += (c === 0 ? '' : ',') + csvField(cellText(cells.columns[c]![index]));
    }
    return text;
  }

  private addScored(index: number, result: HouseholdResult, demographics: Record<string, unknown>): void {
    const k = this.scored++;
    this.scoredIndex[k] = index;
    const { budget, model, score, geo } = result;
    const psaText = score[PSA_KEY]!;
    const scoreText = score[this.layout.scoreKey]!;
    const savingsText = score[SAVINGS_SCORE_KEY]!;
    if (this.columns === null) {
      let line = this.inputFields(index);
      for (const c of CATEGORIES) line += `,${budget[c]}`;
      for (const c of CATEGORIES) line += `,${model[c]}`;
      this.csv += `${line},${psaText},${scoreText},${savingsText},${geo.geo_level},${geo.state ?? ''},${geo.cbsa ?? ''}\n`;
    } else {
      const { columns } = this;
      const n = this.rowNumbers.length;
      for (let c = 0; c < CATEGORY_COUNT; c++) {
        const category = CATEGORIES[c]!;
        columns.budget[c * n + k] = budget[category];
        columns.model[c * n + k] = model[category];
      }
      columns.psa[k] = Number(psaText);
      columns.score[k] = Number(scoreText);
      columns.savingsScore[k] = Number(savingsText);
      columns.geoLevel.push(geo.geo_level);
      columns.state.push(geo.state);
      columns.cbsa.push(geo.cbsa);
    }
    const { stats } = this;
    stats.psa[k] = Number(psaText);
    stats.score[k] = Number(scoreText);
    stats.savingsScore[k] = Number(savingsText);
    stats.netIncome[k] = demographics.net_annual_income as number;
    stats.age[k] = (demographics.age as number | undefined) ?? Number.NaN;
    stats.householdMembers[k] = (demographics.household_members as number | undefined) ?? Number.NaN;
    stats.state.push(geo.state);
    this.layout.groups.forEach((group, g) => {
      stats.groups[g]!.push(cellText(cellAt(this.cells, index, group.column)));
    });
  }

  private addRejected(index: number, errors: readonly ErrorItem[], reason: string | undefined): void {
    this.rejectsCsv += `${this.rowNumbers[index]},${this.inputFields(index)},${csvField(describeErrors(errors))}\n`;
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
      csv: this.csv,
      columns:
        columns === null
          ? null
          : {
              ...columns,
              budget: compactColumns(columns.budget, n, k),
              model: compactColumns(columns.model, n, k),
              psa: trim(columns.psa),
              score: trim(columns.score),
              savingsScore: trim(columns.savingsScore),
            },
      rejectsCsv: this.rejectsCsv,
      rejectReasons: this.rejectReasons,
      stats: {
        ...stats,
        psa: trim(stats.psa),
        score: trim(stats.score),
        savingsScore: trim(stats.savingsScore),
        netIncome: trim(stats.netIncome),
        age: trim(stats.age),
        householdMembers: trim(stats.householdMembers),
      },
    };
  }
}

/** Column-major values laid out with stride `n`, repacked with stride `k` (the rows actually scored). */
function compactColumns(values: Int32Array, n: number, k: number): Int32Array {
  if (k === n) return values;
  const packed = new Int32Array(CATEGORY_COUNT * k);
  for (let c = 0; c < CATEGORY_COUNT; c++) packed.set(values.subarray(c * n, c * n + k), c * k);
  return packed;
}
