/**
 * Builds data/take-home/ce-take-home.json, the relation between income before and after taxes that the
 * CE survey's own households show, which estimates an applicant's take-home pay from gross income and
 * household size when a row or request gives gross income alone (src/engine/take-home.ts; docs/model.md,
 * "Take-home pay estimated from gross income"). Reads data/population/households.csv (CE 2014 Interview,
 * 2025 dollars; its README): per household-size group (1, 2, 3, 4 or more, and all households for a size
 * not given), the households sorted by gross
 * income are cut into KNOTS groups of equal survey weight, and each gives one knot, the weighted median of
 * its gross and of its take-home. Deterministic: the same file gives the same bytes.
 *
 * Usage: node dist/jobs/extract/take-home.js data/population/households.csv data/take-home
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { TAKE_HOME_SIZE_GROUPS, type TakeHomeTable } from '../../src/engine/take-home.js';

/** Knots per household-size group: each holds about 1/12 of the group's weight (over 500 households). */
const KNOTS = 12;

interface Household {
  readonly gross: number;
  readonly net: number;
  readonly weight: number;
}

/** The weighted median: the first value, in sorted order, at which the cumulative weight reaches half. */
function weightedMedian(values: readonly { value: number; weight: number }[]): number {
  const sorted = [...values].sort((a, b) => a.value - b.value);
  const half = sorted.reduce((total, { weight }) => total + weight, 0) / 2;
  let cumulative = 0;
  for (const { value, weight } of sorted) {
    cumulative += weight;
    if (cumulative >= half) return value;
  }
  throw new Error('take-home: weighted median of no values');
}

/** The knots of one size group: [gross, take-home] weighted medians of KNOTS equal-weight groups. */
function knotsOf(households: Household[]): [number, number][] {
  const sorted = [...households].sort((a, b) => a.gross - b.gross || a.net - b.net);
  const total = sorted.reduce((sum, { weight }) => sum + weight, 0);
  const groups: Household[][] = [[]];
  let cumulative = 0;
  for (const household of sorted) {
    groups.at(-1)!.push(household);
    cumulative += household.weight;
    if (cumulative >= (total * groups.length) / KNOTS && groups.length < KNOTS) groups.push([]);
  }
  return groups
    .filter((group) => group.length > 0)
    .map((group) => [
      weightedMedian(group.map(({ gross, weight }) => ({ value: gross, weight }))),
      weightedMedian(group.map(({ net, weight }) => ({ value: net, weight }))),
    ]);
}

const sizeGroupOf = (members: number) => Math.min(members, TAKE_HOME_SIZE_GROUPS) - 1;

export async function buildTakeHomeTable(householdsCsv: string): Promise<TakeHomeTable> {
  const bytes = await readFile(householdsCsv);
  const rows = parse(bytes, { columns: true }) as Record<string, string>[];
  // The size groups, then every household: the relation for a household whose size is not given.
  const groups: Household[][] = Array.from({ length: TAKE_HOME_SIZE_GROUPS + 1 }, () => []);
  for (const row of rows) {
    const household = {
      gross: Number(row.gross_annual_income),
      net: Number(row.net_annual_income),
      weight: Number(row.weight),
    };
    groups[sizeGroupOf(Number(row.household_members))]!.push(household);
    groups[TAKE_HOME_SIZE_GROUPS]!.push(household);
  }
  for (const knots of groups.map(knotsOf))
    for (let k = 1; k < knots.length; k++)
      if (!(knots[k]![0] > knots[k - 1]![0] && knots[k]![1] >= knots[k - 1]![1]))
        throw new Error(
          'take-home: knots must rise with gross income (they would not keep take-home monotone)',
        );
  return {
    source: {
      file: 'data/population/households.csv',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      description:
        'CE 2014 Interview consumer-unit quarters in 2025 dollars: gross_annual_income = max(FINCBTXM, take-home), net_annual_income = FINATXEM less pension and Social Security contributions (data/population/README.md)',
      command:
        'npm run build && node dist/jobs/extract/take-home.js data/population/households.csv data/take-home',
    },
    method: `per household size group (1, 2, 3, ${TAKE_HOME_SIZE_GROUPS} or more members, then all households for a size not given), households sorted by gross income in ${KNOTS} groups of equal survey weight; each knot is the weighted median gross and the weighted median take-home of its group`,
    knots: groups.map(knotsOf),
  };
}

async function main(): Promise<void> {
  const [householdsCsv, outDir] = process.argv.slice(2);
  if (householdsCsv === undefined || outDir === undefined)
    throw new Error('usage: node dist/jobs/extract/take-home.js <households.csv> <outDir>');
  const table = await buildTakeHomeTable(householdsCsv);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'ce-take-home.json'), `${JSON.stringify(table, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
