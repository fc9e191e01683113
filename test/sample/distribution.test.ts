/**
 * The generated households should look like the CE 2014 population. Targets are the published BLS 2014
 * figures for all consumer units (CE table 1300 "Age of reference person", 2014, column "All consumer
 * units"; ../shared/ce/tidy/age/reference-person-age-ranges-2014.csv): homeowner 63%, average age of the
 * reference person 50.3, 2.5 people per CU, income before taxes $66,877 (2014 dollars).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { POPULATION_DIR } from '../../src/sample/population.js';
import { parseCsv, sampleCsv } from './rows.js';

/** CPI-U all items 2025 / 2014 annual averages (321.943 / 236.736), as in jobs/extract/population.ts. */
const CPI_2014_TO_2025 = 321.943 / 236.736;

const populationTable = (file: string) =>
  parse(readFileSync(join(POPULATION_DIR, file)), { columns: true }) as Record<string, string>[];

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

describe('generated households vs the published CE 2014 population (100,000 rows)', () => {
  let rows: Record<string, string>[];
  beforeAll(() => {
    rows = parseCsv(sampleCsv({ rows: 100_000, seed: 42 }));
  });

  it('homeownership is 63% ± 3 points', () => {
    expect(Math.abs(mean(rows.map((r) => (r.is_homeowner === 'true' ? 1 : 0))) - 0.63)).toBeLessThan(0.03);
  });

  it('mean age of the reference person is 50.3 ± 1 year', () => {
    expect(Math.abs(mean(rows.map((r) => Number(r.age))) - 50.3)).toBeLessThan(1);
  });

  it('mean household size is 2.5 ± 0.1', () => {
    expect(Math.abs(mean(rows.map((r) => Number(r.household_members))) - 2.5)).toBeLessThan(0.1);
  });

  it('mean gross income is the published $66,877 in 2025 dollars, ± 5%', () => {
    const target = 66_877 * CPI_2014_TO_2025;
    expect(Math.abs(mean(rows.map((r) => Number(r.gross_annual_income))) / target - 1)).toBeLessThan(0.05);
  });

  it('take-home is below gross for most rows (refundable credits lift some low incomes above gross)', () => {
    const above = mean(
      rows.map((r) => (Number(r.net_annual_income) > Number(r.gross_annual_income) ? 1 : 0)),
    );
    expect(above).toBeGreaterThan(0.05);
    expect(above).toBeLessThan(0.2);
  });

  it('states get the weight CE gives them, plus their share of the state-suppressed records, ± 1 point', () => {
    // CE weights are calibrated nationally, not by state (CA holds 9.0% of the weight against 11.9% of the
    // people), so the target is the population table, not the Census: known-state weight plus the
    // suppressed weight of the state's region split by suppressed_draw_weight (jobs/extract/population.ts).
    const households = populationTable('households.csv');
    const states = populationTable('states.csv');
    const total = households.reduce((sum, h) => sum + Number(h.weight), 0);
    const sumBy = <T>(items: T[], key: (t: T) => string, value: (t: T) => number) => {
      const sums = new Map<string, number>();
      for (const item of items) sums.set(key(item), (sums.get(key(item)) ?? 0) + value(item));
      return sums;
    };
    const known = sumBy(
      households,
      (h) => h.state_fips ?? '',
      (h) => Number(h.weight),
    );
    const suppressedByRegion = sumBy(
      households.filter((h) => h.state_fips === ''),
      (h) => h.region ?? '',
      (h) => Number(h.weight),
    );
    const drawByRegion = sumBy(
      states,
      (s) => s.region ?? '',
      (s) => Number(s.suppressed_draw_weight),
    );
    const nationalDraw = [...drawByRegion.values()].reduce((sum, w) => sum + w, 0);
    const stateOfZip = new Map(populationTable('zips.csv').map((z) => [z.zip, z.state_fips]));
    const generated = sumBy(
      rows,
      (r) => stateOfZip.get(r.zip ?? '') ?? '',
      () => 1,
    );
    for (const s of states) {
      const fips = s.state_fips ?? '';
      const region = s.region ?? '';
      const draw = Number(s.suppressed_draw_weight);
      // Records without even a region are placed nationally, by the same draw weights.
      const suppressedShare =
        (draw / (drawByRegion.get(region) ?? 1)) * (suppressedByRegion.get(region) ?? 0) +
        (draw / nationalDraw) * (suppressedByRegion.get('') ?? 0);
      const expected = ((known.get(fips) ?? 0) + suppressedShare) / total;
      expect(Math.abs((generated.get(fips) ?? 0) / rows.length - expected), `state ${fips}`).toBeLessThan(
        0.01,
      );
    }
  });
});
