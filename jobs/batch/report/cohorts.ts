/**
 * The cohorts a summary breaks its statistics down by. The default ones (state, age band, income band,
 * household size) use bands close to the BLS Consumer Expenditure Survey's published tables, so that an
 * analyst can read them against the survey; `--group-by` columns are kept value by value.
 */

/** Value of a cohort when the field was not given (or, for a --group-by column, the cell was empty). */
export const UNKNOWN = 'unknown';

/** A half-open band [from, to) of a numeric field; `to: null` means no upper bound. */
export interface Band {
  readonly label: string;
  readonly from: number;
  readonly to: number | null;
}

/**
 * The index of the band holding `value`, or `bands.length` (UNKNOWN) for NaN (not given) or a value outside
 * every band.
 */
export function bandIndexOf(bands: readonly Band[], value: number): number {
  // A loop, not Array.prototype.findIndex: this runs for every row and dimension, and a callback was a
  // closure allocated per call.
  for (let b = 0; b < bands.length; b++) {
    const band = bands[b]!;
    if (value >= band.from && (band.to === null || value < band.to)) return b;
  }
  return bands.length;
}

/** Age of the reference person, years (the CE survey's age groups; the contract's minimum age is 15). */
export const AGE_BANDS: readonly Band[] = [
  { label: '15–24', from: 15, to: 25 },
  { label: '25–34', from: 25, to: 35 },
  { label: '35–44', from: 35, to: 45 },
  { label: '45–54', from: 45, to: 55 },
  { label: '55–64', from: 55, to: 65 },
  { label: '65–74', from: 65, to: 75 },
  { label: '75+', from: 75, to: null },
];

/** Net (take-home) annual income, dollars. */
export const INCOME_BANDS: readonly Band[] = [
  { label: 'under $25k', from: 0, to: 25_000 },
  { label: '$25k–50k', from: 25_000, to: 50_000 },
  { label: '$50k–75k', from: 50_000, to: 75_000 },
  { label: '$75k–100k', from: 75_000, to: 100_000 },
  { label: '$100k–150k', from: 100_000, to: 150_000 },
  { label: '$150k–200k', from: 150_000, to: 200_000 },
  { label: '$200k+', from: 200_000, to: null },
];

/** Household members (the CE survey groups five or more together). */
export const HOUSEHOLD_SIZE_BANDS: readonly Band[] = [
  { label: '1', from: 1, to: 2 },
  { label: '2', from: 2, to: 3 },
  { label: '3', from: 3, to: 4 },
  { label: '4', from: 4, to: 5 },
  { label: '5+', from: 5, to: null },
];

/**
 * The scored rows of a batch, column by column, as far as cohorts and statistics need them: row k of each
 * column belongs to the same household. NaN marks an optional number that was not given.
 */
export interface ScoredRows {
  /** Predicted Saving Ability, monthly whole dollars (may be negative). */
  readonly psa: Float64Array;
  /** Main score, 0.0–100.0 with one decimal. */
  readonly score: Float64Array;
  readonly savingsScore: Float64Array;
  readonly netIncome: Float64Array;
  /** Gross annual income, NaN when not given. */
  readonly grossIncome: Float64Array;
  readonly age: Float64Array;
  readonly householdMembers: Float64Array;
  /** The household type as given, null when not given. */
  readonly householdType: readonly (string | null)[];
  readonly state: readonly (string | null)[];
  /** 1 for a homeowner, 0 for a renter, NaN when not given. */
  readonly homeowner: Float64Array;
  /** The geography level the engine used (`zip`, `zip3`, `state`, `national`). */
  readonly geoLevel: readonly string[];
  /** The main score's index, unclamped, one decimal. */
  readonly index: Float64Array;
  /** The index's percentile among US households, 0.0–100.0. */
  readonly percentile: Float64Array;
  /** The lending index, one decimal; NaN for a row without a loan. */
  readonly lendingIndex: Float64Array;
  /** The main score's reason codes joined by `;`, '' when none. */
  readonly reasonCodes: readonly string[];
  /** The expense flags joined by `;` (`CODE:category`), '' when none. */
  readonly expenseFlags: readonly string[];
  /** One column per --group-by column, in `SummaryBuilder.groupBy` order (the cell's text, '' when empty). */
  readonly groups: readonly (readonly string[])[];
}

/** `ScoredRows` as its producer fills it: numbers set by index, texts pushed or set by index. */
export type ScoredRowsBuffer = ScoredRows & {
  readonly state: (string | null)[];
  readonly geoLevel: string[];
  readonly householdType: (string | null)[];
  readonly reasonCodes: string[];
  readonly expenseFlags: string[];
  readonly groups: string[][];
};

/** Columns for up to `capacity` scored rows with `groupCount` --group-by columns. */
export const scoredRowsBuffer = (capacity: number, groupCount: number): ScoredRowsBuffer => ({
  psa: new Float64Array(capacity),
  score: new Float64Array(capacity),
  savingsScore: new Float64Array(capacity),
  netIncome: new Float64Array(capacity),
  grossIncome: new Float64Array(capacity),
  age: new Float64Array(capacity),
  householdMembers: new Float64Array(capacity),
  householdType: [],
  state: [],
  homeowner: new Float64Array(capacity),
  geoLevel: [],
  index: new Float64Array(capacity),
  percentile: new Float64Array(capacity),
  lendingIndex: new Float64Array(capacity).fill(Number.NaN),
  reasonCodes: [],
  expenseFlags: [],
  groups: Array.from({ length: groupCount }, () => []),
});

