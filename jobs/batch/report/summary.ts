/**
 * The summary of a scoring run (`<name>.summary.json`): counts, the exact PSA and score distributions of
 * all rows and of every cohort, and run metadata. Rows are folded into count maps as they stream past, so
 * memory depends on the number of distinct values and cohorts, not on the number of rows; and summaries of
 * the shards of one input merge into exactly the summary of a single run over it.
 */

import { tenthsOfScore } from '../../../src/engine/rounding.js';
import { CohortAccumulator, cohortStats } from './cohort-stats.js';
import {
  type CohortNumbers,
  type Dimension,
  dimensionsFor,
  type ScoredRows,
  type ScoredRowsBuffer,
  scoredRowsBuffer,
} from './cohorts.js';
import { LendingAccumulator } from './lending-summary.js';
import { mergedLineSpans, withLineSpans } from './line-spans-section.js';
import { InputBins, outputBins } from './stability-bins.js';
import { SUMMARY_FORMAT, SUMMARY_VERSION, type Summary, type SummaryMetaJson } from './summary-schema.js';

export { type ScoredRows, type ScoredRowsBuffer, scoredRowsBuffer } from './cohorts.js';
export type { Summary } from './summary-schema.js';

/** One scored row, for callers that have rows one at a time (a resumed run replaying its output). */
export interface ScoredRowStats {
  /** Predicted Saving Ability, monthly whole dollars (may be negative). */
  readonly psa: number;
  /** Main score, 0.0–100.0 with one decimal. */
  readonly score: number;
  readonly savingsScore: number;
  readonly state: string | null;
  readonly age: number | undefined;
  readonly netIncome: number;
  readonly grossIncome?: number | undefined;
  readonly isHomeowner?: boolean | undefined;
  /** The geography level the engine used; '' when not known. */
  readonly geoLevel?: string | undefined;
  readonly householdMembers: number | undefined;
  readonly householdType: string | undefined;
  /** The main score's index, unclamped, one decimal, and its percentile, one decimal. */
  readonly index: number;
  readonly percentile: number;
  /** Reason codes and expense flags as the scored file writes them (joined by `;`). */
  readonly reasonCodes: string;
  readonly expenseFlags: string;
  /** --group-by column name → the row's cell text. */
  readonly groups: Readonly<Record<string, string>>;
  /** The lending index of a row with a loan. */
  readonly lendingIndex?: number | undefined;
}

export interface SummaryMeta {
  readonly input: string;
  /** SHA-256 of the input's bytes, hex (`outlay score` always records it). */
  readonly inputSha256?: string;
  /** 1-based shard index (as in `--shard I/N`), or null when the whole input was scored. */
  readonly shard: { readonly index: number; readonly count: number } | null;
  readonly modelVersion: string;
  readonly engine: 'local' | 'remote';
  readonly basis: 'stated' | 'benchmark';
  readonly scoreProfile: 'standard' | 'fair-lending';
  /** The year of the prices the amounts are in; undefined when a remote server does not say. */
  readonly priceYear?: number | undefined;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** Milliseconds per phase. */
  readonly timings: Record<string, number>;
  /** How each input column was used (absent: not recorded). */
  readonly columns?: SummaryMetaJson['columns'];
}

/**
 * Exact, mergeable state of a summary: row counts and one accumulator per cohort. There is no accumulator
 * of all rows: every row is in exactly one cohort of each dimension, so the overall distributions are the
 * sum of any one dimension's cohorts, added up once at the end instead of counted for every row (a fifth
 * of the summary's work per row). The dimension with the fewest cohorts is added: each cohort's count maps
 * are walked whole, and the household sizes' 6 cost a tenth of the states' 52 (40 ms at 1 M rows).
 */
class SummaryState {
  readonly rejectedByReason = new Map<string, number>();
  /** Scored rows per reason code, and per expense flag. */
  readonly reasonCodes = new Map<string, number>();
  readonly expenseFlags = new Map<string, number>();
  /** The input fields' fixed bins, for the comparison with a reference run. */
  readonly inputBins = new InputBins();
  /** One per dimension, in the summary's order of dimensions. */
  readonly cohorts: DimensionCohorts[];
  /** Lender mode's section, for a file that gives loans (lending-summary.ts). */
  lending: LendingAccumulator | undefined;
  /** Scored rows whose ZIP had its leading zeros restored (jobs/batch/io/zip-cell.ts). */
  zipsPadded = 0;

