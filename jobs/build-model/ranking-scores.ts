/**
 * The scores the model card's ranking table compares, for each held-out 2014 CU-quarter: `outlay_index`
 * through the engine (with its actual housing and vehicle payments stated, and with nothing stated), and
 * the comparators — take-home alone, the plain residual (take-home minus the stated payments, in dollars and
 * as a share of take-home) and a logistic regression given the index's own inputs, fitted on the training
 * CU-quarters only. Every score is oriented so that higher means more likely to overspend.
 */
import { SAVINGS_INDEX } from '../../src/contract/categories.js';
import type { GivenBudget } from '../../src/contract/schemas.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { clampedScore, indicesOf, statedSpending } from '../../src/engine/index-score.js';
import type { LocalEngine } from '../../src/engine/types.js';
import type { Geography, GeoResolver } from '../../src/geo/types.js';
import type { SpendingModel } from '../../src/model/types.js';
import type { Household } from './extract-households.js';
import { fitGlm } from './glm.js';
import type { Payments } from './payments.js';
import { householdGeography, householdType, type StateCodes, type StateRpp } from './population.js';

export interface ScoringInputs {
  /** The model the held-out households are scored with (validate-ranking.ts: fitted without them). */
  readonly model: SpendingModel;
  /** Annual housing and vehicle payments of a CU-quarter (payments.ts), 2014 dollars. */
  readonly payments: (h: Household) => Payments;
  /** 2014 take-home → the model's price-year dollars (the calibration's income scale). */
  readonly incomeScale: number;
  readonly rpp: StateRpp;
  readonly stateCodes: StateCodes;
}

/** One scored held-out household. */
export interface Scored {
  readonly h: Household;
  readonly payments: Payments;
  readonly overspent: boolean;
  /** `outlay_index` with housing and vehicle payments stated. */
  readonly index: number;
  /** `outlay_index` with nothing stated (the model's amounts for every category). */
  readonly unstated: number;
}

/** Whether the household's actual spending on the 36 categories the model predicts exceeds its take-home. */
export function overspent(h: Household): boolean {
  let total = 0;
  for (let c = 0; c < SAVINGS_INDEX; c++) total += h.spending[c]!;
  return total > h.takeHome;
}

/** The unclamped index the batch output calls `outlay_index`, of one request through the engine. */
function outlayIndex(
  engine: LocalEngine,
  body: { demographics: { net_annual_income: number }; budget?: GivenBudget },
) {
  const result = engine.householdFigures(body);
  if (!result.ok) return result.error;
  const parts = {
    netIncome: body.demographics.net_annual_income,
    stated: body.budget ?? {},
    peers: result.value.modeled,
  };
  const { index } = indicesOf(parts, statedSpending(parts));
  if (clampedScore(index) !== result.value.scoreValues[1]) {
    throw new Error(`index ${index} is not the engine's score ${result.value.scoreValues[1]}`);
  }
  return index;
}

/** Each key's household geography; every key is known (there is no prefix to fall back to). */
const heldOutGeography = (geographies: readonly Geography[]): GeoResolver => ({
  resolve: (zip) => geographies[Number(zip)]!,
  knows: () => true,
  resolvePrefix: () => undefined,
});

/**
 * Scores every held-out household through the engine. CE publishes no ZIP: each request carries its
 * position as a ZIP-shaped key, which the resolver maps to the household's state geography (2023 state
 * price parities, national where CE suppresses the state; CE's region and urbanity), as the calibration
 * sees it. Requests the API's validation refuses are counted by their first error.
 */
