/**
 * The model card's ranking table: does `outlay_index` rank the held-out 2014 households whose spending
 * exceeded their take-home? Each held-out CU-quarter is scored by the engine as a client would score it
 * (its profile, its actual housing and vehicle payments stated as fixed expenses), and the index's
 * survey-weighted AUC and KS for "spent more than take-home" are set beside take-home alone and a
 * take-home + housing-cost-ratio logistic regression fitted on the training CU-quarters (cross-fitted: the
 * held-out ones never enter its fit), overall and within take-home quintiles.
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
import { isHeldOut } from './hold-out.js';
import type { Payments } from './payments.js';
import { householdGeography, householdType, type StateCodes, type StateRpp } from './population.js';
import { weightedQuantiles } from './score-reference.js';
import { separation } from './separation.js';

export interface RankingInputs {
  readonly model: SpendingModel;
  /** The committed extract's CU-quarters (2014 dollars). */
  readonly households: readonly Household[];
  /** Annual housing and vehicle payments of a CU-quarter (payments.ts). */
  readonly payments: (h: Household) => Payments;
  /** 2014 take-home → the model's price-year dollars (the calibration's income scale). */
  readonly incomeScale: number;
  readonly rpp: StateRpp;
  readonly stateCodes: StateCodes;
}

/** Above this housing / take-home the benchmark's ratio term stops growing (see `housingBenchmark`). */
const RATIO_CAP = 1;
const QUINTILE_STEPS = 1000;

/** One scored held-out household. */
interface Scored {
  readonly h: Household;
  readonly overspent: boolean;
  /** `outlay_index` with housing and vehicle payments stated. */
  readonly index: number;
  /** `outlay_index` with nothing stated (the model's amounts for every category). */
  readonly unstated: number;
}

/** Whether the household's actual spending on the 36 categories the model predicts exceeds its take-home. */
function overspent(h: Household): boolean {
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

/**
 * Scores every held-out household through the engine. CE publishes no ZIP: each request carries its
 * position as a ZIP-shaped key, which the resolver maps to the household's state geography (2023 state
 * price parities, national where CE suppresses the state; CE's region and urbanity), as the calibration
 * sees it. Requests the API's validation refuses are counted by their first error.
 */
/** Each key's household geography; every key is known (there is no prefix to fall back to). */
const heldOutGeography = (geographies: readonly Geography[]): GeoResolver => ({
  resolve: (zip) => geographies[Number(zip)]!,
  knows: () => true,
  resolvePrefix: () => undefined,
});

function scoreHeldOut(inputs: RankingInputs, test: readonly Household[]) {
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
    scored.push({ h, overspent: overspent(h), index, unstated });
  });
  return { scored, refused };
}

/**
 * The two-variable benchmark: a survey-weighted logistic regression of "spent more than take-home" on
 * ln take-home and housing / take-home (capped at RATIO_CAP, so that the few households with almost no
 * take-home do not set the slope), fitted on the training CU-quarters with positive take-home. Returns its
 * linear predictor (higher: more likely to overspend) and its coefficients.
 */
function housingBenchmark(train: readonly Household[], paymentsOf: (h: Household) => Payments) {
  const features = (h: Household) => [
    1,
    Math.log(h.takeHome),
    Math.min(paymentsOf(h).housing / h.takeHome, RATIO_CAP),
  ];
  const x = Float64Array.from(train.flatMap(features));
  const y = Float64Array.from(train, (h) => (overspent(h) ? 1 : 0));
  const meanWeight = train.reduce((s, h) => s + h.weight, 0) / train.length;
  const w = Float64Array.from(train, (h) => h.weight / meanWeight);
  const { beta } = fitGlm(x, 3, y, w, 'logit');
  const predictor = (h: Household) => features(h).reduce((s, v, j) => s + v * beta[j]!, 0);
  return { predictor, beta };
}

const thousands = (x: number) => `$${Math.round(x / 1000)}k`;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const fixed = (x: number) => x.toFixed(3);

export function rankingTable(inputs: RankingInputs): string {
  const live = inputs.households.filter((h) => h.weight > 0 && h.region > 0);
  const test = live.filter((h) => isHeldOut(h.newid));
  const { scored, refused } = scoreHeldOut(inputs, test);
  const benchmark = housingBenchmark(
    live.filter((h) => !isHeldOut(h.newid) && h.takeHome > 0),
    inputs.payments,
  );
  const scorers: ((s: Scored) => number)[] = [
    (s) => -s.index,
    (s) => -s.unstated,
    (s) => -s.h.takeHome,
    (s) => benchmark.predictor(s.h),
  ];
  const cuts = weightedQuantiles(
    scored.map((s) => s.h.takeHome),
    scored.map((s) => s.h.weight),
  ).filter((_, k) => k > 0 && k < QUINTILE_STEPS && k % (QUINTILE_STEPS / 5) === 0);
  const quintile = (s: Scored) => cuts.filter((c) => s.h.takeHome > c).length;
  const bounds = [0, ...cuts];
  const row = (label: string, group: readonly Scored[]) => {
    const outcomes = group.map((s) => s.overspent);
    const weights = group.map((s) => s.h.weight);
    const total = weights.reduce((a, b) => a + b, 0);
    const share = group.reduce((a, s) => a + (s.overspent ? s.h.weight : 0), 0) / total;
    const results = scorers.map((score) => separation(group.map(score), outcomes, weights));
    return `| ${label} | ${group.length} | ${pct(share)} | ${results.map((r) => fixed(r.auc)).join(' | ')} | ${results.map((r) => fixed(r.ks)).join(' | ')} |`;
  };
  const refusals = [...refused].map(([reason, n]) => `${n} × ${reason}`).join('; ');
  const [b0, b1, b2] = benchmark.beta;
  return [
    `Held out: ${scored.length} of ${test.length} held-out CU-quarters (every CU whose FNV-1a hash of the CU id is 0 mod 5) scored${refused.size > 0 ? `; refused by the API's validation: ${refusals}` : ''}. Outcome: actual spending on the 36 categories (annualised quarter, housing as paid) above take-home. AUC and KS survey-weighted, of −outlay_index, −take-home and the benchmark's logit. Benchmark fitted on the ${live.length - test.length} training CU-quarters: logit = ${b0!.toFixed(3)} + ${b1!.toFixed(3)} ln take-home + ${b2!.toFixed(3)} min(housing / take-home, ${RATIO_CAP}).`,
    '',
    '| take-home (2014 $) | households | overspent | AUC outlay_index | AUC index, nothing stated | AUC take-home | AUC take-home + housing | KS outlay_index | KS index, nothing stated | KS take-home | KS take-home + housing |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    row('all', scored),
    ...bounds.map((low, q) =>
      row(
        q < 4 ? `Q${q + 1}: ${thousands(low)}–${thousands(cuts[q]!)}` : `Q5: ${thousands(low)} and more`,
        scored.filter((s) => quintile(s) === q),
      ),
    ),
  ].join('\n');
}
