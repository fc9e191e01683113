/**
 * The one place that turns the shipped model artifact and geography extracts into an engine. The CLI,
 * the batch job and the server all start here, so they use the same data by default.
 */
import { createEngine } from '../engine/create-engine.js';
import type { LocalEngine } from '../engine/types.js';
import { DEFAULT_GEO_DIR, loadGeoResolver } from '../geo/load.js';
import { DEFAULT_MODEL_PATH, loadSpendingModel } from '../model/load.js';

export interface LoadEngineOptions {
  /** Model artifact (default: the shipped data/model/outlay-model.json). */
  readonly modelPath?: string | undefined;
  /** Geography extracts directory (default: the shipped data/geo). */
  readonly geoDir?: string | undefined;
  /** Main score key in score responses (default OUTLAY). */
  readonly scoreKey?: string | undefined;
}

export async function loadEngine(options: LoadEngineOptions = {}): Promise<LocalEngine> {
  const [model, geo] = await Promise.all([
    loadSpendingModel(options.modelPath ?? DEFAULT_MODEL_PATH),
    loadGeoResolver(options.geoDir ?? DEFAULT_GEO_DIR),
  ]);
  return createEngine({ model, geo, config: { scoreKey: options.scoreKey } });
}
