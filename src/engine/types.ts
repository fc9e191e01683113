import type {
  BudgetResponse,
  InvalidRequestBody,
  ModelResponse,
  ScoreResponse,
} from '../contract/schemas.js';
import type { ValidRequest } from '../contract/validate.js';
import type { Geography, GeoLevel } from '../geo/types.js';
import type { Profile } from '../model/types.js';
import type { PeerBenchmarks } from './benchmark.js';
import type { ModelRangesResponse } from './model-ranges.js';
import type { ScoreDetails, ScoreProfile } from './score-details.js';
import type { ScoreReference } from './score-reference.js';

export type Result<T> = { ok: true; value: T } | { ok: false; error: InvalidRequestBody };

export interface EngineConfig {
  /** Key of the main score in score responses (default OUTLAY), for callers migrating from other services. */
  readonly scoreKey: string;
}

/** The score response with its explanation (`?explain=true`, docs/scores.md). */
export type ExplainedScore = Readonly<Record<string, string | ScoreDetails>>;

/** How a score is computed beyond the request: its profile (default `standard`; docs/scores.md). */
export interface ScoreRunOptions {
  readonly profile?: ScoreProfile | undefined;
}

/** The geography the engine actually used, as reported in batch output. */
export interface GeoUsed {
  readonly geo_level: GeoLevel;
  readonly state: string | null;
  readonly cbsa: string | null;
}

/** Everything the batch job writes for one household: the three responses plus geography. */
export interface HouseholdResult {
  readonly budget: BudgetResponse['budget'];
  readonly model: ModelResponse['model'];
  readonly score: ScoreResponse;
  readonly geo: GeoUsed;
}

/**
 * One household's results as numbers and strings in buffers the engine reuses: what `household` returns,
 * before it is built into response objects. Valid until the engine's next call. The batch job writes these
 * straight into its output; reading 76 amounts back out of response objects by key cost it more than
 * building them.
 */
export interface HouseholdFigures {
  /** Budget amounts, whole units, CATEGORIES order. */
  readonly budget: Float64Array;
  /** Modeled amounts, whole units, CATEGORIES order. */
  readonly model: Float64Array;
  /**
   * The model's amounts unrounded, CATEGORIES order: what households like this one spend, the `peers`
   * the score's explanations read (ScoreParts, src/engine/index-score.ts).
   */
  readonly modeled: Float64Array;
  /**
   * Score response values in response order as numbers: PSA in whole units, main score and SAViNGS score
   * in points. Each is exactly `Number` of its response text, `scoreTexts` (src/engine/score.ts).
   */
  readonly scoreValues: Float64Array;
  readonly geography: Geography;
}

/**
 * The three operations of the service contract, over an already-parsed JSON body (unknown: the engine
 * validates). Used identically by the CLI, the batch job and the HTTP server.
 */
export interface Engine {
  readonly modelVersion: string;
  readonly priceYear: number;
  readonly scoreKey: string;
  budget(body: unknown): Result<BudgetResponse>;
  model(body: unknown): Result<ModelResponse>;
  /** `model` with its ranges and peer count (`?ranges=true`, docs/model.md "Distributions"). */
  modelRanges(body: unknown): Result<ModelRangesResponse>;
  score(body: unknown, options?: ScoreRunOptions): Result<ScoreResponse>;
  /**
   * `score` with its `details`; throws when the engine has no score reference for its model (a model
   * other than the shipped one, loaded without a reference).
   */
  explainedScore(body: unknown, options?: ScoreRunOptions): Result<ExplainedScore>;
  /** All three operations and the geography for one body, with one validation and one model evaluation. */
  household(body: unknown): Result<HouseholdResult>;
}

/**
 * The in-process engine (createEngine): the contract's operations, plus `household` as bare figures.
 */
export interface LocalEngine extends Engine {
  /** The score reference the explanations' percentiles read; undefined when the engine has none. */
  readonly scoreReference: ScoreReference | undefined;
  /** `household` without the response objects, for callers that only copy the values out. */
  householdFigures(body: unknown): Result<HouseholdFigures>;
  /**
   * `householdFigures` for a request validated already (`checkRequest`), e.g. built from typed cells, and
   * admitted by `refusalOf` (a refused ZIP is evaluated at national prices).
   */
  householdFiguresOf(request: ValidRequest): HouseholdFigures;
  /**
   * Why the engine refuses a request the schema accepts, or undefined: a ZIP whose 3-digit prefix USPS
   * does not assign (docs/api.md, "Errors"). Every operation checks it; a caller of `householdFiguresOf`
   * checks it first.
   */
  refusalOf(request: ValidRequest): InvalidRequestBody | undefined;
  /**
   * The model's percentiles of peers' spending for `profile`, the household `householdFiguresOf` evaluated
   * last (one object reused by every call: valid until the next).
   */
  peerBenchmarksOf(profile: Profile): PeerBenchmarks;
}
