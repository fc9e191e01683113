/**
 * A scored row's lender mode, for the scored file's lending columns (LENDING_COLUMNS): from the in-process
 * engine's parts, or from a remote answer's `details.lending`. Both are the API's lender mode
 * (src/engine/lending.ts, docs/scores.md "Lender mode"), so local and remote runs write the same values.
 */
import type { Basis } from '../../../src/contract/schemas.js';
import { heldToBenchmarks, type PeerBenchmarks } from '../../../src/engine/benchmark.js';
import type { ScoreParts } from '../../../src/engine/index-score.js';
import { lendingOf } from '../../../src/engine/lending.js';
import { lendingReasons } from '../../../src/engine/reasons.js';
import type { RemoteLending } from '../../../src/remote/evaluate-answer.js';

export interface LendingValues {
  /** The monthly payment read or derived from amount, term and rate (whole cents). */
  readonly payment: number;
  readonly surplus: number;
  readonly index: number;
  readonly score: number;
  /** The lending index's reason codes joined by `;`, empty when none. */
  readonly reasonCodes: string;
}

/**
 * Lender mode of a household evaluated in process: `psa` is the returned PSA on the job's basis, `parts`
 * the household's as stated (held to the benchmarks here on the benchmark basis, as the API's details are).
 */
export function localLending(
  parts: ScoreParts,
  psa: number,
  payment: number,
  basis: Basis,
  benchmarks: PeerBenchmarks,
): LendingValues {
  const lending = lendingOf(psa, parts.netIncome, { monthlyPayment: payment });
  const basisParts = basis === 'benchmark' ? heldToBenchmarks(parts, benchmarks) : parts;
  const reasons = lendingReasons(basisParts, payment, lending.stressedPayment);
  return {
    payment,
    surplus: lending.surplus,
    index: lending.index,
    score: lending.score,
    reasonCodes: reasons.map(({ code }) => code).join(';'),
  };
}

/** Lender mode from a remote answer; the answer must carry it, since the request sent the loan. */
export function remoteLending(payment: number, lending: RemoteLending | undefined): LendingValues {
  if (lending === undefined)
    throw new Error('the remote server answered a request with a loan without details.lending (lender mode)');
  return {
    payment,
    surplus: lending.surplus,
    index: lending.index,
    score: lending.score,
    reasonCodes: lending.reasons,
  };
}
