/**
 * The population stability index (PSI) of two binned distributions, and its usual reading. PSI compares
 * the share of rows in each bin of this run (a) with the reference run's (e):
 *
 *   PSI = Σ (a − e) · ln(a / e)   over the bins,
 *
 * which is 0 for identical shares and grows with every bin that gained or lost rows (each term is ≥ 0).
 * It is the symmetric Kullback–Leibler divergence of the two binned distributions, the measure credit
 * scoring monitors population drift with (Siddiqi, Credit Risk Scorecards, 2006; Yurdakul, "Statistical
 * properties of the population stability index", 2018).
 */

/**
 * A share under 0.0001 (1 row in 10,000) counts as 0.0001: a bin empty on one side would make ln(a / e)
 * infinite, and one row more or less in a rare bin must not decide the index. A bin empty on both sides
 * adds nothing.
 */
export const PSI_SHARE_FLOOR = 0.0001;

/** Below this PSI a population is stable (the usual credit-scoring reading). */
export const PSI_STABLE_BELOW = 0.1;
/** Above this PSI it has shifted; from PSI_STABLE_BELOW up to this, watch it. */
export const PSI_SHIFTED_ABOVE = 0.25;

export type PsiReading = 'stable' | 'watch' | 'shifted';

export const psiReading = (psi: number): PsiReading =>
  psi < PSI_STABLE_BELOW ? 'stable' : psi <= PSI_SHIFTED_ABOVE ? 'watch' : 'shifted';

const floored = (share: number) => Math.max(share, PSI_SHARE_FLOOR);

/**
 * PSI of `current` against `reference`, two lists of row counts over the same bins (same order, same
 * length); null when either has no rows, since there is no distribution to compare.
 */
export function populationStabilityIndex(
  reference: readonly number[],
  current: readonly number[],
): number | null {
  if (reference.length !== current.length)
    throw new Error(`psi: ${reference.length} reference bins but ${current.length} current ones`);
  const referenceTotal = reference.reduce((sum, count) => sum + count, 0);
  const currentTotal = current.reduce((sum, count) => sum + count, 0);
  if (referenceTotal === 0 || currentTotal === 0) return null;
  let psi = 0;
  for (let i = 0; i < reference.length; i++) {
    if (reference[i] === 0 && current[i] === 0) continue;
    const e = floored(reference[i]! / referenceTotal);
    const a = floored(current[i]! / currentTotal);
    psi += (a - e) * Math.log(a / e);
  }
  return psi;
}
