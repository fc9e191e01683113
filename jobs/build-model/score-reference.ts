/**
 * Builds data/model/score-reference.json: the weighted quantiles of the main score's index over the
 * calibration population (data/population/households.csv: the CE 2014 Interview households in 2025
 * dollars, with their survey weights), each household scored by the shipped model with no stated
 * expenses. The percentile look-up reads it (src/engine/score-reference.ts).
 * Deterministic: the same inputs give the same bytes.
 *
 *     npm run build && node dist/jobs/build-model/score-reference.js
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATEGORY_COUNT } from '../../src/contract/categories.js';
import { indicesOf, statedSpending } from '../../src/engine/index-score.js';
import {
  QUANTILE_STEPS,
  SCORE_REFERENCE_FORMAT,
  type ScoreReference,
} from '../../src/engine/score-reference.js';
import { DEFAULT_GEO_DIR, loadStateTable } from '../../src/geo/load.js';
import type { StateTable } from '../../src/geo/states.js';
import { GEO_FILES } from '../../src/geo/tables.js';
import type { CensusRegion, Geography } from '../../src/geo/types.js';
import { DEFAULT_MODEL_PATH, loadSpendingModel } from '../../src/model/load.js';
import type { SpendingModel } from '../../src/model/types.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { DEFAULT_SCORE_REFERENCE_PATH } from '../../src/runtime/load-engine.js';
import { POPULATION_DIR, Population, type PopulationHousehold } from '../../src/sample/population.js';

export const SCORE_REFERENCE_PATH = DEFAULT_SCORE_REFERENCE_PATH;
export const SCORE_REFERENCE_COMMAND = 'npm run build && node dist/jobs/build-model/score-reference.js';
const SCORE_REFERENCE_VERSION = '1.0.0';

/** CE's REGION codes 1–4. */
const CE_REGIONS: readonly CensusRegion[] = ['northeast', 'midwest', 'south', 'west'];

/**
 * A household's place as the model sees it from what CE publishes: its state's price parities (the
 * national ones where CE suppresses the state), its Census region, and no urban/rural split (CE's
 * public file has none at this level), which the model reads as the population's mix.
 */
export function householdGeography(household: PopulationHousehold, states: StateTable): Geography {
  const state = household.stateFips === '' ? undefined : states.get(household.stateFips);
  const national = states.get('US')!;
  return {
    level: state ? 'state' : 'national',
    state: state?.state ?? null,
    cbsa: null,
    region: state?.region ?? CE_REGIONS[Number(household.region) - 1] ?? null,
    urban: null,
    rpp: (state ?? national).rpp,
    rppScope: state ? 'state' : 'national',
  };
}

/**
 * Each household's main index with no stated expenses, as the engine's score arithmetic gives it; with
 * `withAge` false, as the fair-lending profile scores it (age left out; household type is never given).
 */
export function populationIndices(
  model: SpendingModel,
  households: readonly PopulationHousehold[],
  states: StateTable,
  withAge: boolean,
): Float64Array {
  const peers = new Float64Array(CATEGORY_COUNT);
  return Float64Array.from(households, (household) => {
    const netIncome = household.netAnnualIncome;
    model.predict(
      {
        net_annual_income: netIncome,
        age: withAge ? household.age : undefined,
        household_members: household.householdMembers,
        is_homeowner: household.isHomeowner,
      },
      householdGeography(household, states),
      peers,
    );
    const parts = { netIncome, stated: {}, peers };
    return indicesOf(parts, statedSpending(parts)).index;
  });
}

/**
 * The weighted quantiles at k / QUANTILE_STEPS, k = 0 … QUANTILE_STEPS: the smallest value whose
 * cumulative weight reaches that share of the total (the lowest value at 0). Ties are ordered by
 * position, so the result is deterministic.
 */
export function weightedQuantiles(values: ArrayLike<number>, weights: ArrayLike<number>): number[] {
  const order = Array.from({ length: values.length }, (_, i) => i).sort(
    (a, b) => values[a]! - values[b]! || a - b,
  );
  let total = 0;
  for (const i of order) total += weights[i]!;
  const quantiles: number[] = [];
  let cumulative = 0;
  let at = 0;
  for (let k = 0; k <= QUANTILE_STEPS; k++) {
    const target = (k / QUANTILE_STEPS) * total;
    while (at < order.length - 1 && cumulative + weights[order[at]!]! < target) {
      cumulative += weights[order[at]!]!;
      at++;
    }
    quantiles.push(values[order[at]!]!);
  }
  return quantiles;
}

export interface ReferenceInputs {
  readonly modelPath: string;
  readonly populationDir: string;
  readonly geoDir: string;
}

export const DEFAULT_REFERENCE_INPUTS: ReferenceInputs = {
  modelPath: DEFAULT_MODEL_PATH,
  populationDir: POPULATION_DIR,
  geoDir: DEFAULT_GEO_DIR,
};

const sha256 = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

/** The reference of the given model, population and geography, as the shipped file holds it. */
export async function buildScoreReference(inputs: ReferenceInputs): Promise<ScoreReference> {
  const [model, states] = await Promise.all([
    loadSpendingModel(inputs.modelPath),
    loadStateTable(inputs.geoDir),
  ]);
  const households = new Population(inputs.populationDir).households.filter((h) => h.weight > 0);
  const weights = households.map((h) => h.weight);
  const quantilesOf = (withAge: boolean) =>
    weightedQuantiles(populationIndices(model, households, states, withAge), weights);
  const files = [
    inputs.modelPath,
    join(inputs.populationDir, 'households.csv'),
    join(inputs.geoDir, GEO_FILES.states),
  ];
  const sources: Record<string, string> = {};
  for (const file of files) sources[relative(PACKAGE_ROOT, file)] = await sha256(file);
  return {
    format: SCORE_REFERENCE_FORMAT,
    version: SCORE_REFERENCE_VERSION,
    modelVersion: model.version,
    build: {
      command: SCORE_REFERENCE_COMMAND,
      sources,
      notes: [
        'Households: the CE 2014 Interview consumer-unit quarters of data/population/households.csv, money in 2025 dollars, weighted by their survey weight (FINLWT21 x months in scope / 12).',
        'Each household is scored by the model with no stated expenses: age, household size and tenure as CE records them, household type not given (marginalised), its state price parities (national where CE suppresses the state), urban/rural unknown.',
        'outlayIndex: the main score 80 + 100 x 12 x PSA / take-home, unclamped, one decimal; its weighted quantiles at 0, 0.1, ..., 100 percent.',
        'fairLendingIndex: the same with age left out too, as the fair-lending score profile computes it.',
      ],
    },
    population: {
      households: households.length,
      weight: Math.round(weights.reduce((sum, w) => sum + w, 0)),
    },
    outlayIndex: quantilesOf(true),
    fairLendingIndex: quantilesOf(false),
  };
}

/** The file's text: 2-space JSON with a final newline. */
export const serializeScoreReference = (reference: ScoreReference): string =>
  `${JSON.stringify(reference, null, 2)}\n`;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2] ?? SCORE_REFERENCE_PATH;
  await writeFile(out, serializeScoreReference(await buildScoreReference(DEFAULT_REFERENCE_INPUTS)));
  process.stdout.write(`wrote ${out}\n`);
}
