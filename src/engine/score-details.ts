/**
 * The explanation of one score, as one object: the indices, the percentile, the reasons, the flags and,
 * with a proposed loan, lender mode. The shapes are defined once here (TypeBox), for the response's
 * `details`, the request's `loan` and `options`, and the OpenAPI document.
 */
import { BASES, type Basis, type LoanRequest } from '../contract/schemas.js';
import { GEO_FLAGS, GEO_LEVELS, type GeoFlag, type GeoLevel, geoFlagOf } from '../geo/types.js';
import Type, { type Static } from '../vendor/typebox.js';
import {
  expenseFlags,
  FLAG_CODES,
  heldToBenchmarks,
  incomeFlags,
  type PeerBenchmarks,
  rentFreeFlags,
} from './benchmark.js';
import {
  clampedScore,
  indicesOf,
  type ScoreParts,
  type StatedAmounts,
  statedByIndex,
  statedSpending,
} from './index-score.js';
import { lendingOf } from './lending.js';
import { lendingReasons, type Reason, savingsReasons, scoreReasonCodes, scoreReasons } from './reasons.js';
import { percentileOf, type ScoreReference } from './score-reference.js';
import { scoreTerms, TermItem } from './terms.js';

/**
 * The score profiles: `standard` scores the profile as sent; `fair-lending` scores it without age and
 * household type (fair-lending.ts), and its percentile reads the reference of that profile.
 */
export const SCORE_PROFILES = ['standard', 'fair-lending'] as const;
export type ScoreProfile = (typeof SCORE_PROFILES)[number];

const ReasonItem = Type.Object({ code: Type.String(), text: Type.String() }, { additionalProperties: false });

const FlagItem = Type.Object(
  {
    code: Type.Enum([...FLAG_CODES, ...GEO_FLAGS], { type: 'string' }),
    category: Type.Union([Type.String(), Type.Null()]),
    stated: Type.Optional(Type.Integer({ description: 'The stated amount; absent on a ZIP flag.' })),
    benchmark: Type.Optional(Type.Integer({ description: 'What it is held to; absent on a ZIP flag.' })),
  },
  { additionalProperties: false },
);

/** The flag of a place scored with less than the model's local detail (`geoFlagOf`), as a details item. */
export function geoFlags(level: GeoLevel): { code: GeoFlag; category: null }[] {
  const code = geoFlagOf(level);
  return code === undefined ? [] : [{ code, category: null }];
}

const LendingDetails = Type.Object(
  {
    stressed_payment: Type.Integer({ description: 'The payment as assessed, monthly, whole units.' }),
    surplus: Type.Integer({ description: 'PSA less the stressed payment, monthly, whole units.' }),
    index: Type.Number({ description: '80 + 100 × 12 × surplus / take-home, one decimal, unclamped.' }),
    score: Type.Number({ description: 'The index clamped to 0–100.' }),
    reasons: Type.Array(ReasonItem, { maxItems: 4 }),
  },
  { additionalProperties: false },
);

export const ScoreDetails = Type.Object(
  {
    basis: Type.Enum(BASES, { type: 'string' }),
    profile: Type.Enum(SCORE_PROFILES, { type: 'string' }),
    psa: Type.Integer({ description: 'The PSA on this basis, monthly, whole units.' }),
    index: Type.Number({ description: 'The main score unclamped, one decimal.' }),
    savings_index: Type.Number({ description: 'The SAViNGS score unclamped, one decimal.' }),
    percentile: Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Where the index sits among US households (data/model/score-reference.json), one decimal.',
    }),
    reasons: Type.Array(ReasonItem, { maxItems: 4 }),
    savings_reasons: Type.Array(ReasonItem, { maxItems: 4 }),
    terms: Type.Array(TermItem, {
      description:
        'Every term of the index decomposition on this basis (docs/scores.md), dollars a year, signed: they ' +
        'sum to 12 × PSA before its rounding.',
    }),
    flags: Type.Array(FlagItem),
    geo_level: Type.Enum(GEO_LEVELS, { type: 'string' }),
    model_version: Type.String(),
    lending: Type.Optional(LendingDetails),
  },
  { additionalProperties: false },
);
export type ScoreDetails = Static<typeof ScoreDetails>;

/** How a household's score is explained: its peers' benchmarks, and options. */
export interface ExplainOptions {
  /** Default `stated`. */
  readonly basis?: Basis | undefined;
  /** Default `standard`. The parts must have been evaluated for this profile (`fairLendingRequest`). */
  readonly profile?: ScoreProfile | undefined;
  /** Per-category percentiles of peers' spending (`rangeBenchmarks` of the model's ranges). */
  readonly benchmarks: PeerBenchmarks;
}

