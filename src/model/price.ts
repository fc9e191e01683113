/**
 * The price response of a place, under the household's budget (docs/model.md, method 3). Each category
 * has an elasticity to its RPP component, but those only say how spending is *shared out* in a dearer
 * place: the factors are re-normalised so that, for the national budget shares, total spending at a given
 * take-home moves with the place's price level only by the total's own elasticity. The price level is
 * the budget-share-weighted mean of the components' ln parities, so a ZIP's rent index raises it by
 * housing's share of the budget.
 *
 * Shared by the build (fit offsets, calibration) and the engine (per place), so both apply one formula.
 */

/** The artifact's budget section (ModelArtifact.priceBudget). */
export interface PriceBudget {
  /** Elasticity of total spending at fixed take-home to the price level. */
  readonly totalElasticity: number;
  /** [category]: national budget share; sums to 1. */
  readonly share: ArrayLike<number>;
}

/** ln(price level): Σ share × ln(component parity / 100) of each category's component. */
export function logPriceLevel(
  logRpp: ArrayLike<number>,
  component: ArrayLike<number>,
  share: ArrayLike<number>,
): number {
  let level = 0;
  for (let c = 0; c < share.length; c++) level += share[c]! * logRpp[component[c]!]!;
  return level;
}

/**
 * Writes each category's ln price factor into `out` (length = categories): its elasticity times its
 * component's ln parity, shifted by one common term so that Σ share × factor = level^totalElasticity.
 * Without a budget (an artifact that has none) each category's factor stands alone.
 */
export function writeLogPriceFactors(
  logRpp: ArrayLike<number>,
  component: ArrayLike<number>,
  elasticity: ArrayLike<number>,
  budget: PriceBudget | undefined,
  out: Float64Array,
): void {
  for (let c = 0; c < out.length; c++) out[c] = elasticity[c]! * logRpp[component[c]!]!;
  if (budget === undefined) return;
  let mean = 0;
  for (let c = 0; c < out.length; c++) mean += budget.share[c]! * Math.exp(out[c]!);
  const shift = budget.totalElasticity * logPriceLevel(logRpp, component, budget.share) - Math.log(mean);
  for (let c = 0; c < out.length; c++) out[c] = out[c]! + shift;
}
