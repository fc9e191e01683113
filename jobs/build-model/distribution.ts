/**
 * The artifact's distribution section: how a year's spending on each category spreads around the shipped
 * model's mean. Empirical, kernel-weighted percentiles of the ratio actual / mean over the training CUs
 * observed for most of 2014, per tenure slot and point of an income grid (docs/model.md, "Distributions").
 * The model card's coverage table (distribution-coverage.ts) checks them on the held-out CUs.
 */
import { CATEGORY_COUNT } from '../../src/contract/categories.js';
import {
  RANGE_PERCENTILES,
  RANGE_TENURE_SLOTS,
  type SpendingDistribution,
} from '../../src/model/artifact.js';
import { rangeTenureSlot } from '../../src/model/distribution.js';
import type { SpendingModel } from '../../src/model/types.js';
import type { Household } from './extract-households.js';
import { SPENDING } from './fit.js';
import { isHeldOut } from './hold-out.js';
import { householdGeography, type StateCodes, type StateRpp } from './population.js';

/**
 * A CU whose interviews cover at least this many months of 2014 stands for a year's spending (its
 * in-scope spending annualised). CE's Interview recalls three months at a time, and one quarter × 4
 * spreads far wider than a year (the coverage table shows by how much); nine months is the least that
 * keeps three of the four interviews: 2,889 CUs, against 1,789 observed for ten months or more.
 */
export const MIN_MONTHS_OBSERVED = 9;
/** The section's income grid, ln take-home in price-year dollars: $5,000 × e^(0.25 k), k < 17 (to $273k). */
const GRID = { uMin: Math.log(5000), uStep: 0.25, points: 17 } as const;
/**
 * Gaussian kernel bandwidth in ln take-home: the "households like this one" marginals' (method 5).
 * Between ~$15k and ~$150k it keeps roughly 130–1,100 effective households behind a grid point.
 */
const KERNEL_BANDWIDTH = 0.35;

/** The 2014 households the distribution is fitted and checked on: one year per CU. */
export interface YearSample {
  /** One record per CU observed MIN_MONTHS_OBSERVED months or more: spending and take-home annualised. */
  readonly years: readonly Household[];
  /** Per year, its CU's own quarter records (three months in scope), for the horizon comparison. */
  readonly quarters: readonly (readonly Household[])[];
}

/**
 * Every live CU (weight > 0, region known) observed for MIN_MONTHS_OBSERVED months or more: its
 * demographics from its first interview, its in-scope spending and take-home averaged over its months,
 * its weight the mean of its interviews' FINLWT21 (a record's months-in-scope weight × 12 / its months).
 */
export function yearSample(households: readonly Household[]): YearSample {
  const byCu = new Map<string, Household[]>();
  for (const h of households) {
    if (h.weight === 0 || h.region === 0) continue;
    const cu = h.newid.slice(0, -1);
    const rows = byCu.get(cu);
    if (rows === undefined) byCu.set(cu, [h]);
    else rows.push(h);
  }
  const years: Household[] = [];
  const quarters: Household[][] = [];
  for (const rows of byCu.values()) {
    const months = rows.reduce((sum, h) => sum + h.monthsInScope, 0);
    if (months < MIN_MONTHS_OBSERVED) continue;
    const byMonths = (value: (h: Household) => number) =>
      rows.reduce((sum, h) => sum + value(h) * h.monthsInScope, 0) / months;
    years.push({
      ...rows[0]!,
      weight: rows.reduce((sum, h) => sum + (h.weight * 12) / h.monthsInScope, 0) / rows.length,
      monthsInScope: months,
      takeHome: byMonths((h) => h.takeHome),
      spending: Float64Array.from({ length: CATEGORY_COUNT }, (_, c) => byMonths((h) => h.spending[c]!)),
    });
    quarters.push(rows.filter((h) => h.monthsInScope === 3));
  }
  return { years, quarters };
}

/**
 * How the shipped model sees the 2014 households: price-year take-home, 2023 state price parities and
 * the state (its energy effects).
 */
export interface ModelView {
  readonly model: SpendingModel;
  readonly incomeScale: number;
  readonly rpp: StateRpp;
  readonly stateCodes: StateCodes;
}

/**
 * The model's means for a year household, spending categories only: with its tenure, or with the tenure
 * left out (`withTenure` false). Household type is left out, as most clients leave it.
 */
