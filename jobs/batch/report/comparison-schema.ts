/**
 * The shape of a comparison of a run with a reference run: `summary.comparison` with `--reference`, and
 * what `outlay compare --json` prints. Counts are exact; PSIs and shares are rounded to 4 decimals.
 */
import Type, { type Static, type TSchema } from '../../../src/vendor/typebox.js';

const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Count = Type.Integer({ minimum: 0 });

/** What identifies a run and what its scores depend on. */
const RunFacts = Type.Object(
  {
    input: Type.String(),
    input_sha256: OrNull(Type.String()),
    merged_shards: OrNull(Type.Integer({ minimum: 1 })),
    model_version: Type.String(),
    price_year: OrNull(Type.Integer()),
    basis: Type.String(),
    score_profile: Type.String(),
    finished_at: Type.String(),
    rows_in: Count,
    rows_scored: Count,
  },
  { additionalProperties: false },
);

const Reading = Type.Union([Type.Literal('stable'), Type.Literal('watch'), Type.Literal('shifted')]);

const FieldStability = Type.Object(
  {
    field: Type.String(),
    kind: Type.Union([Type.Literal('input'), Type.Literal('output')]),
    /** Null when one of the runs has no rows for the field, or lacks it (`note` says which). */
    psi: OrNull(Type.Number()),
    reading: OrNull(Reading),
    note: OrNull(Type.String()),
    /** Rows per bin in the reference run and in this one. */
    bins: Type.Array(
      Type.Object(
        { label: Type.String(), reference: Count, current: Count },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** A share of rows in the reference run and in this one, and the change (this − reference). */
const ShareChange = Type.Object(
  {
    name: Type.String(),
    reference: OrNull(Type.Number()),
    current: OrNull(Type.Number()),
    change: OrNull(Type.Number()),
  },
  { additionalProperties: false },
);

const MedianChange = Type.Object(
  {
    dimension: Type.String(),
    cohort: Type.String(),
    reference_rows: Count,
    current_rows: Count,
    reference_median_psa: OrNull(Type.Number()),
    current_median_psa: OrNull(Type.Number()),
    reference_median_index: OrNull(Type.Number()),
    current_median_index: OrNull(Type.Number()),
  },
  { additionalProperties: false },
);

export const Comparison = Type.Object(
  {
    reference: RunFacts,
    current: RunFacts,
    /** Plain sentences, one per difference in what the scores depend on (model, prices, basis, profile). */
    warnings: Type.Array(Type.String()),
    psi: Type.Array(FieldStability),
    /** Rejected rows per row in (the name is `rejected`). */
    reject_rate: ShareChange,
    /** Rejected rows per category, per row in. */
    rejected_by_reason: Type.Array(ShareChange),
    /** Scored rows with each reason code, and each expense flag, per scored row. */
    reason_codes: Type.Array(ShareChange),
    expense_flags: Type.Array(ShareChange),
    /** Median PSA and index of every cohort of the dimensions both runs have. */
    cohort_medians: Type.Array(MedianChange),
  },
  { additionalProperties: false },
);

export type Comparison = Static<typeof Comparison>;
export type FieldStability = Static<typeof FieldStability>;
export type ShareChange = Static<typeof ShareChange>;
export type MedianChange = Static<typeof MedianChange>;
export type RunFacts = Static<typeof RunFacts>;
export type PsiReadingJson = Static<typeof Reading>;