  constructor(dimensions: readonly Dimension[], lending = false) {
    this.cohorts = dimensions.map((dimension) => new DimensionCohorts(dimension));
    this.lending = lending ? new LendingAccumulator(dimensions) : undefined;
  }

  cohort(dimensionIndex: number, value: string): CohortAccumulator {
    const cohorts = this.cohorts[dimensionIndex]!;
    return cohorts.at(cohorts.numbers.numberOf(value));
  }

  addRejected(reason: string, count: number): void {
    addCount(this.rejectedByReason, reason, count);
  }

  toSummary(groupBy: readonly string[], meta: SummaryMetaJson): Summary {
    const entries = this.cohorts.map((cohorts) => cohorts.entries());
    const all = new CohortAccumulator();
    const fewest = entries.reduce<[string, CohortAccumulator][] | undefined>(
      (least, some) => (least === undefined || some.length < least.length ? some : least),
      undefined,
    );
    for (const [, cohort] of fewest ?? []) all.addAll(cohort);
    const overall = cohortStats(all);
    const rejected = sortedEntries(this.rejectedByReason);
    const rowsRejected = rejected.reduce((total, [, count]) => total + count, 0);
    return {
      format: SUMMARY_FORMAT,
      version: SUMMARY_VERSION,
      meta,
      group_by: [...groupBy],
      counts: {
        rows_in: overall.rows + rowsRejected,
        rows_scored: overall.rows,
        rows_rejected: rowsRejected,
        rejected_by_reason: Object.fromEntries(rejected),
      },
      overall,
      reason_codes: Object.fromEntries(sortedEntries(this.reasonCodes)),
      expense_flags: Object.fromEntries(sortedEntries(this.expenseFlags)),
      bins: { ...this.inputBins.toCounts(), ...outputBins(overall) },
      dimensions: this.cohorts.map(({ dimension }, i) => ({
        name: dimension.name,
        kind: dimension.kind,
        cohorts: entries[i]!.sort(([a], [b]) => dimension.compare(a, b)).map(([value, cohort]) => ({
          value,
          ...cohortStats(cohort),
        })),
      })),
      ...(this.lending === undefined ? {} : { lending: this.lending.toJson() }),
    };
  }
}

// Code-unit order rather than localeCompare: the summary must not depend on the machine's locale.
const sortedEntries = (counts: Map<string, number>): [string, number][] =>
  [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const addCount = (counts: Map<string, number>, key: string, count: number): void => {
  counts.set(key, (counts.get(key) ?? 0) + count);
};

/** Counts each item of a `;`-joined list ('' holds none). */
function countItems(counts: Map<string, number>, joined: string): void {
  if (joined === '') return;
  for (const item of joined.split(';')) addCount(counts, item, 1);
}

/** One dimension's cohorts: an accumulator per cohort number, made when the cohort's first row comes. */
class DimensionCohorts {
  readonly numbers: CohortNumbers;
  readonly #accumulators: (CohortAccumulator | undefined)[] = [];

  constructor(readonly dimension: Dimension) {
    this.numbers = dimension.cohortNumbers();
  }

  at(number: number): CohortAccumulator {
    let cohort = this.#accumulators[number];
    if (cohort === undefined) {
      cohort = new CohortAccumulator();
      this.#accumulators[number] = cohort;
    }
    return cohort;
  }

  /** [value, accumulator] of every cohort that has rows, in no particular order. */
  entries(): [string, CohortAccumulator][] {
    const entries: [string, CohortAccumulator][] = [];
    this.#accumulators.forEach((cohort, number) => {
      entries.push([this.numbers.labelOf(number), cohort!]);
    });
    return entries;
  }
}

function addLendingRows(lending: LendingAccumulator, rows: ScoredRows, count: number): void {
  for (let k = 0; k < count; k++) {
    const index = rows.lendingIndex[k]!;
    if (!Number.isNaN(index)) lending.addRow(index);
  }
}

