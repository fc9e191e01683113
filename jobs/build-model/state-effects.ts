/**
 * State effects for the energy and water categories, estimated on the 2014 microdata and shrunk toward the
 * Census region (docs/model.md, "Local prices"). Per category and state: the weighted ratio r of what the
 * state's households spent to what the fitted model (income, age, size, tenure, urban, region, state
 * price parity) predicts for them, with a CU-clustered sampling variance v; the between-state variance τ²
 * by DerSimonian–Laird; the shrunk effect 1 + (r − 1)·τ²/(τ² + v); and, per region, one factor that keeps
 * the region's predicted total (states CE suppresses keep the region level, factor 1).
 */
import type { SpendingCategory } from './ce-categories.js';
import type { Household } from './extract-households.js';
import { SPENDING } from './fit.js';
import type { SourceReader } from './sources.js';

/**
 * Energy and water: spending that follows local tariffs, climate and fuel mix, which the BEA utilities
 * parity (a price level only) does not carry: its pooled elasticity is of the wrong sign (build notes).
 */
export const STATE_EFFECT_CATEGORIES: readonly SpendingCategory[] = [
  'natural_gas',
  'electricity',
  'heating_fuels_other',
  'water_and_public_services',
];

export interface StateEstimate {
  /** USPS code. */
  readonly state: string;
  readonly region: number;
  /** CU-quarters with a positive weight. */
  readonly households: number;
  /** Observed / predicted spending and its CU-clustered standard error. */
  readonly raw: number;
  readonly se: number;
  /** The multiplicative factor shipped: shrunk, then held to the region's total. */
  readonly factor: number;
}

export interface CategoryStateEffects {
  readonly category: SpendingCategory;
  /** DerSimonian–Laird between-state standard deviation of the ratios. */
  readonly tau: number;
  /** Sorted by state code. */
  readonly states: readonly StateEstimate[];
}

/** State FIPS → USPS code, by joining BEA's state names to the Census regions file. */
export function readStateCodes(source: SourceReader, geoDir: string): Map<string, string> {
  const codeByName = new Map(
    source.csv(`${geoDir}/census_regions_divisions.csv`).map((row) => [row.State!, row['State Code']!]),
  );
  const codes = new Map<string, string>();
  for (const line of source.text(`${geoDir}/bea_sarpp_state_2008_2023.csv`, 'latin1').split('\n')) {
    const match = /^\s*"(\d\d)000","([^"]+)"/.exec(line);
    const code = match ? codeByName.get(match[2]!.replace(/ \*$/, '')) : undefined;
    if (match && code !== undefined) codes.set(match[1]!, code);
  }
  return codes;
}

/** The artifact's `stateFactor`: per state (sorted), a factor per spending category, 1 where none. */
export function stateFactorTable(effects: readonly CategoryStateEffects[]): Record<string, number[]> {
  const table: Record<string, number[]> = {};
  const states = [...new Set(effects.flatMap((e) => e.states.map((s) => s.state)))].sort();
  for (const state of states) {
    table[state] = SPENDING.map((category) => {
      const estimate = effects.find((e) => e.category === category)?.states.find((s) => s.state === state);
      return estimate === undefined ? 1 : Number(estimate.factor.toPrecision(12));
    });
  }
  return table;
}

/**
 * `predicted[c][i]` is the fitted mean of SPENDING[c] for households[i] (2014 dollars); households whose
 * state CE suppresses, or that have no weight or region, are left out.
 */
export function estimateStateEffects(
  households: readonly Household[],
  predicted: readonly Float64Array[],
  stateCodes: ReadonlyMap<string, string>,
): CategoryStateEffects[] {
  const stateOf = (h: Household) => {
    const state = stateCodes.get(h.stateFips);
    return h.region === 0 || state === undefined ? undefined : { key: state, level: h.region };
  };
  return STATE_EFFECT_CATEGORIES.map((category) => {
    const c = SPENDING.indexOf(category);
    const { tau, groups } = shrunkGroupRatios(groupRatios(households, predicted[c]!, c, stateOf));
    const regionLevel = new Map<number, [number, number]>();
    for (const { level, predicted: total, effect } of groups) {
      const sums = regionLevel.get(level) ?? [0, 0];
      sums[0] += total * effect;
      sums[1] += total;
      regionLevel.set(level, sums);
    }
    const states = groups.map(({ key, level, households: count, ratio, se, effect }) => {
      const [scaled, total] = regionLevel.get(level)!;
      return {
        state: key,
        region: level,
        households: count,
        raw: ratio,
        se,
        factor: (effect * total) / scaled,
      };
    });
    return { category, tau, states };
  });
}