export interface DetailsInput extends ExplainOptions {
  readonly parts: ScoreParts;
  readonly reference: ScoreReference;
  readonly geoLevel: GeoLevel;
  readonly modelVersion: string;
  readonly loan?: LoanRequest | undefined;
  /** The request's `gross_annual_income`, for its flag. */
  readonly grossIncome?: number | undefined;
}

const reasonItems = (reasons: readonly Reason[]) => reasons.map(({ code, text }) => ({ code, text }));

/**
 * The household as the options' basis sees it, with its stated amounts (`statedByIndex`), its indices and
 * its benchmarks. `stated` is `statedByIndex(parts.stated)`, for a caller that has read it already.
 */
function onBasis(parts: ScoreParts, options: ExplainOptions, stated?: StatedAmounts) {
  const { benchmarks } = options;
  const held = options.basis === 'benchmark';
  const basisParts = held ? heldToBenchmarks(parts, benchmarks) : parts;
  const basisStated = held || stated === undefined ? statedByIndex(basisParts.stated) : stated;
  const indices = indicesOf(basisParts, statedSpending(basisParts, basisStated));
  return { onBasis: basisParts, basisStated, indices, benchmarks };
}

/**
 * `onBasis`, and the index's percentile. Written out, not `{ ...seen, percentile }`: on Node 20 an object
 * spread followed by a key the spread object lacks took about 3 µs a call (Node 22: 0.05 µs); with the
 * explanation's two spreads per row named out, Arrow → Arrow (200,000 rows, `--workers 0`) took 0.8 of
 * the CPU on Node 20.
 */
function explained(
  parts: ScoreParts,
  reference: ScoreReference,
  options: ExplainOptions,
  stated?: StatedAmounts,
) {
  const { onBasis: basisParts, basisStated, indices, benchmarks } = onBasis(parts, options, stated);
  const quantiles = options.profile === 'fair-lending' ? reference.fairLendingIndex : reference.outlayIndex;
  const percentile = percentileOf(quantiles, indices.index);
  return { onBasis: basisParts, basisStated, indices, benchmarks, percentile };
}

/**
 * Writes the score response's values (`writeScoreValues`'s order and units) on a basis: the PSA and the
 * two indices clamped to 0–100, which on the stated basis are the engine's own values.
 */
export function writeBasisScoreValues(
  parts: ScoreParts,
  options: ExplainOptions,
  values: Float64Array,
): void {
  const { indices } = onBasis(parts, options);
  values[0] = indices.psa;
  values[1] = clampedScore(indices.index);
  values[2] = clampedScore(indices.savingsIndex);
}

/** The explanation columns the batch output carries beside the contract's, for one household. */
export interface ScoreColumns {
  readonly outlay_index: number;
  readonly savings_index: number;
  readonly outlay_percentile: number;
  /** The main score's reason codes joined by `;`, empty when none. */
  readonly reason_codes: string;
}

/** The explanation columns of one household; `stated` is `statedByIndex(parts.stated)`, read once. */
export function scoreColumns(
  parts: ScoreParts,
  reference: ScoreReference,
  options: ExplainOptions,
  stated: StatedAmounts = statedByIndex(parts.stated),
): ScoreColumns {
  const { onBasis, basisStated, indices, percentile } = explained(parts, reference, options, stated);
  return {
    outlay_index: indices.index,
    savings_index: indices.savingsIndex,
    outlay_percentile: percentile,
    reason_codes: scoreReasonCodes(onBasis, basisStated).join(';'),
  };
}

/** The details of one household's score. */
export function scoreDetails(input: DetailsInput): ScoreDetails {
  const { parts, reference, loan } = input;
  const { onBasis, indices, percentile, benchmarks } = explained(parts, reference, input);
  const { psa, index, savingsIndex } = indices;
  const details: ScoreDetails = {
    basis: input.basis ?? 'stated',
    profile: input.profile ?? 'standard',
    psa,
    index,
    savings_index: savingsIndex,
    percentile,
    reasons: reasonItems(scoreReasons(onBasis)),
    savings_reasons: reasonItems(savingsReasons(onBasis)),
    terms: scoreTerms(onBasis),
    flags: [
      ...incomeFlags(parts.netIncome, input.grossIncome),
      ...expenseFlags(parts, benchmarks),
      ...rentFreeFlags(parts, benchmarks),
    ],
    geo_level: input.geoLevel,
    model_version: input.modelVersion,
  };
  if (loan === undefined) return details;
  const lending = lendingOf(psa, parts.netIncome, {
    monthlyPayment: loan.monthly_payment,
    stressMultiplier: loan.stress_multiplier,
  });
  return {
    ...details,
    lending: {
      stressed_payment: lending.stressedPayment,
      surplus: lending.surplus,
      index: lending.index,
      score: lending.score,
      reasons: reasonItems(lendingReasons(onBasis, loan.monthly_payment, lending.stressedPayment)),
    },
  };
}
