/** `outlay budget` with SPENDiD's grouping, through the real binary (run `npm run build` first). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { GROUPED_INPUTS_EXAMPLE, TRANSFORMER_EXAMPLE } from '../../src/contract/schemas.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'outlay.js');
const demographics = { zip: '35210', net_annual_income: 42_000, household_members: 3 };

function budget(body: object, ...options: string[]): Record<string, number> {
  const run = spawnSync(process.execPath, [BIN, 'budget', '--json', JSON.stringify(body), ...options], {
    encoding: 'utf8',
    cwd: PACKAGE_ROOT,
  });
  expect(run.status, run.stderr + run.stdout).toBe(0);
  return (JSON.parse(run.stdout) as { budget: Record<string, number> }).budget;
}

describe('outlay budget --period monthly with grouped inputs and a transformer', () => {
  it("prints each alias as the sum of its categories' monthly amounts", () => {
    const grouped = { demographics, grouped_inputs: GROUPED_INPUTS_EXAMPLE };
    const monthly = budget(grouped, '--period', 'monthly');
    const aliased = budget({ ...grouped, transformer: TRANSFORMER_EXAMPLE }, '--period', 'monthly');
    const sums: Record<string, number> = {};
    for (const c of CATEGORIES)
      sums[TRANSFORMER_EXAMPLE[c]] = (sums[TRANSFORMER_EXAMPLE[c]] ?? 0) + monthly[c]!;
    expect(aliased).toEqual(sums);
    expect(Object.values(aliased).reduce((sum, amount) => sum + amount, 0)).toBe(3_500);
  });
});
