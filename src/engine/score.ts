import { formatScore, roundHalfAwayFromZero, SCORE_TENTHS_MAX } from './rounding.js';

/**
 * Predicted Saving Ability, monthly, unrounded: what is left of the net income after `spending` — the
 * given fixed expenses (savings excepted) and the modeled spending of every category not given (savings
 * excepted), given amounts used exactly as sent — divided by 12. May be negative.
 */
export function monthlySavingAbility(netIncome: number, spending: number): number {
  return (netIncome - spending) / 12;
}

/**
 * A score in tenths of a point: 80 + 100 × (12 × PSA − savings) / net income, clamped to 0–100.
 * `psa` is the returned, whole-unit monthly PSA, so a caller can recompute the score from the response.
 * Computed as 800 + 1000 × x / net so that exact halves (e.g. 91.25) stay exact and round away from zero.
 */
export function scoreTenths(psa: number, savings: number, netIncome: number): number {
  const tenths = 800 + (1000 * (12 * psa - savings)) / netIncome;
  return roundHalfAwayFromZero(Math.min(SCORE_TENTHS_MAX, Math.max(0, tenths)));
}

/**
 * Writes the score response values in response order as numbers: PSA in whole units, main score, SAViNGS
 * score in points (a score of t tenths is t / 10). Their texts are formatted only where a response or a
 * CSV cell needs them (`scoreTexts`): the Arrow output and the batch summary store the numbers, and
 * formatting the PSA in every evaluation was 5–7 % of its CPU (bench/analysis/engine.md, in git history).
 * `spending` is as for `monthlySavingAbility`; `savings` is the given savings amount, 0 if none was given.
 */
export function writeScoreValues(
  netIncome: number,
  spending: number,
  savings: number,
  values: Float64Array,
): void {
  const psa = roundHalfAwayFromZero(monthlySavingAbility(netIncome, spending));
  values[0] = psa;
  values[1] = scoreTenths(psa, 0, netIncome) / 10;
  values[2] = scoreTenths(psa, savings, netIncome) / 10;
}

/** The score response's texts of `writeScoreValues`'s numbers, in the same order: e.g. "-310", "91.2", "80.0". */
export const scoreTexts = (values: ArrayLike<number>): string[] => [
  String(values[0]),
  formatScore(values[1]!),
  formatScore(values[2]!),
];