/** A group of households and the level (region, …) it belongs to; undefined leaves a household out. */
export type GroupOf = (h: Household) => { readonly key: string; readonly level: number } | undefined;

/** One group's observed / predicted spending and the ratio's CU-clustered standard error. */
export interface GroupRatio {
  readonly key: string;
  readonly level: number;
  /** CU-quarters with a positive weight. */
  readonly households: number;
  /** Σ weight × observed and Σ weight × predicted. */
  readonly observed: number;
  readonly predicted: number;
  readonly ratio: number;
  /** The ratio's sampling variance and its square root. */
  readonly variance: number;
  readonly se: number;
}

/**
 * Per group (sorted by key) of the weighted households: Σ w·y / Σ w·ŷ of one category, in ratio space,
 * not ln: a group may have no spender at all (heating oil in Hawaii), ratio 0. The variance is clustered
 * by CU because a CU's quarters are not independent: Σ_CU (Σ w (y − ŷ))² / (Σ w ŷ)².
 */
export function groupRatios(
  households: readonly Household[],
  predicted: Float64Array,
  /**
   * The category's index in SPENDING, which is also its index in each household's spending; or what a
   * household spent on what `predicted` predicts (a sum of categories).
   */
  c: number | ((h: Household) => number),
  groupOf: GroupOf,
): GroupRatio[] {
  const spent = typeof c === 'number' ? (h: Household) => Math.max(0, h.spending[c]!) : c;
  const sums = new Map<string, Sums>();
  households.forEach((h, i) => {
    const group = h.weight === 0 ? undefined : groupOf(h);
    if (group === undefined) return;
    const s = sums.get(group.key) ?? {
      observed: 0,
      predicted: 0,
      households: 0,
      level: group.level,
      residuals: new Map<string, number>(),
    };
    const y = spent(h);
    const yHat = predicted[i]!;
    s.observed += h.weight * y;
    s.predicted += h.weight * yHat;
    s.households++;
    const cu = h.newid.slice(0, -1);
    s.residuals.set(cu, (s.residuals.get(cu) ?? 0) + h.weight * (y - yHat));
    sums.set(group.key, s);
  });
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, s]) => {
      const variance = [...s.residuals.values()].reduce((a, r) => a + r * r, 0) / (s.predicted * s.predicted);
      return {
        key,
        level: s.level,
        households: s.households,
        observed: s.observed,
        predicted: s.predicted,
        ratio: s.observed / s.predicted,
        variance,
        se: Math.sqrt(variance),
      };
    });
}

/**
 * Each group's ratio shrunk toward 1 by the DerSimonian–Laird between-group variance τ²:
 * effect = 1 + (ratio − 1)·τ²/(τ² + se²), so a group the survey measures poorly keeps little of its ratio.
 */
export function shrunkGroupRatios(ratios: readonly GroupRatio[]): {
  readonly tau: number;
  readonly groups: readonly (GroupRatio & { readonly effect: number })[];
} {
  const tau2 = betweenStateVariance(ratios.map((r) => [r.ratio, r.variance] as const));
  return {
    tau: Math.sqrt(tau2),
    groups: ratios.map((r) => ({ ...r, effect: 1 + ((r.ratio - 1) * tau2) / (tau2 + r.variance) })),
  };
}

interface Sums {
  observed: number;
  predicted: number;
  households: number;
  level: number;
  /** Per CU: Σ w (y − ŷ) over its quarters. */
  readonly residuals: Map<string, number>;
}

/** DerSimonian–Laird method-of-moments τ² from (estimate, sampling variance) pairs. */
export function betweenStateVariance(estimates: readonly (readonly [number, number])[]): number {
  const w = estimates.map(([, v]) => 1 / v);
  const sw = w.reduce((a, b) => a + b, 0);
  const mean = estimates.reduce((a, [t], i) => a + w[i]! * t, 0) / sw;
  const q = estimates.reduce((a, [t], i) => a + w[i]! * (t - mean) ** 2, 0);
  const denominator = sw - w.reduce((a, b) => a + b * b, 0) / sw;
  return Math.max(0, (q - (estimates.length - 1)) / denominator);
}
