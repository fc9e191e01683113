/**
 * The fixed bins a summary counts its rows in for the comparison with a reference run (`--reference`,
 * `outlay compare`): each input field and each output, binned the same way in every run, so that two
 * summaries compare bin by bin. Input fields are counted row by row as the rows pass (`InputBins`); the
 * outputs are binned from the summary's exact distributions. Both are plain counts, so a merge adds them
 * and a merged summary's bins equal a single run's.
 *
 * The bins are few (5 to 12) and wide on purpose: PSI over many thin bins measures sampling noise as
 * much as drift. A new field (e.g. a lending index, counted only over the rows given a loan) is one more
 * entry in INPUT_FIELDS or OUTPUT_FIELDS; a field one of two summaries lacks is reported as such rather
 * than compared.
 */
import { AGE_BANDS, type Band, bandIndexOf, HOUSEHOLD_SIZE_BANDS, type ScoredRows } from './cohorts.js';
import type { SortedCounts } from './count-map.js';
import type { CohortStats } from './summary-schema.js';

/** The bin of rows that did not give an optional field. */
export const NOT_GIVEN = 'not given';

const bandsFromEdges = (
  edges: readonly number[],
  label: (from: number, to: number | null) => string,
): Band[] =>
  [Number.NEGATIVE_INFINITY, ...edges].map((from, i) => {
    const to = edges[i] ?? null;
    return { label: label(from, to), from, to };
  });

const thousands = (dollars: number) => `$${dollars / 1000}k`;

/** Annual income, dollars: 11 bins, finer where most households are. */
export const INCOME_BINS: readonly Band[] = bandsFromEdges(
  [15_000, 25_000, 35_000, 50_000, 65_000, 80_000, 100_000, 125_000, 150_000, 200_000],
  (from, to) =>
    to === null
      ? `${thousands(from)}+`
      : !Number.isFinite(from)
        ? `under ${thousands(to)}`
        : `${thousands(from)}–${thousands(to).slice(1)}`,
);

/** Index points: 80 is break-even, so the bins are 10 points wide around it and wider in the tails. */
export const INDEX_BINS: readonly Band[] = bandsFromEdges(
  [0, 20, 40, 60, 70, 80, 90, 100, 120],
  (from, to) => (to === null ? `${from}+` : !Number.isFinite(from) ? `under ${to}` : `${from}–${to}`),
);

const dollars = (value: number) => `${value < 0 ? '−' : ''}$${Math.abs(value).toLocaleString('en-US')}`;

/** Monthly PSA, dollars. */
export const PSA_BINS: readonly Band[] = bandsFromEdges(
  [-1000, -500, 0, 250, 500, 1000, 2000, 3000],
  (from, to) =>
    to === null
      ? `${dollars(from)}+`
      : !Number.isFinite(from)
        ? `under ${dollars(to)}`
        : `${dollars(from)} to ${dollars(to)}`,
);

/** Percentile deciles, as the summary counts them: [0, 10) … [90, 100]. */
export const PERCENTILE_BINS = Array.from({ length: 10 }, (_, i) => `${10 * i}–${10 * (i + 1)}`);

interface NumericInput {
  readonly name: string;
  readonly bands: readonly Band[];
  /** The field's column, NaN where not given (counted in NOT_GIVEN). */
  readonly column: (rows: ScoredRows) => Float64Array;
}

interface CategoricalInput {
  readonly name: string;
  /**
   * Adds the first `count` rows' categories to `counts`, NOT_GIVEN where not given. A loop per field, as
   * the numeric fields read their columns: with a call per row and field, the input bins took 0.5–0.7 s
   * of the main thread a million rows (Arrow → Arrow, default workers), about 2 % of the job's CPU.
   */
  readonly countRows: (rows: ScoredRows, count: number, counts: Map<string, number>) => void;
}

const TENURE = ['renter', 'owner'];

function countTexts(column: readonly (string | null)[], count: number, counts: Map<string, number>): void {
  for (let k = 0; k < count; k++) {
    const category = column[k] ?? NOT_GIVEN;
    counts.set(category, (counts.get(category) ?? 0) + 1);
  }
}

function countTenures(homeowner: Float64Array, count: number, counts: Map<string, number>): void {
  const slots = [0, 0, 0];
  for (let k = 0; k < count; k++) slots[Number.isNaN(homeowner[k]!) ? 2 : homeowner[k]!]! += 1;
  [...TENURE, NOT_GIVEN].forEach((category, slot) => {
    if (slots[slot]! > 0) counts.set(category, (counts.get(category) ?? 0) + slots[slot]!);
  });
}

/** The input fields, in the comparison's order. */
const NUMERIC_INPUTS: readonly NumericInput[] = [
  { name: 'take_home', bands: INCOME_BINS, column: (rows) => rows.netIncome },
  { name: 'gross_income', bands: INCOME_BINS, column: (rows) => rows.grossIncome },
  { name: 'age', bands: AGE_BANDS, column: (rows) => rows.age },
  { name: 'household_size', bands: HOUSEHOLD_SIZE_BANDS, column: (rows) => rows.householdMembers },
];

