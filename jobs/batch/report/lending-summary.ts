/**
 * The summary's lender-mode section, for a file that gives loans: how the lending index (docs/scores.md,
 * "Lender mode") is distributed over the applicants with a loan, and the cut-off table, the share of them
 * at or above each lending index threshold, overall and by cohort. Everything is a count, so shard
 * summaries merge into exactly the single run's by adding.
 */
import Type, { type Static } from '../../../src/vendor/typebox.js';
import type { Dimension } from './cohorts.js';
import { roundTo } from './format.js';

/**
 * The lending index thresholds of the cut-off table. 80 is a surplus of exactly 0 after the stressed
 * payment; each 10 points below it is a shortfall of 10 % of take-home pay a year, each above a surplus.
 */
export const LENDING_THRESHOLDS = [0, 20, 40, 60, 70, 80, 90, 100] as const;

/** The distribution's bins: under 0, ten points wide from 0 to 100, and 100 or more. */
const BIN_EDGES = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;

const Count = Type.Integer({ minimum: 0 });

const CutOffs = {
  rows: Count,
  /** Rows at or above each threshold, in LENDING_THRESHOLDS order. */
  at_or_above: Type.Array(Count),
  /** at_or_above / rows, 4 decimals; null for a cohort without a loan. */
  shares: Type.Array(Type.Union([Type.Number(), Type.Null()])),
};

const LendingBin = Type.Object(
  {
    from: Type.Union([Type.Number(), Type.Null()]),
    to: Type.Union([Type.Number(), Type.Null()]),
    count: Count,
  },
  { additionalProperties: false },
);

export const LendingSummary = Type.Object(
  {
    thresholds: Type.Array(Type.Number()),
    overall: Type.Object({ ...CutOffs, histogram: Type.Array(LendingBin) }, { additionalProperties: false }),
    dimensions: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          cohorts: Type.Array(
            Type.Object({ value: Type.String(), ...CutOffs }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type LendingSummary = Static<typeof LendingSummary>;

/** Rows and rows at or above each threshold of one cohort. */
class CutOffCounts {
  rows = 0;
  readonly atOrAbove = new Array<number>(LENDING_THRESHOLDS.length).fill(0);

  add(indexX10: number): void {
    this.rows++;
    for (let t = 0; t < LENDING_THRESHOLDS.length; t++)
      if (indexX10 >= LENDING_THRESHOLDS[t]! * 10) this.atOrAbove[t]!++;
  }

  addCounts(rows: number, atOrAbove: readonly number[]): void {
    this.rows += rows;
    atOrAbove.forEach((count, t) => {
      this.atOrAbove[t]! += count;
    });
  }

  json() {
    const { rows } = this;
    return {
      rows,
      at_or_above: [...this.atOrAbove],
      shares: this.atOrAbove.map((count) => (rows === 0 ? null : roundTo(count / rows, 4))),
    };
  }
}

const binOf = (indexX10: number): number => {
  let bin = 0;
  while (bin < BIN_EDGES.length && indexX10 >= BIN_EDGES[bin]! * 10) bin++;
  return bin;
};

/** The section's exact state: overall counts, a histogram, and counts per cohort of every dimension. */
export class LendingAccumulator {
  readonly #overall = new CutOffCounts();
  readonly #histogram = new Array<number>(BIN_EDGES.length + 1).fill(0);
  readonly #cohorts: Map<string, CutOffCounts>[];

  constructor(private readonly dimensions: readonly Dimension[]) {
    this.#cohorts = dimensions.map(() => new Map());
  }

  #cohort(dimension: number, value: string): CutOffCounts {
    const cohorts = this.#cohorts[dimension]!;
    let counts = cohorts.get(value);
    if (counts === undefined) {
      counts = new CutOffCounts();
      cohorts.set(value, counts);
    }
    return counts;
  }

  /** One row with a loan, by its lending index (one decimal). */
  addRow(lendingIndex: number): void {
    const indexX10 = Math.round(lendingIndex * 10);
    this.#overall.add(indexX10);
    this.#histogram[binOf(indexX10)]!++;
  }

  /** The same row in its cohort `value` of dimension `dimension`. */
  addToCohort(dimension: number, value: string, lendingIndex: number): void {
    this.#cohort(dimension, value).add(Math.round(lendingIndex * 10));
  }

  /** A summary's section (a shard's), added to this one. */
  addSummary(section: LendingSummary): void {
    this.#overall.addCounts(section.overall.rows, section.overall.at_or_above);
    section.overall.histogram.forEach((bin, b) => {
      this.#histogram[b]! += bin.count;
    });
    section.dimensions.forEach((dimension, d) => {
      for (const cohort of dimension.cohorts)
        this.#cohort(d, cohort.value).addCounts(cohort.rows, cohort.at_or_above);
    });
  }

  toJson(): LendingSummary {
    const edges = [null, ...BIN_EDGES, null];
    return {
      thresholds: [...LENDING_THRESHOLDS],
      overall: {
        ...this.#overall.json(),
        histogram: this.#histogram.map((count, b) => ({ from: edges[b]!, to: edges[b + 1]!, count })),
      },
      dimensions: this.dimensions.map((dimension, d) => ({
        name: dimension.name,
        cohorts: [...this.#cohorts[d]!]
          .sort(([a], [b]) => dimension.compare(a, b))
          .map(([value, counts]) => ({ value, ...counts.json() })),
      })),
    };
  }
}
