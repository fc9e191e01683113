/**
 * Test helper: the rows of `outlay sample --rows N` (default seed 1), each with its request, the parts the
 * explanations read (stated amounts and the shipped model's peer amounts) and the engine's own score.
 */
import { CATEGORY_COUNT, SPENDING_CATEGORY_COUNT } from '../../src/contract/categories.js';
import type { OperationRequest } from '../../src/contract/schemas.js';
import { type PeerBenchmarks, rangeBenchmarks } from '../../src/engine/benchmark.js';
import type { FloorTable } from '../../src/engine/benchmark-floors.js';
import { createEngine } from '../../src/engine/create-engine.js';
import type { ScoreParts } from '../../src/engine/index-score.js';
import type { LocalEngine } from '../../src/engine/types.js';
import { loadGeoResolver } from '../../src/geo/load.js';
import type { GeoResolver } from '../../src/geo/types.js';
import { RANGE_PERCENTILES } from '../../src/model/artifact.js';
import { loadSpendingModel } from '../../src/model/load.js';
import type { SpendingModel } from '../../src/model/types.js';
import { loadBenchmarkFloors } from '../../src/runtime/load-engine.js';
import { parseCsv, requestOf, sampleCsv } from '../sample/rows.js';

export interface ShippedParts {
  readonly model: SpendingModel;
  readonly geo: GeoResolver;
  /** The shipped public standards under the benchmark basis. */
  readonly floors: FloorTable;
  readonly engine: LocalEngine;
}

export async function shippedParts(): Promise<ShippedParts> {
  const [model, geo, floors] = await Promise.all([
    loadSpendingModel(),
    loadGeoResolver(),
    loadBenchmarkFloors(),
  ]);
  return { model, geo, floors, engine: createEngine({ model, geo, floors }) };
}

/** The explanations' view of a request: its stated amounts and the model's amounts for its profile. */
export function partsOf({ model, geo }: ShippedParts, request: OperationRequest): ScoreParts {
  const peers = new Float64Array(CATEGORY_COUNT);
  model.predict(request.demographics, geo.resolve(request.demographics.zip.slice(0, 5)), peers);
  const rentFree = request.options?.rent_free === true;
  const stated = rentFree ? { ...request.budget, mortgage_and_rent: 0 } : (request.budget ?? {});
  return { netIncome: request.demographics.net_annual_income, stated, peers, rentFree };
}

/**
 * The shipped model's percentiles of peers' spending for a request, and its public floors, as the engine's
 * flags and basis read them.
 */
export function benchmarksOf(shipped: ShippedParts, request: OperationRequest): PeerBenchmarks {
  const ranges = new Float64Array(SPENDING_CATEGORY_COUNT * RANGE_PERCENTILES.length);
  shipped.model.ranges(request.demographics, partsOf(shipped, request).peers, ranges);
  const floors = shipped.floors.of(request.demographics.household_members);
  return rangeBenchmarks(ranges, () => floors);
}

export interface ScoredRow {
  readonly request: OperationRequest;
  readonly parts: ScoreParts;
  readonly benchmarks: PeerBenchmarks;
  /** The engine's PSA, main score and SAViNGS score, as numbers. */
  readonly engineScore: readonly [number, number, number];
}

/** The `rows` clean rows of `outlay sample --rows <rows> --seed <seed>`, scored. */
export function scoredSample(shipped: ShippedParts, rows: number, seed = 1): ScoredRow[] {
  return parseCsv(sampleCsv({ rows, seed })).map((row) => {
    const request = requestOf(row) as OperationRequest;
    const figures = shipped.engine.householdFigures(request);
    if (!figures.ok) throw new Error(`sample row rejected: ${JSON.stringify(row)}`);
    const [psa, score, savingsScore] = figures.value.scoreValues;
    return {
      request,
      parts: partsOf(shipped, request),
      benchmarks: benchmarksOf(shipped, request),
      engineScore: [psa!, score!, savingsScore!],
    };
  });
}
