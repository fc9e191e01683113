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
 * one into `out` (length 38, CATEGORIES order), full precision, in the artifact's price year:
 * `savings` = max(0, net income − modeled spending), `other_debt_payments` = 0.
 * It allocates nothing, so the batch job can call it millions of times per second.
 */
export interface SpendingModel {
  readonly version: string;
  readonly priceYear: number;
  predict(profile: Profile, geo: Geography, out: Float64Array): void;
}
