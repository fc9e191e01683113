/**
 * Fits the per-category Poisson pseudo-likelihood models and the tenure-mix logits on the 2014 households
 * (survey weights; zero-weight records, i.e. no month in 2014, drop out).
 */
import { CATEGORIES, SPENDING_CATEGORY_COUNT } from '../../src/contract/categories.js';
import { RPP_COMPONENTS } from '../../src/model/artifact.js';
import { logPriceLevel, type PriceBudget, writeLogPriceFactors } from '../../src/model/price.js';
import type { SpendingCategory } from './ce-categories.js';
import { COLUMNS, type DesignInput, designRow, incomeU, P } from './design.js';
import type { Household } from './extract-households.js';
import { fitGlm } from './glm.js';
import type { PriceComponent } from './published.js';

export const SPENDING = CATEGORIES.slice(0, SPENDING_CATEGORY_COUNT) as readonly SpendingCategory[];

/** The RPP component each category's price response is keyed to (BEA's goods/services split). */
export const PRICE_COMPONENT: Readonly<Record<SpendingCategory, PriceComponent>> = Object.fromEntries(
  SPENDING.map((c) => [
    c,
    ['mortgage_and_rent', 'home_maintenance_and_repairs'].includes(c)
      ? 'housing'
      : ['natural_gas', 'electricity', 'heating_fuels_other', 'water_and_public_services'].includes(c)
        ? 'utilities'
        : [
              'food_home',
              'alcoholic_beverages',
              'housekeeping_supplies',
              'furniture_and_appliances',
              'clothing_items_and_services',
              'vehicle_purchase_and_lease',
              'gasoline',
              'prescription_drugs',
              'medical_supplies',
              'media_hardware_and_services',
              'pets',
              'toys_and_hobbies',
              'personal_care',
              'reading',
              'tobacco_and_smoking',
            ].includes(c)
          ? 'goods'
          : 'other',
  ]),
) as Record<SpendingCategory, PriceComponent>;

/**
 * Guard on the pooled price elasticities: outside [0, 1.5] a response to local prices is not credible (a
 * negative one would mean dearer places spend less in dollars; above 1.5 quantities would rise with
 * price). The estimates sit inside it (docs/model.md reports them with standard errors).
 */
export const ELASTICITY_RANGE = [0, 1.5] as const;

export interface Elasticity {
  /** The estimate after the ELASTICITY_RANGE guard, the raw estimate and its robust standard error. */
  readonly value: number;
  readonly estimate: number;
  readonly se: number;
}

export function tenureClass(h: Household): number {
  if (!h.isHomeowner) return 0;
  return h.cutenure === 2 ? 2 : 1;
}

export interface FittedModel {
  readonly incomeKnots: number[];
  /** [category] → β (length P). */
  readonly beta: Float64Array[];
  readonly ownerLogit: Float64Array;
  readonly mortgageLogit: Float64Array;
  /** Per RPP component: spending elasticity to the state price parity, pooled over its categories. */
  readonly elasticity: ReadonlyMap<PriceComponent, Elasticity>;
  /** Total spending's elasticity to the state price level (the budget's), estimate and guarded value. */
  readonly totalElasticity: Elasticity;
  readonly budget: PriceBudget;
  /** A household's ln price factor of a category (index into SPENDING), as the artifact applies it. */
  readonly logPriceFactor: (h: Household, category: number) => number;
  readonly inputs: DesignInput[];
  readonly weights: Float64Array;
}

/** Weighted quantiles of u at 5, 27.5, 50, 72.5, 95 % (Harrell's default knot placement for 5 knots). */
export function incomeKnots(households: readonly Household[]): number[] {
  const sorted = households
    .filter((h) => h.weight > 0)
    .map((h) => ({ u: incomeU(h.takeHome), w: h.weight }))
    .sort((a, b) => a.u - b.u);
  const total = sorted.reduce((s, x) => s + x.w, 0);
  return [0.05, 0.275, 0.5, 0.725, 0.95].map((q) => {
    let cumulative = 0;
    for (const x of sorted) {
      cumulative += x.w;
      if (cumulative >= q * total) return x.u;
    }
    return sorted[sorted.length - 1]!.u;
  });
}

