/**
 * Metro-size effects per category, estimated on the 2014 microdata (docs/model.md, "Metro size"). Within
 * urban households, per category and CE POPSIZE class: the weighted ratio of what the class spent to what
 * the fitted model (income, age, size, tenure, urban, region, state price parity) predicts, with its
 * CU-clustered standard error, shrunk toward 1 by the between-class variance (the state effects'
 * machinery, state-effects.ts), for transport and the goods categories (METRO_SIZE_CATEGORIES); a category
 * whose classes do not differ beyond their sampling error has τ = 0 and factors of 1. Only the transport
 * categories have an expected direction; a shrunk effect against it is reported and shipped as 1.
 *
 * The fitted Poisson model has an urban term, so over all urban households Σ w·y = Σ w·ŷ and the class
 * ratios average to 1: the factors move spending between classes, not the urban level (which the
 * calibration then holds).
 */
import { METRO_SIZE_CLASSES } from '../../src/geo/metro-size.js';
import type { SpendingCategory } from './ce-categories.js';
import type { Household } from './extract-households.js';
import { PRICE_COMPONENT, SPENDING } from './fit.js';
import { type GroupOf, groupRatios, shrunkGroupRatios } from './state-effects.js';

/**
 * Transport categories and how each is expected to move as the metro grows: −1 falls (driving: denser
 * places, shorter trips, fewer cars), +1 rises (transit), 0 no expectation (insurance: fewer cars per
 * household, but dearer premiums where traffic is dense). Stated before looking at the estimates.
 */
export const TRANSPORT_DIRECTIONS: ReadonlyMap<SpendingCategory, -1 | 0 | 1> = new Map([
  ['vehicle_purchase_and_lease', -1],
  ['gasoline', -1],
  ['vehicle_maintenance_and_repairs', -1],
  ['vehicle_insurance', 0],
  ['public_and_other_transportation', 1],
]);

/**
 * The categories estimated, with their expected direction: transport, and the goods whose price response
 * is held at 0 (PRICE_COMPONENT, fit.ts), 0 (none) for those. Not the housing, utilities and services
 * categories: the fit holds state prices, so their class ratios contain the metro price premium that the
 * engine already applies through the metro's parities (housing 0.65, services 1.06) and the state energy
 * effects; the public microdata cannot tell a household's metro to take it out.
 */
export const METRO_SIZE_CATEGORIES: ReadonlyMap<SpendingCategory, -1 | 0 | 1> = new Map(
  SPENDING.flatMap((category) =>
    TRANSPORT_DIRECTIONS.has(category) || PRICE_COMPONENT[category] === 'goods'
      ? [[category, TRANSPORT_DIRECTIONS.get(category) ?? 0] as const]
      : [],
  ),
);

export interface MetroSizeEstimate {
  /** CE POPSIZE class, 1 (more than 4 million) … 5 (less than 125 thousand). */
  readonly metroSize: number;
  /** Urban CU-quarters with a positive weight. */
  readonly households: number;
  /** Observed / predicted spending and its CU-clustered standard error. */
  readonly raw: number;
  readonly se: number;
  /** The ratio shrunk toward 1. */
  readonly shrunk: number;
  /** The shrunk ratio runs against the category's expected direction: shipped as 1. */
  readonly wrongSign: boolean;
  /** The factor shipped. */
  readonly factor: number;
}

export interface CategoryMetroSizeEffects {
  readonly category: SpendingCategory;
  readonly direction: -1 | 0 | 1;
  /** DerSimonian–Laird between-class standard deviation of the ratios. */
  readonly tau: number;
  /** In class order. */
  readonly classes: readonly MetroSizeEstimate[];
}

/** Classes 1–2 are the big metros, 4–5 the small ones; class 3 sits around the urban average (no sign). */
const SIDE_OF_CLASS = [1, 1, 0, -1, -1] as const;

/** Urban households with a POPSIZE class, grouped by it (one level: the factors are national). */
export const urbanClassOf: GroupOf = (h: Household) =>
  h.urban && h.region !== 0 && h.popsize >= 1 && h.popsize <= METRO_SIZE_CLASSES
    ? { key: String(h.popsize), level: 0 }
    : undefined;

/** `predicted[c][i]` is the fitted mean of SPENDING[c] for households[i] (2014 dollars). */
export function estimateMetroSizeEffects(
  households: readonly Household[],
  predicted: readonly Float64Array[],
): CategoryMetroSizeEffects[] {
  return [...METRO_SIZE_CATEGORIES].map(([category, direction]) => {
    const c = SPENDING.indexOf(category);
    const { tau, groups } = shrunkGroupRatios(groupRatios(households, predicted[c]!, c, urbanClassOf));
    const classes = groups.map((g) => {
      const metroSize = Number(g.key);
      const expected = direction * SIDE_OF_CLASS[metroSize - 1]!;
      const wrongSign = expected !== 0 && Math.sign(g.effect - 1) === -expected;
      return {
        metroSize,
        households: g.households,
        raw: g.ratio,
        se: g.se,
        shrunk: g.effect,
        wrongSign,
        factor: wrongSign ? 1 : g.effect,
      };
    });
    return { category, direction, tau, classes };
  });
}

/** The artifact's `metroSizeFactor`: [category][class − 1], 1 outside METRO_SIZE_CATEGORIES. */
export function metroSizeFactorTable(effects: readonly CategoryMetroSizeEffects[]): number[] {
  return SPENDING.flatMap((category) => {
    const effect = effects.find((e) => e.category === category);
    return Array.from({ length: METRO_SIZE_CLASSES }, (_, k) => {
      const estimate = effect?.classes.find((e) => e.metroSize === k + 1);
      return estimate === undefined ? 1 : Number(estimate.factor.toPrecision(12));
    });
  });
}