/** The rows with a loan of one dimension's cohorts (`cohorts`: each row's cohort number). */
function addLendingCohorts(
  lending: LendingAccumulator,
  dimension: number,
  rows: ScoredRows,
  count: number,
  dimensionCohorts: DimensionCohorts,
  cohorts: Int32Array,
): void {
  for (let k = 0; k < count; k++) {
    const index = rows.lendingIndex[k]!;
    if (!Number.isNaN(index))
      lending.addToCohort(dimension, dimensionCohorts.numbers.labelOf(cohorts[k]!), index);
  }
}

/**
 * Score as the exact integer score × 10 (SCORE_SCALE, tenths); anything with more than one decimal is a
 * caller bug.
 */
function scoreKey(score: number, field: string): number {
  const key = tenthsOfScore(score);
  if (Number.isNaN(key)) throw new Error(`summary: ${field} ${score} does not have exactly one decimal`);
  return key;
}

/** An index or percentile ×10, exactly (they have one decimal, but no bounds). */
function tenthsKey(value: number, field: string): number {
  const key = Math.round(value * 10);
  if (!Number.isSafeInteger(key) || key / 10 !== value)
    throw new Error(`summary: ${field} ${value} does not have exactly one decimal`);
  return key;
}

export class SummaryBuilder {
  readonly #groupBy: readonly string[];
  readonly #state: SummaryState;
  /** Per-batch scratch: each row's cohort number in the dimension at hand, and its two scores ×10. */
  #cohorts = new Int32Array(0);
  #scoreX10 = new Float64Array(0);
  #savingsScoreX10 = new Float64Array(0);
  #indexX10 = new Float64Array(0);
  #percentileX10 = new Float64Array(0);
  /** One row as a batch of one, for `addScored`. */
  readonly #single: ScoredRowsBuffer;

  /** `lending`: the file gives loans, and the summary gets lender mode's section. */
  constructor(options: { groupBy: readonly string[]; lending?: boolean }) {
    this.#groupBy = [...new Set(options.groupBy)];
    this.#state = new SummaryState(dimensionsFor(this.#groupBy), options.lending);
    this.#single = scoredRowsBuffer(1, this.#groupBy.length);
  }

  /** The --group-by columns, without repeats: the order of `ScoredRows.groups`. */
  get groupBy(): readonly string[] {
    return this.#groupBy;
  }

  /**
   * Adds the first `count` rows of a batch. Dimension by dimension rather than row by row, so that each
   * dimension places a whole batch in one loop of its own.
   */
  addRows(rows: ScoredRows, count: number): void {
    if (this.#scoreX10.length < count) {
      this.#cohorts = new Int32Array(count);
      this.#scoreX10 = new Float64Array(count);
      this.#savingsScoreX10 = new Float64Array(count);
      this.#indexX10 = new Float64Array(count);
      this.#percentileX10 = new Float64Array(count);
    }
    const { psa } = rows;
    const scoreX10 = this.#scoreX10;
    const savingsScoreX10 = this.#savingsScoreX10;
    const indexX10 = this.#indexX10;
    const percentileX10 = this.#percentileX10;
    const state = this.#state;
    for (let k = 0; k < count; k++) {
      if (!Number.isSafeInteger(psa[k]))
        throw new Error(`summary: PSA ${psa[k]} is not a whole number of dollars`);
      scoreX10[k] = scoreKey(rows.score[k]!, 'score');
      savingsScoreX10[k] = scoreKey(rows.savingsScore[k]!, 'savings score');
      indexX10[k] = tenthsKey(rows.index[k]!, 'index');
      percentileX10[k] = tenthsKey(rows.percentile[k]!, 'percentile');
      countItems(state.reasonCodes, rows.reasonCodes[k]!);
      countItems(state.expenseFlags, rows.expenseFlags[k]!);
    }
    state.inputBins.addRows(rows, count);
    const cohorts = this.#cohorts;
    for (let i = 0; i < state.cohorts.length; i++) {
      const dimensionCohorts = state.cohorts[i]!;
      dimensionCohorts.dimension.cohortsOf(rows, count, dimensionCohorts.numbers, cohorts);
      for (let k = 0; k < count; k++) {
        const cohort = dimensionCohorts.at(cohorts[k]!);
        cohort.psa.add(psa[k]!);
        cohort.scoreX10.add(scoreX10[k]!);
        cohort.savingsScoreX10.add(savingsScoreX10[k]!);
        cohort.indexX10.add(indexX10[k]!);
        cohort.percentileX10.add(percentileX10[k]!);
      }
      if (state.lending !== undefined)
        addLendingCohorts(state.lending, i, rows, count, dimensionCohorts, cohorts);
    }
    if (state.lending !== undefined) addLendingRows(state.lending, rows, count);
  }

