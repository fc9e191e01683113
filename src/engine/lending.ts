/**
 * Lender mode: the household's surplus after a proposed loan payment, stressed, in dollars and on the
 * main score's scale. A ratio alone scales with income; the surplus in dollars does not, which is why
 * APRA's prudential guide APG 223 assesses serviceability by a net income surplus. The stress buffer
 * and its reasoning are in docs/scores.md ("Lender mode").
 */
import { DEFAULT_STRESS_MULTIPLIER } from '../contract/limits.js';
import { clampedScore, indexPoints } from './index-score.js';
import { roundHalfAwayFromZero } from './rounding.js';

export interface Loan {
  /** The proposed payment, monthly, ≥ 0. */
  readonly monthlyPayment: number;
  /** The stress buffer as a multiple of the payment, ≥ 1 (default DEFAULT_STRESS_MULTIPLIER). */
  readonly stressMultiplier?: number | undefined;
}

export interface Lending {
  /** The payment as assessed, monthly, whole units. */
  readonly stressedPayment: number;
  /** The PSA less the stressed payment, monthly, whole units; negative when the payment is not covered. */
  readonly surplus: number;
  /** 80 + 100 × 12 × surplus / net, one decimal, unclamped: 80 is a surplus of exactly 0. */
  readonly index: number;
  /** The index clamped to 0–100, as the main score is. */
  readonly score: number;
}

/**
 * Lender mode from the returned whole-unit PSA (monthly) and take-home pay (annual). Every extra dollar
 * of monthly payment lowers the surplus by at least a dollar (the multiplier is ≥ 1), so it lowers the
 * surplus and never raises the index.
 */
export function lendingOf(psa: number, netIncome: number, loan: Loan): Lending {
  const multiplier = loan.stressMultiplier ?? DEFAULT_STRESS_MULTIPLIER;
  if (!(multiplier >= 1) || !Number.isFinite(multiplier)) {
    throw new RangeError(`loan.stress_multiplier must be a number ≥ 1, got ${multiplier}`);
  }
  if (!(loan.monthlyPayment >= 0) || !Number.isFinite(loan.monthlyPayment)) {
    throw new RangeError(`loan.monthly_payment must be a number ≥ 0, got ${loan.monthlyPayment}`);
  }
  const stressed = loan.monthlyPayment * multiplier;
  const surplus = roundHalfAwayFromZero(psa - stressed);
  const index = indexPoints(surplus, 0, netIncome);
  return {
    stressedPayment: roundHalfAwayFromZero(stressed),
    surplus,
    index,
    score: clampedScore(index),
  };
}