export function scoreHeldOut(inputs: ScoringInputs, test: readonly Household[]) {
  const geographies: Geography[] = test.map((h) => householdGeography(h, inputs.rpp, inputs.stateCodes));
  if (test.length > 100_000) throw new Error('more held-out households than 5-digit keys');
  const engine = createEngine({ model: inputs.model, geo: heldOutGeography(geographies) });
  const dollars = (x: number) => Math.round(x * inputs.incomeScale * 100) / 100;
  const scored: Scored[] = [];
  const refused = new Map<string, number>();
  test.forEach((h, k) => {
    const demographics = {
      zip: String(k).padStart(5, '0'),
      net_annual_income: dollars(h.takeHome),
      age: h.age,
      household_members: h.members,
      is_homeowner: h.isHomeowner,
      household_type: householdType(h),
    };
    const payments = inputs.payments(h);
    const budget = {
      mortgage_and_rent: dollars(payments.housing),
      vehicle_purchase_and_lease: dollars(payments.vehicle),
    };
    const index = outlayIndex(engine, { demographics, budget });
    if (typeof index !== 'number') {
      const first = index.errors[0];
      const reason = `${first?.path ?? ''} ${first?.message ?? ''}`.trim();
      refused.set(reason, (refused.get(reason) ?? 0) + 1);
      return;
    }
    const unstated = outlayIndex(engine, { demographics }) as number;
    scored.push({ h, payments, overspent: overspent(h), index, unstated });
  });
  return { scored, refused };
}

/** Above this payment / take-home the regression's ratio terms stop growing (see `sameInputsRegression`). */
export const RATIO_CAP = 1;

/** The regression's terms, in the order of its coefficients. */
export const REGRESSION_TERMS = [
  '1',
  'ln take-home',
  `min(housing / take-home, ${RATIO_CAP})`,
  `min(vehicle / take-home, ${RATIO_CAP})`,
  'members',
  '(age − 50) / 10',
  '((age − 50) / 10)²',
  'homeowner',
] as const;

function regressionTerms(h: Household, payments: Payments): number[] {
  const decades = (h.age - 50) / 10;
  return [
    1,
    Math.log(h.takeHome),
    Math.min(payments.housing / h.takeHome, RATIO_CAP),
    Math.min(payments.vehicle / h.takeHome, RATIO_CAP),
    h.members,
    decades,
    decades * decades,
    h.isHomeowner ? 1 : 0,
  ];
}

/**
 * The same-inputs comparator: a survey-weighted logistic regression of "spent more than take-home" on
 * what the index is given — take-home (log), the housing and vehicle payment ratios (capped at RATIO_CAP,
 * so that the few households with almost no take-home do not set the slopes), household size, age
 * (quadratic: the index's age curves bend) and tenure — fitted on the training CU-quarters with positive
 * take-home. Returns its linear predictor (higher: more likely to overspend) and its coefficients.
 */
export function sameInputsRegression(
  train: readonly Household[],
  paymentsOf: (h: Household) => Payments,
): { predictor: (s: Scored) => number; beta: Float64Array } {
  const x = Float64Array.from(train.flatMap((h) => regressionTerms(h, paymentsOf(h))));
  const y = Float64Array.from(train, (h) => (overspent(h) ? 1 : 0));
  const meanWeight = train.reduce((s, h) => s + h.weight, 0) / train.length;
  const w = Float64Array.from(train, (h) => h.weight / meanWeight);
  const { beta } = fitGlm(x, REGRESSION_TERMS.length, y, w, 'logit');
  const predictor = (s: Scored) =>
    regressionTerms(s.h, s.payments).reduce((sum, v, j) => sum + v * beta[j]!, 0);
  return { predictor, beta };
}

/** The table's scores, each oriented so that a higher value goes with overspending. */
export function rankingScorers(regression: (s: Scored) => number) {
  const residual = (s: Scored) => s.h.takeHome - s.payments.housing - s.payments.vehicle;
  return {
    index: { label: 'outlay_index, payments stated', score: (s: Scored) => -s.index },
    unstated: { label: 'outlay_index, nothing stated', score: (s: Scored) => -s.unstated },
    takeHome: { label: 'take-home alone', score: (s: Scored) => -s.h.takeHome },
    residual: { label: 'residual: take-home − payments ($)', score: (s: Scored) => -residual(s) },
    residualShare: {
      label: 'residual share: (take-home − payments) / take-home',
      score: (s: Scored) => -residual(s) / s.h.takeHome,
    },
    regression: { label: 'logistic regression, same inputs', score: regression },
  } as const;
}

export type ScorerName = keyof ReturnType<typeof rankingScorers>;
