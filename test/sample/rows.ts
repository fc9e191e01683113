/** Test helpers: generate a sample in memory and read CSV rows back into request bodies. */
import { parse } from 'csv-parse/sync';
import { FIXED_EXPENSE_COLUMNS } from '../../src/sample/columns.js';
import { type SampleOptions, sampleBatches } from '../../src/sample/generate.js';
import { Population } from '../../src/sample/population.js';
import { csvChunks } from '../../src/sample/write-csv.js';

export const population = new Population();

export const sampleCsv = (options: SampleOptions) =>
  [...csvChunks(sampleBatches(population, options))].join('');

export const parseCsv = (text: string) => parse(text, { columns: true }) as Record<string, string>[];

/** How a CSV reader is expected to type a cell: empty = not given, numbers, true/false, else text. */
function typed(cell: string): number | boolean | string | undefined {
  if (cell === '') return undefined;
  if (cell === 'true' || cell === 'false') return cell === 'true';
  return /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell;
}

const DEMOGRAPHIC_COLUMNS = [
  'age',
  'gross_annual_income',
  'household_members',
  'is_homeowner',
  'net_annual_income',
  'zip',
] as const;

const present = (row: Record<string, string>, columns: readonly string[]) =>
  Object.fromEntries(
    columns.flatMap((column) => {
      const value = typed(row[column] ?? '');
      return value === undefined ? [] : [[column, value]];
    }),
  );

/** The operation request a CSV row stands for (zip stays text: a ZIP is not a number). */
export function requestOf(row: Record<string, string>) {
  const demographics = present(row, DEMOGRAPHIC_COLUMNS);
  if (row.zip) demographics.zip = row.zip;
  const budget = present(row, FIXED_EXPENSE_COLUMNS);
  return Object.keys(budget).length > 0 ? { demographics, budget } : { demographics };
}
