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

interface Sums {
  observed: number;
  predicted: number;
  households: number;
  region: number;
  /** Per CU: Σ w (y − ŷ) over its quarters, clustered because a CU's quarters are not independent. */
  readonly residuals: Map<string, number>;
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
  return STATE_EFFECT_CATEGORIES.map((category) => {
    const c = SPENDING.indexOf(category);
    const sums = stateSums(households, predicted[c]!, c, stateCodes);
    // In ratio space, not ln: a state may have no spender at all (heating oil in Hawaii), ratio 0.
    const raw = [...sums].map(([state, s]) => {
      const variance = [...s.residuals.values()].reduce((a, r) => a + r * r, 0) / (s.predicted * s.predicted);
      return { state, s, ratio: s.observed / s.predicted, variance };
    });
    const tau2 = betweenStateVariance(raw.map((r) => [r.ratio, r.variance] as const));
    const shrunk = raw.map((r) => ({ ...r, effect: 1 + ((r.ratio - 1) * tau2) / (tau2 + r.variance) }));
    const regionLevel = new Map<number, [number, number]>();
    for (const { s, effect } of shrunk) {
      const level = regionLevel.get(s.region) ?? [0, 0];
      level[0] += s.predicted * effect;
      level[1] += s.predicted;
      regionLevel.set(s.region, level);
    }
    const states = shrunk
      .map(({ state, s, ratio, variance, effect }) => {
        const [scaled, total] = regionLevel.get(s.region)!;
        return {
          state,
          region: s.region,
          households: s.households,
          raw: ratio,
          se: Math.sqrt(variance),
          factor: (effect * total) / scaled,
        };
      })
      .sort((a, b) => (a.state < b.state ? -1 : 1));
    return { category, tau: Math.sqrt(tau2), states };
  });
}

function stateSums(
  households: readonly Household[],
  predicted: Float64Array,
  /** The category's index in SPENDING, which is also its index in each household's spending. */
  c: number,
  stateCodes: ReadonlyMap<string, string>,
): Map<string, Sums> {
  const sums = new Map<string, Sums>();
  households.forEach((h, i) => {
    const state = stateCodes.get(h.stateFips);
    if (h.weight === 0 || h.region === 0 || state === undefined) return;
    const s = sums.get(state) ?? {
      observed: 0,
      predicted: 0,
      households: 0,
      region: h.region,
      residuals: new Map<string, number>(),
    };
    const y = Math.max(0, h.spending[c]!);
    const yHat = predicted[i]!;
    s.observed += h.weight * y;
    s.predicted += h.weight * yHat;
    s.households++;
    const cu = h.newid.slice(0, -1);
    s.residuals.set(cu, (s.residuals.get(cu) ?? 0) + h.weight * (y - yHat));
    sums.set(state, s);
  });
  return new Map([...sums].sort(([a], [b]) => (a < b ? -1 : 1)));
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
