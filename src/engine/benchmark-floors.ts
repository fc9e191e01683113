/**
 * Public minimum standards under the benchmark basis: a category's benchmark is never below the published
 * US standard that covers it (docs/scores.md, "The benchmark basis"; docs/model.md, "Benchmarks against
 * public standards"). The figures are data, in data/reference/benchmark-floors.json, built from the
 * committed standards by jobs/build-model/benchmark-floors.ts; its shape is defined once here.
 */
import { CATEGORIES, CATEGORY_INDEX, SPENDING_CATEGORY_COUNT } from '../contract/categories.js';
import { LIMITS } from '../contract/limits.js';
import Type, { Compile, type Static } from '../vendor/typebox.js';

export const BENCHMARK_FLOORS_FORMAT = 'outlay-benchmark-floors/1';

export const BenchmarkFloors = Type.Object(
  {
    format: Type.Literal(BENCHMARK_FLOORS_FORMAT),
    unit: Type.String(),
    command: Type.String(),
    /** Each input file, from the package root, and its sha256. */
    sources: Type.Record(Type.String(), Type.String({ pattern: '^[0-9a-f]{64}$' })),
    floors: Type.Array(
      Type.Object(
        {
          category: Type.Enum(CATEGORIES.slice(0, SPENDING_CATEGORY_COUNT), { type: 'string' }),
          /** The standard and how its figures were brought to the model's price year. */
          standard: Type.String(),
          /** Annual dollars for 1, 2, … LIMITS.householdMax members. */
          annual: Type.Array(Type.Number({ minimum: 0 }), {
            minItems: LIMITS.householdMax,
            maxItems: LIMITS.householdMax,
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type BenchmarkFloors = Static<typeof BenchmarkFloors>;

const compiled = Compile(BenchmarkFloors);

/** Checks parsed JSON; `source` names the file in the error. */
export function parseBenchmarkFloors(json: unknown, source: string): BenchmarkFloors {
  if (!compiled.Check(json)) {
    const [first] = compiled.Errors(json);
    throw new Error(`${source} at '${first?.instancePath ?? ''}': ${first?.message ?? 'unknown error'}`);
  }
  const categories = json.floors.map((floor) => floor.category);
  const twice = categories.find((category, i) => categories.indexOf(category) !== i);
  if (twice !== undefined) throw new Error(`${source}: two floors for ${twice}`);
  return json;
}

/**
 * The floors by household size: `of(members)` gives each spending category's floor (CATEGORIES order, 0
 * where no standard covers it). A household whose size is not given is held to one member's: the smallest
 * any household's can be.
 */
export interface FloorTable {
  of(members: number | undefined): Float64Array;
}

export function floorTable(floors: BenchmarkFloors): FloorTable {
  const bySize = Array.from({ length: LIMITS.householdMax }, (_, k) => {
    const row = new Float64Array(SPENDING_CATEGORY_COUNT);
    for (const floor of floors.floors) row[CATEGORY_INDEX[floor.category]] = floor.annual[k]!;
    return row;
  });
  return { of: (members) => bySize[(members ?? 1) - 1]! };
}

const ZEROS = new Float64Array(SPENDING_CATEGORY_COUNT);

/** No floors: every benchmark is the model's own (an engine built without the shipped standards). */
export const NO_FLOORS: FloorTable = { of: () => ZEROS };
