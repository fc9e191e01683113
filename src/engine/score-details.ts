/**
 * The explanation of one score, as one object: the indices, the percentile, the reasons, the flags and,
 * with a proposed loan, lender mode. The shapes are defined once here (TypeBox), for the response's
 * `details`, the request's `loan` and `options`, and the OpenAPI document.
 */
import type { Basis, LoanRequest } from '../contract/schemas.js';
import type { ScoreDetails, ScoreProfile } from '../contract/score-details.js';
import { type GeoFlag, type GeoLevel, geoFlagOf } from '../geo/types.js';
import {
  expenseFlags,
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
import { scoreTerms } from './terms.js';

// The shapes live with the contract (src/contract/score-details.ts); re-exported for the engine's users.
export { SCORE_PROFILES, ScoreDetails, type ScoreProfile } from '../contract/score-details.js';

/** The flag of a place scored with less than the model's local detail (`geoFlagOf`), as a details item. */
export function geoFlags(level: GeoLevel): { code: GeoFlag; category: null }[] {
  const code = geoFlagOf(level);
  return code === undefined ? [] : [{ code, category: null }];
}

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
      ...geoFlags(input.geoLevel),
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
