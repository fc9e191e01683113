/**
 * The committed household extract `data/ce/fmli2014-households.csv.gz` (columns documented in
 * data/ce/README.md). Money is rounded to cents and weights to 1e-6 at this edge only.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { CATEGORIES } from '../../src/contract/categories.js';
import type { Household } from './extract-households.js';

export const HOUSEHOLD_COLUMNS = [
  'newid',
  'weight',
  'months_in_scope',
  'age',
  'household_members',
  'cutenure',
  'is_homeowner',
  'state_fips',
  'region',
  'urban',
  'popsize',
  'inc_rank',
  'fam_type',
  'gross_annual_income',
  'take_home_income',
  ...CATEGORIES,
] as const;

const cents = (x: number) => (Math.round(x * 100) / 100).toFixed(2).replace(/\.00$/, '');

export function householdsToCsv(households: readonly Household[]): string {
  const lines = [HOUSEHOLD_COLUMNS.join(',')];
  for (const h of households) {
    lines.push(
      [
        h.newid,
        (Math.round(h.weight * 1e6) / 1e6).toFixed(6),
        h.monthsInScope,
        h.age,
        h.members,
        h.cutenure,
        h.isHomeowner ? 1 : 0,
        h.stateFips,
        h.region || '',
        h.urban ? 1 : 0,
        h.popsize || '',
        h.incRank,
        h.famType,
        cents(h.grossIncome),
        cents(h.takeHome),
        ...Array.from(h.spending, cents),
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** gzip with level 9; Node's zlib writes no timestamp, so equal text gives equal bytes on one zlib build. */
export function gzipCsv(text: string): Buffer {
  return gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
}

export function householdsFromCsv(gz: Buffer): Household[] {
  const rows: Record<string, string>[] = parse(gunzipSync(gz).toString('utf8'), { columns: true });
  return rows.map((row) => ({
    newid: row.newid!,
    weight: Number(row.weight),
    monthsInScope: Number(row.months_in_scope),
    age: Number(row.age),
    members: Number(row.household_members),
    cutenure: Number(row.cutenure),
    isHomeowner: row.is_homeowner === '1',
    stateFips: row.state_fips!,
    region: Number(row.region) || 0,
    urban: row.urban === '1',
    popsize: Number(row.popsize) || 0,
    incRank: Number(row.inc_rank),
    famType: Number(row.fam_type),
    grossIncome: Number(row.gross_annual_income),
    takeHome: Number(row.take_home_income),
    spending: Float64Array.from(CATEGORIES, (c) => Number(row[c])),
  }));
}