export function designInputs(
  households: readonly Household[],
  logStatePrice: (h: Household, component: PriceComponent) => number,
): DesignInput[] {
  return households.map((h) => ({
    u: incomeU(h.takeHome),
    age: h.age,
    size: h.members,
    tenure: tenureClass(h),
    urban: h.urban,
    region: h.region,
    logPrice: logStatePrice(h, 'all'),
  }));
}

export function fitModel(
  households: readonly Household[],
  logStatePrice: (h: Household, component: PriceComponent) => number,
): FittedModel {
  const knots = incomeKnots(households);
  const inputs = designInputs(households, logStatePrice);
  const rows = households.length;
  const weights = new Float64Array(rows);
  let sumW = 0;
  households.forEach((h, i) => {
    // Records of unknown region (a few dozen) have no region column to sit in.
    weights[i] = h.region > 0 ? h.weight : 0;
    sumW += weights[i]!;
  });
  for (let i = 0; i < rows; i++) weights[i] = (weights[i]! * rows) / sumW;
  const design: Design = { households, inputs, knots, weights, x: new Float64Array(rows * P) };
  const prices = priceResponse(design, logStatePrice);
  // Categories: the price column carries the category's ln price factor as an offset (coefficient 1).
  const offset = new Float64Array(rows);
  const y = new Float64Array(rows);
  const beta = SPENDING.map((_, c) => {
    households.forEach((h, i) => {
      designRow({ ...inputs[i]!, logPrice: 0 }, knots, design.x, i * P);
      offset[i] = prices.logPriceFactor(h, c);
      y[i] = Math.max(0, h.spending[c]!);
    });
    const b = fitGlm(design.x, P, y, weights, 'log', offset).beta;
    b[COLUMNS.price] = 1;
    return b;
  });
  return {
    incomeKnots: knots,
    beta,
    ...tenureLogits(inputs, households, weights),
    ...prices,
    inputs,
    weights,
  };
}

/** The fit's households, their design inputs, knots and normalised weights, and a design matrix to fill. */
interface Design {
  readonly households: readonly Household[];
  readonly inputs: readonly DesignInput[];
  readonly knots: readonly number[];
  readonly weights: Float64Array;
  readonly x: Float64Array;
}

/**
 * The price response. One elasticity per RPP component, from the pooled spending of the component's
 * categories: a category-by-category price slope is not identified from ~45 states (the first version had
 * 30 of 36 at the clamp). Then the budget: total spending's elasticity to the price level. Region effects
 * stay in, so every slope comes from price differences between states of a region; the component
 * elasticities then only share the total out (src/model/price.ts).
 */
