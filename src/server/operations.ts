/**
 * The three service operations as the HTTP API exposes them. Routes and the OpenAPI document are both
 * generated from this table, so a path, scope or response schema is stated once.
 */

import { BudgetResponse, ModelResponse, scoreResponseSchema } from '../contract/schemas.js';
import { ScoreDetails } from '../engine/score-details.js';
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
  /** The operation's answer with `?explain=true`, for an operation that explains itself. */
  readonly explained?: ExplainedOperation;
}

export interface ExplainedOperation {
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
    run: (engine, body) => engine.budget(body),
  },
  {
    path: OPERATION_PATHS.score,
    scope: 'scores',
    operationId: 'generateScore',
    summary: 'Predicted saving ability (monthly) and the cash-flow scores, as strings.',
    responseName: 'ScoreResponse',
    responseSchema: (scoreKey) => scoreResponseSchema(scoreKey),
    run: (engine, body, options) => engine.score(body, options),
    explained: {
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
    run: (engine, body) => engine.model(body),
  },
];

/** The score response with `?explain=true`: its three values and their `details` (docs/scores.md). */
function explainedScoreResponseSchema(scoreKey: string): TSchema {
  return Type.Object(
    { ...scoreResponseSchema(scoreKey).properties, details: ScoreDetails },
    { additionalProperties: false },
  );
}
