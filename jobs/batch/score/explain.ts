/**
 * A household's figures with its explanation columns, on the job's basis and profile, from an in-process
 * engine: the local scorer's one evaluation step. With the fair-lending profile the score and its
 * explanation come from the request without age and household type, the budget and the model from the
 * request as sent (docs/scores.md, "The fair-lending profile").
 */
import type { Basis } from '../../../src/contract/schemas.js';
import type { ValidRequest } from '../../../src/contract/validate.js';
import { expenseFlags, type Flag } from '../../../src/engine/benchmark.js';
import { fairLendingRequest } from '../../../src/engine/fair-lending.js';
import { type ScoreParts, statedByIndex } from '../../../src/engine/index-score.js';
import { type ScoreColumns, scoreColumns } from '../../../src/engine/score-details.js';
import type { ScoreReference } from '../../../src/engine/score-reference.js';
import type { HouseholdFigures, LocalEngine } from '../../../src/engine/types.js';
import { type GeoLevel, geoFlagOf } from '../../../src/geo/types.js';
import type { ScoringOptions } from './layout.js';
import { type LendingValues, localLending } from './lending.js';

/** What the explanation columns write of one household (EXPLANATION_COLUMNS order, `expense_flags` last). */
/** What the scored files write of a household: its figures but the model's unrounded amounts. */
export type WrittenFigures = Omit<HouseholdFigures, 'modeled'>;

export interface ExplanationValues extends ScoreColumns {
  /**
   * The expense flags as `CODE:category` (`CODE` alone for a total), then the ZIP flag of a place scored
   * with less than local detail, joined by `;`, empty when none.
   */
  readonly expense_flags: string;
}

export interface ExplainedFigures {
  readonly figures: WrittenFigures;
  readonly explanation: ExplanationValues;
  /** Lender mode, for a row with a loan; null without one. */
  readonly lending: LendingValues | null;
}

/**
 * The engine's score reference, or an error saying how to give one: the explanation columns' percentile
 * reads it, and a model other than the shipped one has none unless it is named.
 */
export function referenceOf(engine: LocalEngine): ScoreReference {
  const reference = engine.scoreReference;
  if (reference === undefined) {
    throw new Error(
      `model ${engine.modelVersion} has no score reference, which the scored file's outlay_percentile needs: pass --score-reference with one built for this model`,
    );
  }
  return reference;
}

/** The request on a basis: `options.basis` set when it is not the default. */
const onBasis = (request: ValidRequest, basis: Basis): ValidRequest =>
  basis === 'stated' ? request : { ...request, options: { ...request.options, basis } };

const partsOf = (request: ValidRequest, figures: HouseholdFigures): ScoreParts => ({
  netIncome: request.demographics.net_annual_income,
  stated: request.budget ?? {},
  peers: figures.modeled,
});

/** Flags as the `expense_flags` column writes them. */
export const flagText = (flags: readonly { code: string; category: string | null }[]): string =>
  flags.map(({ code, category }) => (category === null ? code : `${code}:${category}`)).join(';');

/**
 * The `expense_flags` column: the expense flags, then the place's ZIP flag. Built from the text, not from
 * one more array of flags: most rows have neither.
 */
function expenseFlagsColumn(expense: readonly Flag[], level: GeoLevel): string {
  const text = expense.length === 0 ? '' : flagText(expense);
  const zipFlag = geoFlagOf(level);
  if (zipFlag === undefined) return text;
  return text === '' ? zipFlag : `${text};${zipFlag}`;
}

/**
 * Evaluates one household. The figures are the engine's buffers (valid until its next call), but for the
 * fair-lending profile's score values, kept in `scoreValues`, which the caller owns.
 */
export function explainedFigures(
  engine: LocalEngine,
  reference: ScoreReference,
  request: ValidRequest,
  scoring: ScoringOptions,
  scoreValues: Float64Array,
  payment: number | null = null,
): ExplainedFigures {
  const { basis, profile } = scoring;
  const scored = profile === 'fair-lending' ? fairLendingRequest(request) : request;
  const figures = engine.householdFiguresOf(onBasis(scored, basis));
  const parts = partsOf(scored, figures);
  const benchmarks = engine.peerBenchmarksOf(scored.demographics);
  const stated = statedByIndex(parts.stated);
  const columns = scoreColumns(parts, reference, { basis, profile, benchmarks }, stated);
  // Each column named, not spread (see score-details.ts, `explained`).
  const explanation: ExplanationValues = {
    outlay_index: columns.outlay_index,
    savings_index: columns.savings_index,
    outlay_percentile: columns.outlay_percentile,
    reason_codes: columns.reason_codes,
    expense_flags: expenseFlagsColumn(expenseFlags(parts, benchmarks, stated), figures.geography.level),
  };
  // Before the fair-lending profile's second evaluation, which overwrites the peers `parts` reads.
  const lending =
    payment === null ? null : localLending(parts, figures.scoreValues[0]!, payment, basis, benchmarks);
  if (profile === 'standard') return { figures, explanation, lending };
  scoreValues.set(figures.scoreValues);
  const { budget, model, geography } = engine.householdFiguresOf(request);
  return { figures: { budget, model, geography, scoreValues }, explanation, lending };
}
