/**
 * The population the generator draws from: data/population/ (built by jobs/extract/population.ts, see
 * data/population/README.md). Loaded once per run; everything here is read-only after construction.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DATA_DIR } from '../paths.js';
import { AliasTable } from './alias-table.js';
import type { Random } from './random.js';

export const POPULATION_DIR = join(DATA_DIR, 'population');

/** One CE 2014 consumer-unit quarter, money in 2025 dollars. */
export interface PopulationHousehold {
  weight: number;
  age: number;
  householdMembers: number;
  isHomeowner: boolean;
  /** Two-digit state FIPS, or '' where CE suppressed it. */
  stateFips: string;
  /** CE region code 1–4, or '' where CE suppressed it too. */
  region: string;
  grossAnnualIncome: number;
  netAnnualIncome: number;
  mortgageAndRent: number;
  healthInsurance: number;
  vehicleFinanced: boolean;
}

interface ZipDraw {
  zips: string[];
  table: AliasTable;
}

interface StateDraw {
  fips: string[];
  table: AliasTable;
}

const readCsv = (dir: string, file: string) =>
  parse(readFileSync(join(dir, file)), { columns: true }) as Record<string, string>[];

const field = (row: Record<string, string>, column: string): string => {
  const value = row[column];
  if (value === undefined) throw new Error(`data/population: column ${column} is missing`);
  return value;
};

function toHousehold(row: Record<string, string>): PopulationHousehold {
  return {
    weight: Number(field(row, 'weight')),
    age: Number(field(row, 'age')),
    householdMembers: Number(field(row, 'household_members')),
    isHomeowner: field(row, 'is_homeowner') === '1',
    stateFips: field(row, 'state_fips'),
    region: field(row, 'region'),
    grossAnnualIncome: Number(field(row, 'gross_annual_income')),
    netAnnualIncome: Number(field(row, 'net_annual_income')),
    mortgageAndRent: Number(field(row, 'mortgage_and_rent')),
    healthInsurance: Number(field(row, 'health_insurance')),
    vehicleFinanced: field(row, 'vehicle_financed') === '1',
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export class Population {
  readonly households: readonly PopulationHousehold[];
  private readonly householdTable: AliasTable;
  private readonly zipsByState: Map<string, ZipDraw>;
  /** Where a record with a suppressed state lives: by CE region, and '' for the few without a region. */
  private readonly suppressedStateByRegion: Map<string, StateDraw>;

  constructor(dir: string = POPULATION_DIR) {
    this.households = readCsv(dir, 'households.csv').map(toHousehold);
    this.householdTable = new AliasTable(this.households.map((h) => h.weight));

    const zips = readCsv(dir, 'zips.csv');
    this.zipsByState = new Map(
      [...groupBy(zips, (z) => field(z, 'state_fips'))].map(([fips, rows]) => [
        fips,
        {
          zips: rows.map((z) => field(z, 'zip')),
          table: new AliasTable(rows.map((z) => Number(field(z, 'population')))),
        },
      ]),
    );

    const states = readCsv(dir, 'states.csv');
    const stateDraw = (rows: Record<string, string>[]): StateDraw => ({
      fips: rows.map((s) => field(s, 'state_fips')),
      table: new AliasTable(rows.map((s) => Number(field(s, 'suppressed_draw_weight')))),
    });
    this.suppressedStateByRegion = new Map([
      ...[...groupBy(states, (s) => field(s, 'region'))].map(
        ([region, rows]) => [region, stateDraw(rows)] as const,
      ),
      ['', stateDraw(states)],
    ]);
  }

  /** A household record, with probability proportional to its survey weight. */
  drawHousehold(random: Random): PopulationHousehold {
    return this.households[this.householdTable.draw(random)]!;
  }

  /** A ZIP of the household's state (drawn first if CE suppressed it), weighted by ZIP population. */
  drawZip(household: PopulationHousehold, random: Random): string {
    const stateFips = household.stateFips || this.drawSuppressedState(household.region, random);
    const draw = this.zipsByState.get(stateFips);
    if (!draw) throw new Error(`data/population: no ZIPs for state ${stateFips}`);
    return draw.zips[draw.table.draw(random)]!;
  }

  private drawSuppressedState(region: string, random: Random): string {
    const draw = this.suppressedStateByRegion.get(region);
    if (!draw) throw new Error(`data/population: unknown region ${region}`);
    return draw.fips[draw.table.draw(random)]!;
  }
}