export function yearMeans(view: ModelView, h: Household, withTenure: boolean): Float64Array {
  const out = new Float64Array(CATEGORY_COUNT);
  view.model.predict(
    {
      net_annual_income: h.takeHome * view.incomeScale,
      age: h.age,
      household_members: h.members,
      is_homeowner: withTenure ? h.isHomeowner : undefined,
    },
    householdGeography(h, view.rpp, view.stateCodes),
    out,
  );
  return out.subarray(0, SPENDING.length);
}

/**
 * Per spending category, the training years' weighted spending over their weighted model means: the
 * 2014 survey's level against the shipped model's (2025 dollars, 2023 calibration), which the ratios
 * are taken against, so that a ratio measures spread around the mean and not the change of level.
 */
export function surveyLevels(years: readonly Household[], means: readonly Float64Array[]): Float64Array {
  const levels = new Float64Array(SPENDING.length);
  SPENDING.forEach((_, c) => {
    let spent = 0;
    let modelled = 0;
    years.forEach((h, i) => {
      if (isHeldOut(h.newid)) return;
      spent += h.weight * h.spending[c]!;
      modelled += h.weight * means[i]![c]!;
    });
    levels[c] = spent / modelled;
  });
  return levels;
}

/** The households of a tenure slot, their ratios actual / (level × mean) per category, and ln take-home. */
interface SlotSample {
  readonly weights: Float64Array;
  readonly u: Float64Array;
  /** Per category, the ratios and their order ascending. */
  readonly ratios: readonly Float64Array[];
  readonly order: readonly Uint32Array[];
}

function slotSample(view: ModelView, years: readonly Household[], slot: number): SlotSample {
  const withTenure = RANGE_TENURE_SLOTS[slot] !== 'unknown';
  const members = years.filter(
    (h) => !isHeldOut(h.newid) && (!withTenure || rangeTenureSlot(h.isHomeowner) === slot),
  );
  const allTraining = years.filter((h) => !isHeldOut(h.newid));
  const means = members.map((h) => yearMeans(view, h, withTenure));
  const levels = surveyLevels(
    allTraining,
    allTraining.map((h) => yearMeans(view, h, withTenure)),
  );
  const ratios = SPENDING.map((_, c) =>
    Float64Array.from(members, (h, i) => h.spending[c]! / (levels[c]! * means[i]![c]!)),
  );
  return {
    weights: Float64Array.from(members, (h) => h.weight),
    // Clamped at $1 as the model clamps it (take-home net of pensions can be 0 or negative).
    u: Float64Array.from(members, (h) => Math.log(Math.max(h.takeHome * view.incomeScale, 1))),
    ratios,
    order: ratios.map((r) => Uint32Array.from(r.keys()).sort((a, b) => r[a]! - r[b]! || a - b)),
  };
}

/** The weighted percentile: the smallest value whose cumulative weight reaches `p` % of the total. */
function weightedPercentile(
  values: Float64Array,
  order: Uint32Array,
  weights: Float64Array,
  total: number,
  p: number,
): number {
  let cumulative = 0;
  for (const i of order) {
    cumulative += weights[i]!;
    if (cumulative >= (p / 100) * total) return values[i]!;
  }
  return values[order[order.length - 1]!]!;
}

/** The distribution section of the artifact for the shipped model `view.model`. */
export function spendingDistribution(view: ModelView, sample: YearSample): SpendingDistribution {
  const ratio: number[] = [];
  const peers: number[] = [];
  RANGE_TENURE_SLOTS.forEach((_, slot) => {
    const s = slotSample(view, sample.years, slot);
    for (let g = 0; g < GRID.points; g++) {
      const ug = GRID.uMin + g * GRID.uStep;
      const kernel = Float64Array.from(
        s.weights,
        (w, i) => w * Math.exp(-0.5 * ((s.u[i]! - ug) / KERNEL_BANDWIDTH) ** 2),
      );
      const total = kernel.reduce((sum, w) => sum + w, 0);
      peers.push(total ** 2 / kernel.reduce((sum, w) => sum + w * w, 0));
      SPENDING.forEach((_, c) => {
        // Relative to these households' own mean ratio: the model's mean is the distribution's mean.
        const mean = s.ratios[c]!.reduce((sum, r, i) => sum + kernel[i]! * r, 0) / total;
        for (const p of RANGE_PERCENTILES)
          ratio.push(weightedPercentile(s.ratios[c]!, s.order[c]!, kernel, total, p) / mean);
      });
    }
  });
  return { incomeGrid: { ...GRID }, ratio, peers };
}
