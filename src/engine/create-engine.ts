/**
 * The engine: the three operations of the service contract over a spending model and a geography
 * resolver. Pure (no I/O); `src/runtime/load-engine.ts` wires it to the shipped artifact.
 *
 * Each call validates once, evaluates the model once into preallocated buffers, and builds the response
 * objects from those buffers. The buffers are reused across calls, which is safe because every operation
 * is synchronous and the model and resolver never call back into the engine.
 */
import { SPENDING_CATEGORY_COUNT } from '../contract/categories.js';
import {
  DEFAULT_SCORE_KEY,
  type GivenBudget,
  type InvalidRequestBody,
  LENDING_SCORE_KEY,
  type ModelResponse,
  PSA_KEY,
  SAVINGS_SCORE_KEY,
  type ScoreResponse,
} from '../contract/schemas.js';
import {
  checkRequest,
  INVALID_REQUEST_MESSAGE,
  type ValidRequest,
  validateRequest,
} from '../contract/validate.js';
import type { Geography, GeoResolver } from '../geo/types.js';
import { RANGE_PERCENTILES } from '../model/artifact.js';
import type { Profile, SpendingModel } from '../model/types.js';
import { type PeerBenchmarks, rangeBenchmarks } from './benchmark.js';
import { type FloorTable, NO_FLOORS } from './benchmark-floors.js';
import { type EvaluationBuffers, evaluationSteps } from './evaluation.js';
import { fairLendingRequest } from './fair-lending.js';
import { statedWithGroups } from './grouping.js';
import type { ScoreParts } from './index-score.js';
import { lendingOf } from './lending.js';
import { type ModelRangesResponse, rangesRecord } from './model-ranges.js';
import { categoryRecord, fixedKeyRecord } from './record.js';
import { formatIndex, roundHalfAwayFromZero } from './rounding.js';
import { scoreTexts } from './score.js';
import { scoreDetails, writeBasisScoreValues } from './score-details.js';
import type { ScoreReference } from './score-reference.js';
import { estimatingTakeHome } from './take-home-engine.js';
import type {
  Engine,
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
  /**
   * The public standards the benchmark basis holds benchmarks to (`loadBenchmarkFloors`; none: the
   * model's percentiles alone, for tests of the arithmetic).
   */
  readonly floors?: FloorTable | undefined;
  readonly config?: Partial<EngineConfig> | undefined;
}

export function createEngine({ model, geo, reference, floors, config }: EngineParts): LocalEngine {
  const scoreKey = checkScoreKey(config?.scoreKey ?? DEFAULT_SCORE_KEY);
  const { buffers, readFixedExpenses, predict, allocate, score } = evaluationSteps(model);
  const peerRanges = peerRangesOf(model, buffers.modeled, floors ?? NO_FLOORS);
  const refusalOf = zipRefusal(geo);
  const scoreRecord = scoreAnswerer(scoreKey);
  const explainerParts = { model, reference, refusalOf, householdFiguresOf, scoreRecord, peerRanges };
  // Set by every call; any geography will do until the first.
  const figures = figuresOver(buffers, geo.resolve(''));

  // Like `figures`, the success result is one object reused by every call.
  const figuresResult: Result<HouseholdFigures> = { ok: true, value: figures };

  /**
   * Every operation evaluates all three figure sets: they share one pass over the categories, and the
   * operations that need only one are served at the API's rate, far below the engine's.
   */
  function householdFiguresOf(request: ValidRequest): EvaluatedFigures {
    const { demographics } = request;
    const netIncome = demographics.net_annual_income;
    const budget = statedBudget(request);
    let givenWhole = readFixedExpenses(budget);
    const geography = geo.resolve(demographics.zip);
    let fillableWeight = predict(demographics, geography);
    figures.stated = budget;
    // Groups' shares are stated: read again, and predicted again for the weight of the rest only.
    if (request.grouped_inputs !== undefined) {
      figures.stated = statedWithGroups(budget, request.grouped_inputs, buffers.modeled);
      [givenWhole, fillableWeight] = [readFixedExpenses(figures.stated), predict(demographics, geography)];
    }
    score(netIncome, allocate(netIncome, givenWhole, fillableWeight));
    if (request.options?.basis === 'benchmark') {
      const options = { basis: 'benchmark', benchmarks: peerRanges.benchmarksOf(demographics) } as const;
      writeBasisScoreValues(scorePartsOf(request, figures), options, figures.scoreValues);
    }
    figures.geography = geography;
    return figures;
  }

  function householdFigures(body: unknown): Result<HouseholdFigures> {
    const admitted = admit(body, refusalOf);
    if (!admitted.ok) return admitted;
    householdFiguresOf(admitted.value);
    return figuresResult;
  }

  return estimatingTakeHome({
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
      const admitted = admit(body, refusalOf);
      if (!admitted.ok) return admitted;
      const request = admitted.value;
      const profiled = options?.profile === 'fair-lending' ? fairLendingRequest(request) : request;
      return { ok: true, value: scoreRecord(request, householdFiguresOf(profiled).scoreValues) };
    },
    modelRanges: modelRanger(refusalOf, householdFiguresOf, peerRanges),
    explainedScore: scoreExplainer(explainerParts),
    household: householdAnswerer(refusalOf, householdFiguresOf, scoreRecord),
    householdFigures,
    householdFiguresOf,
    refusalOf,
    peerBenchmarksOf: (profile) => peerRanges.benchmarksOf(profile),
  });
}

