/**
 * The three service operations as the HTTP API exposes them. Routes and the OpenAPI document are both
 * generated from this table, so a path, scope or response schema is stated once.
 */

import {
  AliasedBudgetResponse,
  AliasedModelResponse,
  BudgetResponse,
  ModelResponse,
  scoreAnswerSchema,
} from '../contract/schemas.js';
import { ModelRangesResponse } from '../engine/model-ranges.js';
import { ScoreDetails } from '../engine/score-details.js';
import { withAliases } from '../engine/transform.js';
import type { Engine, Result, ScoreRunOptions } from '../engine/types.js';
import type { Scope } from '../keys/keys-file.js';
import Type, { type TSchema } from '../vendor/typebox.js';
import { OPERATION_PATHS } from './endpoints.js';

export interface Operation {
  readonly path: string;
  readonly scope: Scope;
  readonly operationId: string;
  readonly summary: string;
  readonly responseName: string;
  responseSchema(scoreKey: string): TSchema;
  run(engine: Engine, body: unknown, options: ScoreRunOptions): Result<object>;
  /** The operation's answer with its query flag set (`?explain=true`, `?ranges=true`), where it has one. */
  readonly explained?: ExplainedOperation;
  /** The answer's shape with a `transformer` in the request, for an operation that answers amounts. */
  readonly aliased?: AliasedAnswer;
}

export interface AliasedAnswer {
  readonly responseName: string;
  readonly responseSchema: TSchema;
}

/** A query parameter taking "true" or "false" (default), as the OpenAPI document states it. */
export interface QueryFlag {
  readonly name: string;
  readonly description: string;
}

export interface ExplainedOperation {
  readonly flag: QueryFlag;
  /** Request fields that only the flagged answer reads, added to the documented request example. */
  readonly exampleFields: object;
  readonly responseName: string;
  responseSchema(scoreKey: string): TSchema;
  run(engine: Engine, body: unknown, options: ScoreRunOptions): Result<object>;
}

export const OPERATIONS: readonly Operation[] = [
  {
    path: OPERATION_PATHS.budget,
    scope: 'budgets',
    operationId: 'generateBudget',
    summary: 'An annual budget over the 38 categories for the household, keeping the given fixed amounts.',
    responseName: 'BudgetResponse',
    responseSchema: () => BudgetResponse,
    run: (engine, body) => withAliases('budget', engine.budget(body), body),
    aliased: { responseName: 'AliasedBudgetResponse', responseSchema: AliasedBudgetResponse },
  },
  {
    path: OPERATION_PATHS.score,
    scope: 'scores',
    operationId: 'generateScore',
    summary: 'Predicted saving ability (monthly) and the cash-flow scores, as strings.',
    responseName: 'ScoreResponse',
    responseSchema: (scoreKey) => scoreAnswerSchema(scoreKey),
    run: (engine, body, options) => engine.score(body, options),
    explained: {
      flag: {
        name: 'explain',
        description:
          '"true" adds `details` to the answer: the unclamped index, its percentile among US households, ' +
          'reason codes, expense flags, the geography level, the model version and, with a `loan` in the ' +
          'request, lender mode (docs/scores.md). Without it the answer is the three values alone, and ' +
          '`LENDiNG`, the lending index, when the request has a `loan`.',
      },
      // A loan (its lending index is `LENDiNG` in either answer, lender mode in `details`) and the basis.
      exampleFields: { loan: { monthly_payment: 250 }, options: { basis: 'stated' } },
      responseName: 'ExplainedScoreResponse',
      responseSchema: explainedScoreResponseSchema,
      run: (engine, body, options) => engine.explainedScore(body, options),
    },
  },
  {
    path: OPERATION_PATHS.model,
    scope: 'models',
    operationId: 'generateModel',
    summary: 'Expected annual spending of similar households over the 38 categories.',
    responseName: 'ModelResponse',
    responseSchema: () => ModelResponse,
    run: (engine, body) => withAliases('model', engine.model(body), body),
    aliased: { responseName: 'AliasedModelResponse', responseSchema: AliasedModelResponse },
    explained: {
      flag: {
        name: 'ranges',
        description:
          '"true" adds `ranges`, the 25th, 50th and 75th percentile of a year\'s spending of households ' +
          'like this one per spending category, and `peers`, the effective number of survey households ' +
          'behind them (docs/model.md, "Distributions"). Without it the answer is the model alone.',
      },
      exampleFields: {},
      responseName: 'ModelRangesResponse',
      responseSchema: () => ModelRangesResponse,
      run: (engine, body) => engine.modelRanges(body),
    },
  },
];

/** The score response with `?explain=true`: its three values and their `details` (docs/scores.md). */
export function explainedScoreResponseSchema(scoreKey: string): TSchema {
  return Type.Object(
    { ...scoreAnswerSchema(scoreKey).properties, details: ScoreDetails },
    { additionalProperties: false },
  );
}
