/**
 * The shape of `<name>.summary.json`, defined once; the types are derived from it and `outlay merge`
 * validates every input against it. Everything but `distribution` and `meta` is derived from the
 * `distribution` count maps, which are what make summaries mergeable exactly.
 *
 * The exported types are the in-memory ones: the file lists each distribution as `[value, count]` pairs,
 * and memory holds it as `SortedCounts` (two typed arrays); everything else is the same in both.
 */
import Type, { type Static, type TSchema } from '../../../src/vendor/typebox.js';
import { Comparison } from './comparison-schema.js';
import type { SortedCounts } from './count-map.js';
import { LendingSummary } from './lending-summary.js';
import { LineSpansJson } from './line-spans-section.js';

export const SUMMARY_FORMAT = 'outlay-summary';
export const SUMMARY_VERSION = 3;

const Count = Type.Integer({ minimum: 0 });
const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** [value, count] pairs sorted by value. */
const CountEntries = Type.Array(Type.Tuple([Type.Integer(), Type.Integer({ minimum: 1 })]));

const Percentiles = Type.Object(
  {
    p1: Type.Number(),
    p5: Type.Number(),
    p10: Type.Number(),
    p25: Type.Number(),
    p50: Type.Number(),
    p75: Type.Number(),
    p90: Type.Number(),
    p95: Type.Number(),
    p99: Type.Number(),
  },
  { additionalProperties: false },
);

/** A histogram bin [from, to); the first and last bins may be open-ended (null) to hold the tails. */
const Bin = Type.Object(
  { from: OrNull(Type.Number()), to: OrNull(Type.Number()), count: Count },
  { additionalProperties: false },
);

const ScoreBand = Type.Object(
  { label: Type.String(), from: OrNull(Type.Number()), to: OrNull(Type.Number()), count: Count },
  { additionalProperties: false },
);

/** Mean (2 decimals), extremes and percentiles; null for a cohort without scored rows. */
const Statistics = {
  mean: OrNull(Type.Number()),
  min: OrNull(Type.Number()),
  max: OrNull(Type.Number()),
  percentiles: OrNull(Percentiles),
};

const PsaStatistics = Type.Object(
  {
    ...Statistics,
    negative_count: Count,
    /** negative_count / rows, 4 decimals. */
    negative_share: OrNull(Type.Number()),
    histogram: Type.Array(Bin),
  },
  { additionalProperties: false },
);

const ScoreStatistics = Type.Object(
  { ...Statistics, bands: Type.Array(ScoreBand) },
  { additionalProperties: false },
);

/** The main score's index (unclamped): its statistics, how many rows are under break-even, a histogram. */
const IndexStatistics = Type.Object(
  {
    ...Statistics,
    /** Rows with an index under 80 (saving ability below 0), and their share, 4 decimals. */
    below_80_count: Count,
    below_80_share: OrNull(Type.Number()),
    histogram: Type.Array(Bin),
  },
  { additionalProperties: false },
);

/** The index's percentile among US households: statistics and the rows per decile [0, 10), …, [90, 100]. */
const PercentileStatistics = Type.Object(
  { ...Statistics, deciles: Type.Array(Count, { minItems: 10, maxItems: 10 }) },
  { additionalProperties: false },
);

const Distribution = Type.Object(
  {
    psa: CountEntries,
    score_x10: CountEntries,
    savings_score_x10: CountEntries,
    index_x10: CountEntries,
    percentile_x10: CountEntries,
  },
  { additionalProperties: false },
);

const cohortProperties = {
  rows: Count,
  psa: PsaStatistics,
  score: ScoreStatistics,
  savings_score: ScoreStatistics,
  index: IndexStatistics,
  percentile: PercentileStatistics,
  distribution: Distribution,
};

export const CohortStats = Type.Object(cohortProperties, { additionalProperties: false });

export const Cohort = Type.Object(
  { value: Type.String(), ...cohortProperties },
  { additionalProperties: false },
);

export const DimensionSummary = Type.Object(
  {
    name: Type.String(),
    kind: Type.Union([Type.Literal('default'), Type.Literal('group_by')]),
    cohorts: Type.Array(Cohort),
  },
  { additionalProperties: false },
);

