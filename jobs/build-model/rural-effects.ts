/**
 * Rural effects per category, estimated on the 2014 microdata and shrunk toward "no rural difference"
 * (docs/model.md, "Geography", rural places). Per category: what the rural households spent over what the
 * fitted model (income, age, size, tenure, region, state price parities) predicts for the same households
 * had they been urban, i.e. exp(−β_urban) of the Poisson fit, with its CU-clustered standard error (the
 * state effects' machinery, state-effects.ts); the categories' between-category variance τ² of the ln
 * ratios by DerSimonian–Laird; each ln ratio shrunk toward 0 by τ²/(τ² + SE²); and the shrunk factor held
 * within its estimate's 95 % interval, so no category's rural factor says more or less than its own data.
 *
 * The calibration does not rake the area dimension (calibrate.ts): the published 2023 area table defines
 * rural by the 2020 Census (19 % of CUs) and the 2014 microdata by its own (8 %, poorer), so raking the
 * one to the other's rural means put the income gap between the two definitions into the rural factors.
 */
import type { SpendingCategory } from './ce-categories.js';
import { COLUMNS } from './design.js';
import type { Household } from './extract-households.js';
import { type FittedModel, SPENDING } from './fit.js';
import { betweenStateVariance, type GroupOf, groupRatios } from './state-effects.js';

/** Two-sided 95 % normal quantile: the interval a shipped factor must lie in. */
const Z95 = 1.959963984540054;

/** A rural/urban ratio at fixed income, age, size, tenure, region and state prices, with its interval. */
export interface RuralRatio {
  /** Rural CU-quarters with a positive weight. */
  readonly households: number;
  /** Rural spending / the same households' fitted spending as urban ones, and its CU-clustered SE. */
  readonly raw: number;
  readonly se: number;
  /** The 95 % interval, exp(ln raw ± 1.96 SE / raw). */
  readonly low: number;
  readonly high: number;
}

export interface RuralEstimate extends RuralRatio {
  readonly category: SpendingCategory;
  /** exp(ln raw · τ²/(τ² + (SE/raw)²)). */
  readonly shrunk: number;
  /** The shrunk ratio fell outside the 95 % interval and is held at its nearer end. */
  readonly held: boolean;
  /** The factor shipped: rural spending over urban spending for the same household and place. */
  readonly factor: number;
}

export interface RuralEffects {
  /** DerSimonian–Laird between-category standard deviation of the ln ratios. */
  readonly tau: number;
  /** The 36 categories pooled: total spending's rural ratio (what the band on totals rests on). */
  readonly total: RuralRatio;
  /** In SPENDING order. */
  readonly categories: readonly RuralEstimate[];
}

/** Rural households of a known region (the fit's), one group. */
const ruralGroup: GroupOf = (h: Household) =>
  h.region !== 0 && !h.urban ? { key: 'rural', level: 0 } : undefined;

/**
 * `predicted[c][i]` is the fitted mean of SPENDING[c] for households[i] (2014 dollars), with their own
 * urbanity; the fit's urban factor exp(β_urban) turns a rural household's mean into its urban one.
 */
export function estimateRuralEffects(
  households: readonly Household[],
  fitted: Pick<FittedModel, 'beta'>,
  predicted: readonly Float64Array[],
): RuralEffects {
  const urbanFactor = SPENDING.map((_, c) => Math.exp(fitted.beta[c]![COLUMNS.urban]!));
  const ratios = SPENDING.map((_, c) => {
    const [fit] = groupRatios(households, predicted[c]!, c, ruralGroup);
    return ruralRatio(fit!, fit!.predicted * urbanFactor[c]!);
  });
  const tau2 = betweenStateVariance(ratios.map((r) => [Math.log(r.raw), (r.se / r.raw) ** 2] as const));
  const categories = ratios.map((r, c) => {
    const shrunk = Math.exp((Math.log(r.raw) * tau2) / (tau2 + (r.se / r.raw) ** 2));
    const factor = Math.min(Math.max(shrunk, r.low), r.high);
    return { ...r, category: SPENDING[c]!, shrunk, held: factor !== shrunk, factor };
  });
  return { tau: Math.sqrt(tau2), total: totalRatio(households, predicted, urbanFactor), categories };
}

/** Total spending (the 36 categories): observed over the urban prediction, pooled over categories. */
function totalRatio(
  households: readonly Household[],
  predicted: readonly Float64Array[],
  urbanFactor: readonly number[],
): RuralRatio {
  const fitted = new Float64Array(households.length);
  const asUrban = new Float64Array(households.length);
  predicted.forEach((means, c) => {
    means.forEach((m, i) => {
      fitted[i]! += m;
      asUrban[i]! += m * urbanFactor[c]!;
    });
  });
  const spent = (h: Household) =>
    h.spending.slice(0, SPENDING.length).reduce((a, y) => a + Math.max(0, y), 0);
  const [fit] = groupRatios(households, fitted, spent, ruralGroup);
  const [urban] = groupRatios(households, asUrban, spent, ruralGroup);
  return ruralRatio(fit!, urban!.predicted);
}

/**
 * From the group ratio on the fitted means (whose residuals give the clustered variance) and the same
 * households' predicted total as urban: observed / urban prediction and its SE (the residuals' spread
 * over the urban prediction).
 */
function ruralRatio(fit: ReturnType<typeof groupRatios>[number], asUrban: number): RuralRatio {
  const raw = fit.observed / asUrban;
  const se = (fit.se * fit.predicted) / asUrban;
  const half = (Z95 * se) / raw;
  return {
    households: fit.households,
    raw,
    se,
    low: raw * Math.exp(-half),
    high: raw * Math.exp(half),
  };
}