  addScored(row: ScoredRowStats): void {
    const single = this.#single;
    single.psa[0] = row.psa;
    single.score[0] = row.score;
    single.savingsScore[0] = row.savingsScore;
    single.netIncome[0] = row.netIncome;
    single.grossIncome[0] = row.grossIncome ?? Number.NaN;
    single.homeowner[0] = row.isHomeowner === undefined ? Number.NaN : Number(row.isHomeowner);
    single.geoLevel[0] = row.geoLevel ?? '';
    single.age[0] = row.age ?? Number.NaN;
    single.householdMembers[0] = row.householdMembers ?? Number.NaN;
    single.householdType[0] = row.householdType ?? null;
    single.state[0] = row.state;
    single.index[0] = row.index;
    single.percentile[0] = row.percentile;
    single.lendingIndex[0] = row.lendingIndex ?? Number.NaN;
    single.reasonCodes[0] = row.reasonCodes;
    single.expenseFlags[0] = row.expenseFlags;
    this.#groupBy.forEach((name, g) => {
      single.groups[g]![0] = row.groups[name] ?? '';
    });
    this.addRows(single, 1);
  }

  addRejected(reason: string): void {
    this.#state.addRejected(reason, 1);
  }

  /** Counts scored rows whose ZIP had its leading zeros restored. */
  addZipsPadded(count: number): void {
    this.#state.zipsPadded += count;
  }

  get zipsPadded(): number {
    return this.#state.zipsPadded;
  }

  finish(meta: SummaryMeta): Summary {
    return this.#state.toSummary(this.#groupBy, {
      input: meta.input,
      ...(meta.inputSha256 === undefined ? {} : { input_sha256: meta.inputSha256 }),
      shard: meta.shard === null ? null : { index: meta.shard.index, count: meta.shard.count },
      merged_shards: null,
      model_version: meta.modelVersion,
      engine: meta.engine,
      basis: meta.basis,
      score_profile: meta.scoreProfile,
      ...(meta.priceYear === undefined ? {} : { price_year: meta.priceYear }),
      started_at: meta.startedAt,
      finished_at: meta.finishedAt,
      timings: { ...meta.timings },
      ...inputMeta(meta.columns, this.#state.zipsPadded),
    });
  }
}

/** The input's column uses and padded ZIPs, when recorded: both optional in the summary. */
const inputMeta = (columns: SummaryMetaJson['columns'], zipsPadded: number | undefined) => ({
  ...(columns === undefined ? {} : { columns }),
  ...(zipsPadded === undefined ? {} : { zips_padded: zipsPadded }),
});

/**
 * Combines the summaries of the N shards of one run (`--shard 1/N` … `--shard N/N`) into the summary of
 * the whole input: counts and statistics equal those of a single run; the meta spans the shards (earliest
 * start, latest finish, timings summed). A single whole-input summary is returned re-derived, unchanged.
 *
 * @throws if the summaries do not form one complete run: different input, model version, engine or
 *   --group-by columns; a shard given twice, missing, or with a different shard count.
 */
export function mergeSummaries(summaries: readonly Summary[]): Summary {
  const first = summaries[0];
  if (first === undefined) throw new Error('merge: no summaries to merge');
  checkSameRun(summaries, first);
  const shardCount = checkShardsComplete(summaries);

  const state = new SummaryState(
    dimensionsFor(first.group_by),
    summaries.some((summary) => summary.lending !== undefined),
  );
  for (const summary of summaries) {
    if (summary.lending !== undefined) state.lending!.addSummary(summary.lending);
    for (const [reason, count] of Object.entries(summary.counts.rejected_by_reason))
      state.addRejected(reason, count);
    for (const [code, count] of Object.entries(summary.reason_codes))
      addCount(state.reasonCodes, code, count);
    for (const [flag, count] of Object.entries(summary.expense_flags))
      addCount(state.expenseFlags, flag, count);
    state.inputBins.addCounts(summary.bins);
    summary.dimensions.forEach((dimension, i) => {
      for (const cohort of dimension.cohorts) {
        state.cohort(i, cohort.value).addDistribution(cohort.distribution);
      }
    });
  }
  const metas = summaries.map((s) => s.meta);
  const merged = state.toSummary(first.group_by, {
    input: first.meta.input,
    ...(first.meta.input_sha256 === undefined ? {} : { input_sha256: first.meta.input_sha256 }),
    shard: null,
    merged_shards: shardCount,
    model_version: first.meta.model_version,
    engine: first.meta.engine,
    basis: first.meta.basis,
    score_profile: first.meta.score_profile,
    ...(first.meta.price_year === undefined ? {} : { price_year: first.meta.price_year }),
    started_at: earliest(metas.map((m) => m.started_at)),
    finished_at: latest(metas.map((m) => m.finished_at)),
    timings: sumTimings(metas.map((m) => m.timings)),
    // Shards share the header; the padded ZIPs add up.
    ...inputMeta(
      first.meta.columns,
      first.meta.zips_padded === undefined ? undefined : sum(metas.map((m) => m.zips_padded ?? 0)),
    ),
  });
  return withLineSpans(merged, mergedLineSpans(summaries.map((summary) => summary.line_spans)));
}