export const Shard = Type.Object(
  { index: Type.Integer({ minimum: 1 }), count: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

/** How an input column was used: the contract field it supplied, or null when passed through unused. */
const ColumnUse = Type.Object(
  { column: Type.String(), field: OrNull(Type.String()), declared: Type.Boolean() },
  { additionalProperties: false },
);

export const Engine = Type.Union([Type.Literal('local'), Type.Literal('remote')]);

export const Meta = Type.Object(
  {
    input: Type.String(),
    /** SHA-256 of the input's bytes (hex); absent from summaries written before it was recorded. */
    input_sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    /** The 1-based shard this summary covers, or null for a whole input (a single run or a merge). */
    shard: OrNull(Shard),
    /** How many shard summaries `outlay merge` combined; null for a summary written by `outlay score`. */
    merged_shards: OrNull(Type.Integer({ minimum: 1 })),
    model_version: Type.String(),
    engine: Engine,
    /** The score's basis and profile (`--basis`, `--score-profile`; docs/scores.md). */
    basis: Type.Union([Type.Literal('stated'), Type.Literal('benchmark')]),
    score_profile: Type.Union([Type.Literal('standard'), Type.Literal('fair-lending')]),
    /** The year of the prices every amount is in; absent when a remote server does not say. */
    price_year: Type.Optional(Type.Integer()),
    started_at: Type.String(),
    finished_at: Type.String(),
    /** Milliseconds per phase; summed over shards by a merge. */
    timings: Type.Record(Type.String(), Type.Number()),
    /** Every input column and its use (`declared`: passed through by `--pass-through`). */
    columns: Type.Optional(Type.Array(ColumnUse)),
    /** Scored rows whose ZIP was a 3- or 4-digit number, read with its leading zeros restored. */
    zips_padded: Type.Optional(Count),
  },
  { additionalProperties: false },
);

export const Counts = Type.Object(
  {
    rows_in: Count,
    rows_scored: Count,
    rows_rejected: Count,
    rejected_by_reason: Type.Record(Type.String(), Count),
  },
  { additionalProperties: false },
);

export const Summary = Type.Object(
  {
    format: Type.Literal(SUMMARY_FORMAT),
    version: Type.Literal(SUMMARY_VERSION),
    meta: Meta,
    group_by: Type.Array(Type.String()),
    counts: Counts,
    overall: CohortStats,
    /** Scored rows per reason code of the main score (a row counts once for each of its codes). */
    reason_codes: Type.Record(Type.String(), Count),
    /** Scored rows per expense flag, `CODE:category` or `CODE` for a total. */
    expense_flags: Type.Record(Type.String(), Count),
    /** Scored rows per fixed bin of each input field and output (stability-bins.ts), for comparisons. */
    bins: Type.Record(Type.String(), Type.Record(Type.String(), Count)),
    dimensions: Type.Array(DimensionSummary),
    /** Lender mode, for a file that gives loans: the lending index's distribution and cut-off table. */
    lending: Type.Optional(LendingSummary),
    /** This run against a reference run's summary (`--reference`); absent without one. */
    comparison: Type.Optional(Comparison),
    /** CSV input: records that spanned several lines, when there were any (./line-spans-section.ts). */
    line_spans: Type.Optional(LineSpansJson),
  },
  { additionalProperties: false },
);

/** A summary as summary.json holds it. */
export type SummaryJson = Static<typeof Summary>;
export type DistributionJson = Static<typeof Distribution>;

export type Distribution = { readonly [K in keyof DistributionJson]: SortedCounts };
type WithDistribution<T> = Omit<T, 'distribution'> & { distribution: Distribution };
export type CohortStats = WithDistribution<Static<typeof CohortStats>>;
export type Cohort = WithDistribution<Static<typeof Cohort>>;
export type DimensionSummary = Omit<Static<typeof DimensionSummary>, 'cohorts'> & { cohorts: Cohort[] };
export type Summary = Omit<SummaryJson, 'overall' | 'dimensions'> & {
  overall: CohortStats;
  dimensions: DimensionSummary[];
};
export type SummaryMetaJson = Static<typeof Meta>;
export type PsaStatistics = Static<typeof PsaStatistics>;
export type ScoreStatistics = Static<typeof ScoreStatistics>;
export type IndexStatistics = Static<typeof IndexStatistics>;
export type PercentileStatistics = Static<typeof PercentileStatistics>;
export type HistogramBin = Static<typeof Bin>;
export type ScoreBand = Static<typeof ScoreBand>;
export type Percentiles = Static<typeof Percentiles>;