/** `Engine.household` over the engine's own evaluation. */
function householdAnswerer(
  refusalOf: RefusalOf,
  householdFiguresOf: (request: ValidRequest) => HouseholdFigures,
  scoreRecord: ScoreAnswerer,
): Engine['household'] {
  return (body) => {
    const admitted = admit(body, refusalOf);
    if (!admitted.ok) return admitted;
    const request = admitted.value;
    const { budget, model, scoreValues, geography } = householdFiguresOf(request);
    return {
      ok: true,
      value: {
        budget: categoryRecord(budget),
        model: categoryRecord(model),
        score: scoreRecord(request, scoreValues),
        geo: { geo_level: geography.level, state: geography.state, cbsa: geography.cbsa },
      },
    };
  };
}

/** The score answer of a request from its score values (`writeScoreValues`' order). */
type ScoreAnswerer = (request: ValidRequest, values: ArrayLike<number>) => ScoreResponse;

/**
 * The score answer: the three values under their keys and, when the request has a `loan`, its lending
 * index under LENDING_SCORE_KEY (lender mode on the answer's own PSA; docs/scores.md).
 */
function scoreAnswerer(scoreKey: string): ScoreAnswerer {
  const plain = fixedKeyRecord([PSA_KEY, scoreKey, SAVINGS_SCORE_KEY]);
  const withLending = fixedKeyRecord([PSA_KEY, scoreKey, SAVINGS_SCORE_KEY, LENDING_SCORE_KEY]);
  return (request, values) => {
    const texts = scoreTexts(values);
    const { loan } = request;
    if (loan === undefined) return plain(texts);
    const lending = lendingOf(values[0]!, request.demographics.net_annual_income, {
      monthlyPayment: loan.monthly_payment,
      stressMultiplier: loan.stress_multiplier,
    });
    return withLending([...texts, formatIndex(lending.index)]);
  };
}

