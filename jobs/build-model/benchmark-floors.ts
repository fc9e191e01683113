/**
 * Builds data/reference/benchmark-floors.json: the public minimum standards the score's benchmark basis
 * holds a category's benchmark to (docs/scores.md, "The benchmark basis"), by household size, in the
 * model's price year. Today one: food at home at the cost of USDA's Thrifty Food Plan, from
 * data/reference/usda-food-plans.json. The file records the sha256 of its input and its command;
 * rebuilding gives the same bytes.
 *
 *     npm run build && node dist/jobs/build-model/benchmark-floors.js [out]
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../../src/contract/limits.js';
import { BENCHMARK_FLOORS_FORMAT, type BenchmarkFloors } from '../../src/engine/benchmark-floors.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { DEFAULT_BENCHMARK_FLOORS_PATH } from '../../src/runtime/load-engine.js';
import { foodPlanAnnual, readUsdaFoodPlans, USDA_FOOD_PLANS_PATH } from './usda-food-plans.js';

export const BENCHMARK_FLOORS_COMMAND = 'npm run build && node dist/jobs/build-model/benchmark-floors.js';

const cents = (dollars: number) => Math.round(dollars * 100) / 100;

/** The floors from the committed USDA food plans. */
export function buildBenchmarkFloors(): BenchmarkFloors {
  const plans = readUsdaFoodPlans();
  const thrifty = plans.plans.find((plan) => plan.id === 'thrifty')!;
  const sizes = Array.from({ length: LIMITS.householdMax }, (_, k) => k + 1);
  const input = relative(PACKAGE_ROOT, USDA_FOOD_PLANS_PATH);
  return {
    format: BENCHMARK_FLOORS_FORMAT,
    unit: `US dollars a year, ${plans.price_level.model_year} prices (the model's price year), by household size from 1 to ${LIMITS.householdMax} members`,
    command: BENCHMARK_FLOORS_COMMAND,
    sources: { [input]: createHash('sha256').update(readFileSync(USDA_FOOD_PLANS_PATH)).digest('hex') },
    floors: [
      {
        category: 'food_home',
        standard: `USDA ${thrifty.report}: a man and a woman ${thrifty.adult_ages} (one member: their mean), then children 6-8 and 9-11 in turn, with USDA's household-size adjustment; to ${plans.price_level.model_year} dollars with ${plans.price_level.series} (${input})`,
        annual: sizes.map((members) => cents(foodPlanAnnual(plans, 'thrifty', members))),
      },
    ],
  };
}

/** The file's text: the floors as JSON, two-space indented, each size list on one line. */
export function benchmarkFloorsText(floors: BenchmarkFloors): string {
  const text = JSON.stringify(floors, null, 2);
  return `${text.replace(/\[\n\s+([0-9.,\s]+?)\n\s+\]/g, (_, list: string) => `[${list.split(/,\s+/).join(', ')}]`)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? DEFAULT_BENCHMARK_FLOORS_PATH;
  writeFileSync(out, benchmarkFloorsText(buildBenchmarkFloors()));
  process.stdout.write(`wrote ${out}\n`);
}