/**
 * A dimension's cohort values numbered 0, 1, … in the order they are first seen, so that a summary keeps
 * its cohorts in an array: a band's number is its index, with no look-up at all, and a state or
 * --group-by value takes one look-up of its number. Each row's label looked up among the cohorts, once per
 * dimension, was a quarter of the summary's work per row.
 */
export class CohortNumbers {
  readonly #labels: string[] = [];
  readonly #numbers = new Map<string, number>();

  /** `labels` are numbered first, in their order. */
  constructor(labels: readonly string[] = []) {
    for (const label of labels) this.numberOf(label);
  }

  numberOf(label: string): number {
    let number = this.#numbers.get(label);
    if (number === undefined) {
      number = this.#labels.length;
      this.#labels.push(label);
      this.#numbers.set(label, number);
    }
    return number;
  }

  labelOf(number: number): string {
    const label = this.#labels[number];
    if (label === undefined) throw new Error(`cohort number ${number} was never given out`);
    return label;
  }
}

export interface Dimension {
  readonly name: string;
  /** `default` cohorts are always computed; `group_by` ones come from --group-by columns. */
  readonly kind: 'default' | 'group_by';
  /** A numbering of this dimension's cohorts for `cohortsOf` (bands come numbered in band order). */
  cohortNumbers(): CohortNumbers;
  /** Writes the number, in `numbers`, of the cohort of each of the first `count` rows into `out`. */
  cohortsOf(rows: ScoredRows, count: number, numbers: CohortNumbers, out: Int32Array): void;
  /** Display order of cohort values: bands in band order, anything else by value; unknown last. */
  compare(a: string, b: string): number;
}

const unknownLast =
  (compareKnown: (a: string, b: string) => number) =>
  (a: string, b: string): number => {
    if (a === b) return 0;
    if (a === UNKNOWN) return 1;
    if (b === UNKNOWN) return -1;
    return compareKnown(a, b);
  };

// Code-unit order rather than localeCompare: the summary must not depend on the machine's locale.
const byCodeUnits = unknownLast((a, b) => (a < b ? -1 : 1));

const byBandOrder = (bands: readonly Band[]) =>
  unknownLast(
    (a, b) => bands.findIndex((band) => band.label === a) - bands.findIndex((band) => band.label === b),
  );

const bandDimension = (
  name: string,
  bands: readonly Band[],
  field: (rows: ScoredRows) => Float64Array,
): Dimension => ({
  name,
  kind: 'default',
  // Band b is cohort number b, and UNKNOWN the one after the last band: bandIndexOf's numbering.
  cohortNumbers: () => new CohortNumbers([...bands.map((band) => band.label), UNKNOWN]),
  cohortsOf: (rows, count, _numbers, out) => {
    const values = field(rows);
    for (let k = 0; k < count; k++) out[k] = bandIndexOf(bands, values[k]!);
  },
  compare: byBandOrder(bands),
});

export const DEFAULT_DIMENSIONS: readonly Dimension[] = [
  {
    name: 'state',
    kind: 'default',
    cohortNumbers: () => new CohortNumbers(),
    cohortsOf: (rows, count, numbers, out) => {
      for (let k = 0; k < count; k++) out[k] = numbers.numberOf(rows.state[k] ?? UNKNOWN);
    },
    compare: byCodeUnits,
  },
  bandDimension('age_band', AGE_BANDS, (rows) => rows.age),
  bandDimension('income_band', INCOME_BANDS, (rows) => rows.netIncome),
  bandDimension('household_size', HOUSEHOLD_SIZE_BANDS, (rows) => rows.householdMembers),
  {
    name: 'household_type',
    kind: 'default',
    cohortNumbers: () => new CohortNumbers(),
    cohortsOf: (rows, count, numbers, out) => {
      for (let k = 0; k < count; k++) out[k] = numbers.numberOf(rows.householdType[k] ?? UNKNOWN);
    },
    compare: byCodeUnits,
  },
];

/** The `index`-th --group-by dimension, named after its column. */
export const groupByDimension = (column: string, index: number): Dimension => ({
  name: column,
  kind: 'group_by',
  cohortNumbers: () => new CohortNumbers(),
  cohortsOf: (rows, count, numbers, out) => {
    const values = rows.groups[index]!;
    for (let k = 0; k < count; k++) {
      const value = values[k];
      out[k] = numbers.numberOf(value === undefined || value === '' ? UNKNOWN : value);
    }
  },
  compare: byCodeUnits,
});

/** The dimensions of a summary, in the order they appear in summary.json and the report. */
export const dimensionsFor = (groupBy: readonly string[]): readonly Dimension[] => [
  ...DEFAULT_DIMENSIONS,
  ...groupBy.map(groupByDimension),
];