function priceResponse(
  design: Design,
  logStatePrice: (h: Household, component: PriceComponent) => number,
): Pick<FittedModel, 'elasticity' | 'totalElasticity' | 'budget' | 'logPriceFactor'> {
  const { households, inputs, knots, weights, x } = design;
  const y = new Float64Array(households.length);
  const estimate = (categories: readonly number[], logPrice: (h: Household) => number): Elasticity => {
    households.forEach((h, i) => {
      designRow({ ...inputs[i]!, logPrice: logPrice(h) }, knots, x, i * P);
      y[i] = categories.reduce((s, c) => s + Math.max(0, h.spending[c]!), 0);
    });
    const fit = fitGlm(x, P, y, weights, 'log');
    const value = fit.beta[COLUMNS.price]!;
    const guarded = Math.min(Math.max(value, ELASTICITY_RANGE[0]), ELASTICITY_RANGE[1]);
    return { value: guarded, estimate: value, se: fit.se[COLUMNS.price]! };
  };
  const elasticity = new Map<PriceComponent, Elasticity>();
  for (const component of [...new Set(SPENDING.map((c) => PRICE_COMPONENT[c]))].sort()) {
    const members = SPENDING.flatMap((c, i) => (PRICE_COMPONENT[c] === component ? [i] : []));
    elasticity.set(
      component,
      estimate(members, (h) => logStatePrice(h, component)),
    );
  }
  const share = budgetShares(households, weights);
  const component = Int32Array.from(SPENDING, PRICE_COMPONENT_INDEX);
  const logRpp = (h: Household) => RPP_COMPONENTS.map((k) => logStatePrice(h, k));
  const totalElasticity = estimate(
    SPENDING.map((_, c) => c),
    (h) => logPriceLevel(logRpp(h), component, share),
  );
  const budget: PriceBudget = { totalElasticity: totalElasticity.value, share };
  const used = Float64Array.from(SPENDING, (c) => elasticity.get(PRICE_COMPONENT[c])!.value);
  return {
    elasticity,
    totalElasticity,
    budget,
    logPriceFactor: priceFactorLookup(logRpp, component, used, budget),
  };
}

/** Each category's share of the weighted 2014 spending of the fitted households (the budget's shares). */
function budgetShares(households: readonly Household[], weights: Float64Array): Float64Array {
  const sums = new Float64Array(SPENDING.length);
  households.forEach((h, i) => {
    SPENDING.forEach((_, c) => {
      sums[c] = sums[c]! + weights[i]! * Math.max(0, h.spending[c]!);
    });
  });
  const total = sums.reduce((s, v) => s + v, 0);
  return sums.map((v) => v / total);
}

/** ln price factor per household and category, computed once per distinct set of state parities. */
function priceFactorLookup(
  logRpp: (h: Household) => number[],
  component: Int32Array,
  elasticity: Float64Array,
  budget: PriceBudget,
): (h: Household, category: number) => number {
  const byPlace = new Map<string, Float64Array>();
  return (h, category) => {
    const place = logRpp(h);
    const key = place.join('|');
    let factors = byPlace.get(key);
    if (factors === undefined) {
      factors = new Float64Array(SPENDING.length);
      writeLogPriceFactors(place, component, elasticity, budget, factors);
      byPlace.set(key, factors);
    }
    return factors[category]!;
  };
}

/** Logistic terms [1, u, u², a, a², a·u], a = (age − 50)/10 (the layout ModelArtifact.ownerLogit states). */
export function tenureTerms(u: number, age: number, out: Float64Array, at: number): void {
  const a = (age - 50) / 10;
  out[at] = 1;
  out[at + 1] = u;
  out[at + 2] = u * u;
  out[at + 3] = a;
  out[at + 4] = a * a;
  out[at + 5] = a * u;
}

function tenureLogits(
  inputs: readonly DesignInput[],
  households: readonly Household[],
  weights: Float64Array,
) {
  const rows = inputs.length;
  const x = new Float64Array(rows * 6);
  const owner = new Float64Array(rows);
  const mortgage = new Float64Array(rows);
  const ownerWeights = new Float64Array(rows);
  inputs.forEach((input, i) => {
    tenureTerms(input.u, input.age, x, i * 6);
    owner[i] = households[i]!.isHomeowner ? 1 : 0;
    mortgage[i] = input.tenure === 1 ? 1 : 0;
    ownerWeights[i] = households[i]!.isHomeowner ? weights[i]! : 0;
  });
  return {
    ownerLogit: fitGlm(x, 6, owner, weights, 'logit').beta,
    mortgageLogit: fitGlm(x, 6, mortgage, ownerWeights, 'logit').beta,
  };
}

export const PRICE_COMPONENT_INDEX = (category: SpendingCategory) =>
  RPP_COMPONENTS.indexOf(PRICE_COMPONENT[category]);
