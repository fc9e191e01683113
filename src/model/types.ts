import type { HouseholdType } from '../contract/schemas.js';
import type { Geography } from '../geo/types.js';

/** The household as the model sees it. Optional fields are marginalised over when absent. */
export interface Profile {
  readonly net_annual_income: number;
  readonly age?: number | undefined;
  readonly gross_annual_income?: number | undefined;
  readonly household_members?: number | undefined;
  readonly household_type?: HouseholdType | undefined;
  readonly is_homeowner?: boolean | undefined;
}

/**
 * The behavioral (spending) model. `predict` writes the expected annual spending of households like this
 * one into `out` (length 38, CATEGORIES order), full precision, in the artifact's price year, never
 * negative: `savings` = max(0, net income − modeled spending), `other_debt_payments` = 0.
 * It allocates nothing, so the batch job can call it millions of times per second.
 *
 * It returns the sum of the spending categories' amounts (every category but savings and other debt
 * payments) whose flag in `excluded` (CATEGORIES order; default none) is not 1, added in CATEGORIES order:
 * the weight the budget shares the income by when `excluded` flags the given categories, summed while
 * the amounts are computed so that the budget needs no pass of its own for it.
 */
export interface SpendingModel {
  readonly version: string;
  readonly priceYear: number;
  predict(profile: Profile, geo: Geography, out: Float64Array, excluded?: Uint8Array): number;
  /**
   * `predict` with its two buffers fixed, for a caller that evaluates every profile into the same ones
   * (the engine): the bound function may be compiled for those buffers. Each bound function keeps its
   * own caches, so a caller binds once and keeps the result.
   */
  predictInto(out: Float64Array, excluded: Uint8Array): BoundPrediction;
  /**
   * How a year's spending of households like this one spreads: into `out` (length spending categories ×
   * 3) the 25th, 50th and 75th percentile of each spending category, [category][percentile], from the
   * model's means `means` for this profile (`predict`'s output); returns the effective number of survey
   * households behind them (Kish). docs/model.md, "Distributions".
   */
  ranges(profile: Profile, means: ArrayLike<number>, out: Float64Array): number;
}

/** `SpendingModel.predict` into buffers fixed when it was bound. */
export type BoundPrediction = (profile: Profile, geo: Geography) => number;
