/**
 * The engine: the three operations of the service contract over a spending model and a geography
 * resolver. Pure (no I/O); `src/runtime/load-engine.ts` wires it to the shipped artifact.
 *
 * Each call validates once, evaluates the model once into preallocated buffers, and builds the response
 * objects from those buffers. The buffers are reused across calls, which is safe because every operation
 * is synchronous and the model and resolver never call back into the engine.
 */
import {
  DEFAULT_SCORE_KEY,
  type InvalidRequestBody,
  PSA_KEY,
  SAVINGS_SCORE_KEY,
  type ScoreResponse,
} from '../contract/schemas.js';
import { checkRequest, type ValidRequest, validateRequest } from '../contract/validate.js';
import type { GeoResolver } from '../geo/types.js';
import type { SpendingModel } from '../model/types.js';
import { evaluationSteps } from './evaluation.js';
import { fairLendingRequest } from './fair-lending.js';
import type { ScoreParts } from './index-score.js';
import { categoryRecord, fixedKeyRecord } from './record.js';
import { scoreTexts } from './score.js';
import { scoreDetails, writeBasisScoreValues } from './score-details.js';
import type { ScoreReference } from './score-reference.js';
import type {
  EngineConfig,
  ExplainedScore,
  HouseholdFigures,
  LocalEngine,
  Result,
  ScoreRunOptions,
} from './types.js';

export interface EngineParts {
  readonly model: SpendingModel;
  readonly geo: GeoResolver;
  /** The score reference built with this model, for explained scores (none: they refuse). */
  readonly reference?: ScoreReference | undefined;
  readonly config?: Partial<EngineConfig> | undefined;
}

export function createEngine({ model, geo, reference, config }: EngineParts): LocalEngine {
  const scoreKey = checkScoreKey(config?.scoreKey ?? DEFAULT_SCORE_KEY);
  const { buffers, readFixedExpenses, predict, allocate, score } = evaluationSteps(model);
  const scoreRecord = fixedKeyRecord([PSA_KEY, scoreKey, SAVINGS_SCORE_KEY]);
  const figures: { -readonly [K in keyof HouseholdFigures]: HouseholdFigures[K] } = {
    budget: buffers.budget,
    model: buffers.model,
    modeled: buffers.modeled,
    scoreValues: buffers.scoreValues,
    // Set by every call; any geography will do until the first.
    geography: geo.resolve(''),
  };

  // Like `figures`, the success result is one object reused by every call.
  const figuresResult: Result<HouseholdFigures> = { ok: true, value: figures };

  /**
   * Every operation evaluates all three figure sets: they share one pass over the categories, and the
   * operations that need only one are served at the API's rate, far below the engine's.
   */
  function householdFiguresOf(request: ValidRequest): HouseholdFigures {
    const { demographics } = request;
    const netIncome = demographics.net_annual_income;
    const givenWhole = readFixedExpenses(request.budget);
    const geography = geo.resolve(demographics.zip);
    const fillableWeight = predict(demographics, geography);
    score(netIncome, allocate(netIncome, givenWhole, fillableWeight));
    if (request.options?.basis === 'benchmark')
      writeBasisScoreValues(scorePartsOf(request, figures), 'benchmark', figures.scoreValues);
    figures.geography = geography;
    return figures;
  }

  function householdFigures(body: unknown): Result<HouseholdFigures> {
    const request = checkRequest(body);
    if (request === undefined) return rejected(body);
    householdFiguresOf(request);
    return figuresResult;
  }

  return {
    modelVersion: model.version,
    priceYear: model.priceYear,
    scoreKey,
    scoreReference: reference,
    budget(body) {
      const evaluated = householdFigures(body);
      if (!evaluated.ok) return evaluated;
      return { ok: true, value: { budget: categoryRecord(evaluated.value.budget) } };
    },
    // A `budget` in the request is validated but ignored: callers send one body to all three operations.
    model(body) {
      const evaluated = householdFigures(body);
      if (!evaluated.ok) return evaluated;
      return { ok: true, value: { model: categoryRecord(evaluated.value.model) } };
    },
    score(body, options) {
      const evaluated =
        options?.profile === 'fair-lending'
          ? fairLendingFigures(body, householdFiguresOf)
          : householdFigures(body);
      if (!evaluated.ok) return evaluated;
      return { ok: true, value: scoreRecord(scoreTexts(evaluated.value.scoreValues)) };
    },
    explainedScore: scoreExplainer({ model, reference, householdFiguresOf, scoreRecord }),
    household(body) {
      const evaluated = householdFigures(body);
      if (!evaluated.ok) return evaluated;
      const { budget, model, scoreValues, geography } = evaluated.value;
      return {
        ok: true,
        value: {
          budget: categoryRecord(budget),
          model: categoryRecord(model),
          score: scoreRecord(scoreTexts(scoreValues)),
          geo: { geo_level: geography.level, state: geography.state, cbsa: geography.cbsa },
        },
      };
    },
    householdFigures,
    householdFiguresOf,
  };
}

