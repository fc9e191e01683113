/**
 * The one place that turns the shipped model artifact, score reference and geography extracts into an
 * engine. The CLI, the batch job and the server all start here, so they use the same data by default.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { floorTable, parseBenchmarkFloors } from '../engine/benchmark-floors.js';
import { createEngine } from '../engine/create-engine.js';
import { parseScoreReference, type ScoreReference } from '../engine/score-reference.js';
import type { LocalEngine } from '../engine/types.js';
import { DEFAULT_GEO_DIR, loadGeoResolver } from '../geo/load.js';
import { DEFAULT_MODEL_PATH, loadSpendingModel } from '../model/load.js';
import { DATA_DIR } from '../paths.js';

export const DEFAULT_SCORE_REFERENCE_PATH = join(DATA_DIR, 'model', 'score-reference.json');
/** The public standards under the benchmark basis's benchmarks (src/engine/benchmark-floors.ts). */
export const DEFAULT_BENCHMARK_FLOORS_PATH = join(DATA_DIR, 'reference', 'benchmark-floors.json');

export interface LoadEngineOptions {
  /** Model artifact (default: the shipped data/model/outlay-model.json). */
  readonly modelPath?: string | undefined;
  /**
   * The score reference the explanations' percentiles read (default: the shipped one, for the shipped
   * model; none for another model, whose explanations then refuse).
   */
  readonly scoreReferencePath?: string | undefined;
  /** Geography extracts directory (default: the shipped data/geo). */
  readonly geoDir?: string | undefined;
  /** Main score key in score responses (default OUTLAY). */
  readonly scoreKey?: string | undefined;
}

export async function loadEngine(options: LoadEngineOptions = {}): Promise<LocalEngine> {
  const [model, geo, floors] = await Promise.all([
    loadSpendingModel(options.modelPath ?? DEFAULT_MODEL_PATH),
    loadGeoResolver(options.geoDir ?? DEFAULT_GEO_DIR),
    loadBenchmarkFloors(),
  ]);
  const reference = await referenceFor(model.version, options);
  return createEngine({ model, geo, reference, floors, config: { scoreKey: options.scoreKey } });
}

/** The shipped public standards under the benchmark basis, by household size. */
export async function loadBenchmarkFloors(path = DEFAULT_BENCHMARK_FLOORS_PATH) {
  return floorTable(parseBenchmarkFloors(JSON.parse(await readFile(path, 'utf8')), path));
}

/** The reference for a model: the one given, else the shipped one when the model is the shipped one. */
function referenceFor(modelVersion: string, options: LoadEngineOptions) {
  const otherModel =
    options.modelPath !== undefined && resolve(options.modelPath) !== resolve(DEFAULT_MODEL_PATH);
  if (options.scoreReferencePath === undefined && otherModel) return undefined;
  return loadScoreReference(options.scoreReferencePath ?? DEFAULT_SCORE_REFERENCE_PATH, modelVersion);
}

/**
 * Reads a score reference and refuses one built with another model: its percentiles rank indices that
 * model computed, so they would misplace this model's.
 */
export async function loadScoreReference(path: string, modelVersion: string): Promise<ScoreReference> {
  const reference = parseScoreReference(JSON.parse(await readFile(path, 'utf8')), path);
  if (reference.modelVersion !== modelVersion) {
    throw new Error(
      `${path} was built with model ${reference.modelVersion}, not the loaded model ${modelVersion}: ` +
        'rebuild it (npm run build && node dist/jobs/build-model/score-reference.js)',
    );
  }
  return reference;
}
