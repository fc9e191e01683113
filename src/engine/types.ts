import type {
  BudgetResponse,
  InvalidRequestBody,
  ModelResponse,
  ScoreResponse,
} from '../contract/schemas.js';
import type { GeoLevel } from '../geo/types.js';

export type Result<T> = { ok: true; value: T } | { ok: false; error: InvalidRequestBody };

export interface EngineConfig {
  /** Key of the main score in score responses (default OUTLAY), for callers migrating from other services. */
  readonly scoreKey: string;
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
 * The three operations of the service contract, over an already-parsed JSON body (unknown: the engine
 * validates). Used identically by the CLI, the batch job and the HTTP server.
 */
export interface Engine {
  readonly modelVersion: string;
  readonly priceYear: number;
  readonly scoreKey: string;
  budget(body: unknown): Result<BudgetResponse>;
  model(body: unknown): Result<ModelResponse>;
  score(body: unknown): Result<ScoreResponse>;
  /** All three operations and the geography for one body, with one validation and one model evaluation. */
  household(body: unknown): Result<HouseholdResult>;
}