/** The figures of an evaluation, with the fixed expenses as stated: `budget` and its groups' shares. */
interface EvaluatedFigures extends HouseholdFigures {
  readonly stated: GivenBudget | undefined;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The one figures object of an engine, over its evaluation's buffers. */
const figuresOver = (buffers: EvaluationBuffers, geography: Geography): Writable<EvaluatedFigures> => ({
  budget: buffers.budget,
  model: buffers.model,
  modeled: buffers.modeled,
  scoreValues: buffers.scoreValues,
  geography,
  stated: undefined,
});

/**
 * The request's stated amounts: its `budget`, with housing stated at 0 when the request declares the
 * household rent-free (`options.rent_free`; validation refuses it beside a housing amount above 0).
 */
function statedBudget(request: ValidRequest): GivenBudget | undefined {
  if (request.options?.rent_free !== true) return request.budget;
  return { ...request.budget, mortgage_and_rent: 0 };
}

/** The refusal of a valid request: its ZIP's prefix is not assigned, so no place stands behind it. */
type RefusalOf = (request: ValidRequest) => InvalidRequestBody | undefined;

/** What every operation answers for a ZIP whose 3-digit prefix USPS does not assign (00000, 99999). */
export const UNKNOWN_ZIP_MESSAGE = 'unknown ZIP code: USPS assigns no ZIP code with this 3-digit prefix';

function zipRefusal(geo: GeoResolver): RefusalOf {
  return (request) =>
    geo.knows(request.demographics.zip)
      ? undefined
      : {
          message: INVALID_REQUEST_MESSAGE,
          errors: [{ path: '/demographics/zip', message: UNKNOWN_ZIP_MESSAGE }],
        };
}

/** The body as a valid request the engine accepts, or the error result: the schema's errors, then the ZIP. */
function admit(body: unknown, refusalOf: RefusalOf): Result<ValidRequest> {
  const request = checkRequest(body);
  if (request === undefined) return rejected(body);
  const refusal = refusalOf(request);
  return refusal === undefined ? { ok: true, value: request } : { ok: false, error: refusal };
}

/** The explanations' view of a request just evaluated: its stated amounts and the model's. */
function scorePartsOf(request: ValidRequest, figures: EvaluatedFigures): ScoreParts {
  const { demographics } = request;
  return {
    netIncome: demographics.net_annual_income,
    stated: figures.stated ?? {},
    peers: figures.modeled,
    rentFree: request.options?.rent_free,
  };
}

/**
 * The model's percentiles of peers' spending for the household just evaluated (its means in `modeled`),
 * into one buffer reused by every call, read by one benchmarks object.
 */
function peerRangesOf(model: SpendingModel, modeled: Float64Array, floors: FloorTable) {
  const ranges = new Float64Array(SPENDING_CATEGORY_COUNT * RANGE_PERCENTILES.length);
  let householdFloors = floors.of(undefined);
  const benchmarks = rangeBenchmarks(ranges, () => householdFloors);
  return {
    benchmarksOf(profile: Profile): PeerBenchmarks {
      model.ranges(profile, modeled, ranges);
      householdFloors = floors.of(profile.household_members);
      return benchmarks;
    },
    answer(profile: Profile, means: ModelResponse['model']): ModelRangesResponse {
      const peers = model.ranges(profile, modeled, ranges);
      return { model: means, ranges: rangesRecord(ranges), peers: roundHalfAwayFromZero(peers) };
    },
  };
}

type PeerRanges = ReturnType<typeof peerRangesOf>;

/** `Engine.modelRanges` over the engine's own evaluation. */
function modelRanger(
  refusalOf: RefusalOf,
  householdFiguresOf: (request: ValidRequest) => HouseholdFigures,
  peerRanges: PeerRanges,
): (body: unknown) => Result<ModelRangesResponse> {
  return (body) => {
    const admitted = admit(body, refusalOf);
    if (!admitted.ok) return admitted;
    const { model } = householdFiguresOf(admitted.value);
    return { ok: true, value: peerRanges.answer(admitted.value.demographics, categoryRecord(model)) };
  };
}

interface ExplainerParts {
  readonly peerRanges: PeerRanges;
  readonly model: SpendingModel;
  readonly reference: ScoreReference | undefined;
  readonly refusalOf: RefusalOf;
  householdFiguresOf(request: ValidRequest): EvaluatedFigures;
  readonly scoreRecord: ScoreAnswerer;
}

/** `Engine.explainedScore` over the engine's own evaluation. */
function scoreExplainer(
  parts: ExplainerParts,
): (body: unknown, options?: ScoreRunOptions) => Result<ExplainedScore> {
  const { model, reference } = parts;
  return (body, options) => {
    const admitted = admit(body, parts.refusalOf);
    if (!admitted.ok) return admitted;
    const profile = options?.profile ?? 'standard';
    const request = profile === 'fair-lending' ? fairLendingRequest(admitted.value) : admitted.value;
    if (reference === undefined)
      throw new Error(
        `outlay: no score reference for model ${model.version}: explained scores need one built with it`,
      );
    const figures = parts.householdFiguresOf(request);
    const details = scoreDetails({
      benchmarks: parts.peerRanges.benchmarksOf(request.demographics),
      parts: scorePartsOf(request, figures),
      reference,
      geoLevel: figures.geography.level,
      modelVersion: model.version,
      basis: request.options?.basis,
      profile,
      loan: request.loan,
      grossIncome: request.demographics.gross_annual_income,
    });
    return { ok: true, value: { ...parts.scoreRecord(request, figures.scoreValues), details } };
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
  if (key.length === 0 || key === PSA_KEY || key === SAVINGS_SCORE_KEY || key === LENDING_SCORE_KEY) {
    throw new Error(
      `invalid score key ${JSON.stringify(key)}: it must be non-empty and differ from "${PSA_KEY}", "${SAVINGS_SCORE_KEY}" and "${LENDING_SCORE_KEY}"`,
    );
  }
  if (INHERITED_NAMES.has(key))
    throw new Error(
      `invalid score key ${JSON.stringify(key)}: it is a name every JavaScript object inherits`,
    );
  return key;
}