const CATEGORICAL_INPUTS: readonly CategoricalInput[] = [
  { name: 'tenure', countRows: (rows, count, counts) => countTenures(rows.homeowner, count, counts) },
  { name: 'state', countRows: (rows, count, counts) => countTexts(rows.state, count, counts) },
  { name: 'geo_level', countRows: (rows, count, counts) => countTexts(rows.geoLevel, count, counts) },
];

/** The fields of the comparison, inputs then outputs, with their titles for the report and the text. */
export const STABILITY_FIELDS = [
  { name: 'take_home', title: 'Take-home income', kind: 'input' },
  { name: 'gross_income', title: 'Gross income', kind: 'input' },
  { name: 'age', title: 'Age', kind: 'input' },
  { name: 'household_size', title: 'Household size', kind: 'input' },
  { name: 'tenure', title: 'Tenure (owner / renter)', kind: 'input' },
  { name: 'state', title: 'State', kind: 'input' },
  { name: 'geo_level', title: 'Geography level used', kind: 'input' },
  { name: 'index', title: 'Index', kind: 'output' },
  { name: 'percentile', title: 'Percentile', kind: 'output' },
  { name: 'score_band', title: 'Score band', kind: 'output' },
  { name: 'psa', title: 'PSA (monthly)', kind: 'output' },
] as const;

/** Row counts per bin label, per field: `summary.bins`. */
export type BinCounts = Record<string, Record<string, number>>;

/** The labels of a numeric field's bins in order, NOT_GIVEN last (its slot is bands.length). */
const numericLabels = (field: NumericInput) => [...field.bands.map((band) => band.label), NOT_GIVEN];

/** The input fields' counts, exact and mergeable: one count per bin, one per category seen. */
export class InputBins {
  readonly #numeric = NUMERIC_INPUTS.map((field) => new Float64Array(field.bands.length + 1));
  readonly #categorical = CATEGORICAL_INPUTS.map(() => new Map<string, number>());

  addRows(rows: ScoredRows, count: number): void {
    NUMERIC_INPUTS.forEach((field, f) => {
      const counts = this.#numeric[f]!;
      const values = field.column(rows);
      for (let k = 0; k < count; k++) {
        // NaN (not given) is in no band: its slot is bands.length, NOT_GIVEN's.
        counts[bandIndexOf(field.bands, values[k]!)]! += 1;
      }
    });
    CATEGORICAL_INPUTS.forEach((field, f) => {
      field.countRows(rows, count, this.#categorical[f]!);
    });
  }

  /** Adds a summary's input counts (a shard's, when merging); output fields are not input counts. */
  addCounts(bins: BinCounts): void {
    NUMERIC_INPUTS.forEach((field, f) => {
      const labels = numericLabels(field);
      for (const [label, count] of Object.entries(bins[field.name] ?? {})) {
        const slot = labels.indexOf(label);
        if (slot < 0) throw new Error(`summary bins: ${field.name} has no bin "${label}"`);
        this.#numeric[f]![slot]! += count;
      }
    });
    CATEGORICAL_INPUTS.forEach((field, f) => {
      const counts = this.#categorical[f]!;
      for (const [category, count] of Object.entries(bins[field.name] ?? {}))
        counts.set(category, (counts.get(category) ?? 0) + count);
    });
  }

  /** Every numeric bin (empty ones too, so the file shows the bins), categories sorted by code unit. */
  toCounts(): BinCounts {
    const bins: BinCounts = {};
    NUMERIC_INPUTS.forEach((field, f) => {
      const counts = this.#numeric[f]!;
      bins[field.name] = Object.fromEntries(numericLabels(field).map((label, i) => [label, counts[i]!]));
    });
    CATEGORICAL_INPUTS.forEach((field, f) => {
      const sorted = [...this.#categorical[f]!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      bins[field.name] = Object.fromEntries(sorted);
    });
    return bins;
  }
}

/** Counts of a sorted distribution per band, its values scaled by `scale` (×10 for the index). */
function bandCounts(sorted: SortedCounts, bands: readonly Band[], scale: number): Record<string, number> {
  const counts = new Array<number>(bands.length).fill(0);
  for (let i = 0; i < sorted.length; i++)
    counts[bandIndexOf(bands, sorted.values[i]! / scale)]! += sorted.counts[i]!;
  return Object.fromEntries(bands.map((band, b) => [band.label, counts[b]!]));
}

/** The outputs' bins, from the exact distributions of all scored rows. */
export function outputBins(overall: CohortStats): BinCounts {
  return {
    index: bandCounts(overall.distribution.index_x10, INDEX_BINS, 10),
    percentile: Object.fromEntries(
      PERCENTILE_BINS.map((label, i) => [label, overall.percentile.deciles[i]!]),
    ),
    score_band: Object.fromEntries(overall.score.bands.map((band) => [band.label, band.count])),
    psa: bandCounts(overall.distribution.psa, PSA_BINS, 1),
  };
}