function checkSameRun(summaries: readonly Summary[], first: Summary): void {
  const mustAgree = (what: string, fieldOf: (s: Summary) => string) => {
    const values = [...new Set(summaries.map(fieldOf))];
    if (values.length > 1)
      throw new Error(`merge: the summaries have different ${what}: ${values.join(' vs ')}`);
  };
  mustAgree('model versions', (s) => s.meta.model_version);
  mustAgree('inputs', (s) => s.meta.input);
  // Two files of one name (e.g. yesterday's and today's) must not merge; an older summary records none.
  mustAgree('input contents (SHA-256)', (s) => s.meta.input_sha256 ?? 'not recorded');
  mustAgree('engines', (s) => s.meta.engine);
  mustAgree('score bases', (s) => s.meta.basis);
  mustAgree('score profiles', (s) => s.meta.score_profile);
  mustAgree('price years', (s) => String(s.meta.price_year ?? 'not recorded'));
  mustAgree('--group-by columns', (s) => JSON.stringify(s.group_by));
  const expected = dimensionsFor(first.group_by).map((d) => d.name);
  for (const summary of summaries) {
    const names = summary.dimensions.map((d) => d.name);
    if (JSON.stringify(names) !== JSON.stringify(expected)) {
      throw new Error(
        `merge: a summary has cohort dimensions ${names.join(', ')}; expected ${expected.join(', ')}`,
      );
    }
  }
}

const shardName = (index: number, count: number) => `${index}/${count}`;

/** The shard count N, after checking that shards 1..N each appear exactly once. */
function checkShardsComplete(summaries: readonly Summary[]): number {
  const shards = summaries.map((s) => s.meta.shard);
  if (shards.every((shard) => shard === null)) {
    if (summaries.length > 1) {
      throw new Error(
        `merge: ${summaries.length} summaries each cover the whole input (none was run with --shard); only the shards of one run can be merged`,
      );
    }
    return 1;
  }
  if (shards.some((shard) => shard === null)) {
    throw new Error(
      'merge: a whole-input summary (run without --shard) cannot be merged with shard summaries',
    );
  }
  const counts = [...new Set(shards.map((shard) => shard!.count))];
  if (counts.length > 1)
    throw new Error(`merge: the summaries come from different shardings (shard counts ${counts.join(', ')})`);
  const count = counts[0]!;
  const seen = new Set<number>();
  for (const shard of shards) {
    const index = shard!.index;
    if (index > count) throw new Error(`merge: shard ${shardName(index, count)} is out of range`);
    if (seen.has(index)) throw new Error(`merge: shard ${shardName(index, count)} is given more than once`);
    seen.add(index);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !seen.has(index));
  if (missing.length > 0) {
    throw new Error(
      `merge: missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => shardName(i, count)).join(', ')}`,
    );
  }
  return count;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

const byTime = (a: string, b: string) => Date.parse(a) - Date.parse(b);
const earliest = (times: string[]) => times.sort(byTime)[0]!;
const latest = (times: string[]) => times.sort(byTime).at(-1)!;

function sumTimings(timings: readonly Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const phase of timings) {
    for (const [name, ms] of Object.entries(phase)) total[name] = (total[name] ?? 0) + ms;
  }
  return total;
}
