/**
 * The steps of one household's evaluation, bound to the buffers they share: the fixed expenses, the
 * model's prediction, the budget's allocation and the score, in that order, with the geography resolved
 * between the first two by the caller. `createEngine` runs them for every call; the engine figure's cost
 * split (bench/stack/engine-stages.ts) runs them one prefix at a time, so both time the same code.
 */
import { CATEGORY_COUNT, SAVINGS_INDEX } from '../contract/categories.js';
import type { GivenBudget } from '../contract/schemas.js';
import type { BoundPrediction, SpendingModel } from '../model/types.js';
import { allocateBudget } from './budget.js';
import { readGivenBudget } from './given.js';
import { writeScoreValues } from './score.js';

/** The figures the steps write, reused by every evaluation (see HouseholdFigures). */
export interface EvaluationBuffers {
  readonly budget: Float64Array;
  /** The modeled amounts in whole units. */
  readonly model: Float64Array;
  /** The model's amounts unrounded, every category (`SpendingModel.predict`). */
  readonly modeled: Float64Array;
  readonly scoreValues: Float64Array;
}

export interface EvaluationSteps {
  readonly buffers: EvaluationBuffers;
  /** Reads the fixed expenses; returns their sum in whole units. */
  readFixedExpenses(budget: GivenBudget | undefined): number;
  /** The model's amounts (`SpendingModel.predictInto`); returns the weight sum of the categories to fill. */
  readonly predict: BoundPrediction;
  /**
   * The budget and the model in whole units, other debt payments 0 unless given; returns the spending
   * the score subtracts.
   */
  allocate(netIncome: number, givenWhole: number, fillableWeight: number): number;
  /** PSA and the two scores as numbers, from the spending `allocate` returned. */
  score(netIncome: number, spending: number): void;
}

export function evaluationSteps(model: SpendingModel): EvaluationSteps {
  // The request's fixed expenses (read where `isGiven` is 1).
  const given = new Float64Array(CATEGORY_COUNT);
  const isGiven = new Uint8Array(CATEGORY_COUNT);
  const modeled = new Float64Array(CATEGORY_COUNT);
  const buffers: EvaluationBuffers = {
    budget: new Float64Array(CATEGORY_COUNT),
    model: new Float64Array(CATEGORY_COUNT),
    modeled,
    scoreValues: new Float64Array(3),
  };
  const { scoreValues } = buffers;
  const allocation = { given, isGiven, modeled, out: buffers.budget, modelOut: buffers.model };
  return {
    buffers,
    readFixedExpenses: (budget) => readGivenBudget(budget, given, isGiven),
    // The model's own bound function, not a function calling it: in some processes V8 compiled such a
    // wrapper with the model's loops inlined, and the evaluation then took twice the CPU
    // (bench/analysis/engine.md, seventh round, in git history).
    predict: model.predictInto(modeled, isGiven),
    allocate: (netIncome, givenWhole, fillableWeight) =>
      allocateBudget(allocation, netIncome, givenWhole, fillableWeight),
    score(netIncome, spending) {
      const savings = isGiven[SAVINGS_INDEX] === 1 ? given[SAVINGS_INDEX]! : 0;
      writeScoreValues(netIncome, spending, savings, scoreValues);
    },
  };
}