/** The figures of a body without age and household type (the fair-lending profile's score). */
function fairLendingFigures(
  body: unknown,
  figuresOf: (request: ValidRequest) => HouseholdFigures,
): Result<HouseholdFigures> {
  const request = checkRequest(body);
  if (request === undefined) return rejected(body);
  return { ok: true, value: figuresOf(fairLendingRequest(request)) };
}

/** The explanations' view of a request just evaluated: its stated amounts and the model's. */
function scorePartsOf(request: ValidRequest, figures: HouseholdFigures): ScoreParts {
  const { demographics, budget } = request;
  return { netIncome: demographics.net_annual_income, stated: budget ?? {}, peers: figures.modeled };
}

interface ExplainerParts {
  readonly model: SpendingModel;
  readonly reference: ScoreReference | undefined;
  householdFiguresOf(request: ValidRequest): HouseholdFigures;
  scoreRecord(texts: readonly string[]): ScoreResponse;
}

/** `Engine.explainedScore` over the engine's own evaluation. */
function scoreExplainer(
  parts: ExplainerParts,
): (body: unknown, options?: ScoreRunOptions) => Result<ExplainedScore> {
  const { model, reference } = parts;
  return (body, options) => {
    const valid = checkRequest(body);
    if (valid === undefined) return rejected(body);
    const profile = options?.profile ?? 'standard';
    const request = profile === 'fair-lending' ? fairLendingRequest(valid) : valid;
    if (reference === undefined)
      throw new Error(
        `outlay: no score reference for model ${model.version}: explained scores need one built with it`,
      );
    const figures = parts.householdFiguresOf(request);
    const details = scoreDetails({
      parts: scorePartsOf(request, figures),
      reference,
      geoLevel: figures.geography.level,
      modelVersion: model.version,
      basis: request.options?.basis,
      profile,
      loan: request.loan,
    });
    return { ok: true, value: { ...parts.scoreRecord(scoreTexts(figures.scoreValues)), details } };
  };
}

/** The error result for a body that failed `checkRequest`: validation again, for its error list. */
function rejected(body: unknown): { ok: false; error: InvalidRequestBody } {
  const validation = validateRequest(body);
  if (validation.ok) throw new Error('a request failed the schema check once and passed it once');
  return validation;
}

/** Names every object inherits (`__proto__`, `constructor`…): as a response key the score would be lost. */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The main score key replaces `OUTLAY` in score responses, so it must not collide with the other two keys
 * nor with a name every object inherits. Exported for remote mode, which reads the score under this key.
 */
export function checkScoreKey(key: string): string {
  if (key.length === 0 || key === PSA_KEY || key === SAVINGS_SCORE_KEY) {
    throw new Error(
      `invalid score key ${JSON.stringify(key)}: it must be non-empty and differ from "${PSA_KEY}" and "${SAVINGS_SCORE_KEY}"`,
    );
  }
  if (INHERITED_NAMES.has(key))
    throw new Error(
      `invalid score key ${JSON.stringify(key)}: it is a name every JavaScript object inherits`,
    );
  return key;
}
