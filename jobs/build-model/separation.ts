/**
 * How well a score separates a binary outcome, with survey weights: the weighted AUC and the weighted
 * Kolmogorov–Smirnov statistic. Higher scores are meant to go with the outcome. Pure; checked against an
 * independent computation in test/jobs/build-model/separation.test.ts. Hand-written (some 30 lines):
 * the npm packages for ROC curves found take no case weights, which the survey needs.
 */

export interface Separation {
  /**
   * P(score of a household with the outcome > score of one without) + ½ P(equal), each pair weighted by
   * the product of the two households' weights.
   */
  readonly auc: number;
  /** max over thresholds t of |F₁(t) − F₀(t)|, F the weighted share with score ≤ t, with and without. */
  readonly ks: number;
}

/** Row indexes in ascending score order (ties by row): what `separation` sweeps. */
export const ascending = (scores: ArrayLike<number>): number[] =>
  Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]! || a - b);

/**
 * Weighted AUC and KS of `scores` for `outcomes`; both groups must carry positive weight. `order` is
 * `ascending(scores)`, passed by a caller that reweights the same scores many times (the bootstrap).
 */
export function separation(
  scores: ArrayLike<number>,
  outcomes: ArrayLike<boolean>,
  weights: ArrayLike<number>,
  order: readonly number[] = ascending(scores),
): Separation {
  const { positive, negative } = groupWeights(scores, outcomes, weights);
  const n = scores.length;
  let pairs = 0;
  let positiveBelow = 0;
  let negativeBelow = 0;
  let ks = 0;
  for (let start = 0; start < n; ) {
    let end = start;
    let tiedPositive = 0;
    let tiedNegative = 0;
    for (; end < n && scores[order[end]!] === scores[order[start]!]; end++) {
      const i = order[end]!;
      if (outcomes[i]) tiedPositive += weights[i]!;
      else tiedNegative += weights[i]!;
    }
    pairs += tiedPositive * (negativeBelow + tiedNegative / 2);
    positiveBelow += tiedPositive;
    negativeBelow += tiedNegative;
    ks = Math.max(ks, Math.abs(positiveBelow / positive - negativeBelow / negative));
    start = end;
  }
  return { auc: pairs / (positive * negative), ks };
}

/** The total weight with and without the outcome, after checking every row. */
function groupWeights(
  scores: ArrayLike<number>,
  outcomes: ArrayLike<boolean>,
  weights: ArrayLike<number>,
): { positive: number; negative: number } {
  const n = scores.length;
  if (outcomes.length !== n || weights.length !== n) throw new Error('separation: lengths differ');
  let positive = 0;
  let negative = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    if (!(w >= 0) || !Number.isFinite(scores[i]!)) {
      throw new Error(`separation: row ${i} has weight ${w} and score ${scores[i]}`);
    }
    if (outcomes[i]) positive += w;
    else negative += w;
  }
  if (!(positive > 0 && negative > 0)) {
    throw new Error('separation: needs weight with and without the outcome');
  }
  return { positive, negative };
}
