/**
 * The model refitted on the training consumer units (hold-out.ts), and its fitted means for the training
 * and the held-out households: what the metro-size and rural hold-out checks of the model card judge
 * their factors with.
 */
import { type LogStatePrice, recordMeans } from './build.js';
import type { Household } from './extract-households.js';
import { designInputs, type FittedModel, fitModel, SPENDING } from './fit.js';
import { isHeldOut } from './hold-out.js';

export interface HeldOutFit {
  readonly train: readonly Household[];
  readonly test: readonly Household[];
  readonly fitted: FittedModel;
  /** Per category, the fitted means of the training households and of the held-out ones. */
  readonly trainBase: readonly Float64Array[];
  readonly testBase: readonly Float64Array[];
}

export function heldOutFit(households: readonly Household[], logStatePrice: LogStatePrice): HeldOutFit {
  const train = households.filter((h) => !isHeldOut(h.newid));
  const test = households.filter((h) => isHeldOut(h.newid));
  const fitted = fitModel(train, logStatePrice);
  const testInputs = designInputs(test, logStatePrice);
  return {
    train,
    test,
    fitted,
    trainBase: SPENDING.map((category) => recordMeans(fitted, train, category)),
    testBase: SPENDING.map((category) => recordMeans(fitted, test, category, testInputs)),
  };
}

/** Mean |ln(observed / predicted)| over groups, weighted by predicted spending. */
export function spread(ratios: readonly { readonly predicted: number; readonly ratio: number }[]): number {
  const total = ratios.reduce((a, r) => a + r.predicted, 0);
  return ratios.reduce((a, r) => a + r.predicted * Math.abs(Math.log(r.ratio)), 0) / total;
}
