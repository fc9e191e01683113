/**
 * Builds the compact population tables the sample generator draws from (data/population/, see its
 * README): a weighted table of CE 2014 Interview households with the few columns the generator needs, in
 * 2025 dollars, and ZIP/state population tables from the simplemaps ZIP file. Output is byte-for-byte
 * reproducible from the raw files, so the committed tables can be checked against ../shared.
 *
 * Usage: node dist/jobs/extract/population.js <ceDir> <geoDir> <outDir>   (e.g. ../shared/ce ../shared/geo data/population)
 */
import { createReadStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { LIMITS } from '../../src/contract/limits.js';
import { incomeScaleToPriceYear } from '../build-model/build.js';
import { SourceReader } from '../build-model/sources.js';

/** The 2014 Interview quarters: 141x holds Jan–Mar 2014 interviews, 151 the Jan–Mar 2015 ones. */
const FMLI_FILES = ['fmli141x', 'fmli142', 'fmli143', 'fmli144', 'fmli151'] as const;

/**
 * CPI-U, US city average, annual averages (/work/shared/cpi/spm_calculator_cpi_annual_2005_2025.csv,
 * BLS M13 values; 2025 is BLS's official 11-month average). All items (CUUR0000SA0) moves health
 * insurance; shelter (CUUR0000SAH1) moves rent and mortgage costs, which rose much faster. Incomes move by
 * the spending model's own income scale (incomeScaleToPriceYear): incomes rose faster than prices, and a
 * sample aged by prices alone sits 17 % below the incomes the model's take-home axis describes.
 */
const CPI_ALL_ITEMS = { 2014: 236.736, 2025: 321.943 } as const;
const CPI_SHELTER = { 2014: 270.513, 2025: 415.164 } as const;
const ALL_ITEMS_2014_TO_2025 = CPI_ALL_ITEMS[2025] / CPI_ALL_ITEMS[2014];
const SHELTER_2014_TO_2025 = CPI_SHELTER[2025] / CPI_SHELTER[2014];

/** CE CUTENURE 1–3: owned with mortgage, owned free and clear, owned with mortgage not reported. */
const OWNER_TENURES = new Set(['1', '2', '3']);

/** CE REGION codes (FMLI REGION), keyed by the Census region names used in census_regions_divisions.csv. */
const CE_REGION_CODE: Readonly<Record<string, string>> = {
  Northeast: '1',
  Midwest: '2',
  South: '3',
  West: '4',
};

type FmliRow = Record<string, string>;

interface CuQuarter {
  newid: string;
  weight: number;
  age: number;
  householdMembers: number;
  isHomeowner: boolean;
  stateFips: string;
  region: string;
  gross2014: number;
  netTakeHome2014: number;
}

interface CuFixedCosts {
  quarters: number;
  housing: number;
  healthInsurance: number;
  vehicleFinanced: boolean;
}

interface ZipPopulation {
  zip: string;
  stateFips: string;
  population: number;
}

export interface PopulationCounts {
  cuQuarters: number;
  kept: number;
  zips: number;
  states: number;
}

const num = (row: FmliRow, column: string): number => {
  const value = row[column];
  if (value === undefined) throw new Error(`FMLI column ${column} is missing`);
  return value === '' ? 0 : Number(value);
};

/** PQ + CQ: the CU's outlay over its 3-month reference period (split by calendar quarter). */
const quarterly = (row: FmliRow, summaryVariable: string): number =>
  num(row, `${summaryVariable}PQ`) + num(row, `${summaryVariable}CQ`);

/**
 * Months of the reference period that fall in calendar 2014 (BLS PUMD "months in scope" rule): an
 * interview in month m of 2014Q1 covers m−1 months of 2014, one in 2015Q1 covers 4−m.
 */
function monthsInScope(file: (typeof FMLI_FILES)[number], interviewMonth: number): number {
  if (file === 'fmli141x') return interviewMonth - 1;
  if (file === 'fmli151') return 4 - interviewMonth;
  return 3;
}

async function* readFmli(ceDir: string): AsyncGenerator<{ file: (typeof FMLI_FILES)[number]; row: FmliRow }> {
  for (const file of FMLI_FILES) {
    const rows = createReadStream(join(ceDir, 'pumd/2014/interview', `${file}.csv.gz`))
      .pipe(createGunzip())
      .pipe(parse({ columns: true }));
    for await (const row of rows as AsyncIterable<FmliRow>) yield { file, row };
  }
}

function toCuQuarter(file: (typeof FMLI_FILES)[number], row: FmliRow): CuQuarter {
  // Take-home = after-tax income minus pension & Social Security contributions (RETPEN), annualised.
  const netTakeHome2014 = num(row, 'FINATXEM') - 4 * quarterly(row, 'RETPEN');
  return {
    newid: row.NEWID ?? '',
    weight: (num(row, 'FINLWT21') * monthsInScope(file, num(row, 'QINTRVMO'))) / 12,
    age: num(row, 'AGE_REF'),
    householdMembers: num(row, 'FAM_SIZE'),
    isHomeowner: OWNER_TENURES.has(row.CUTENURE ?? ''),
    // FMLI writes STATE unpadded ("1" for Alabama); empty means suppressed.
    stateFips: row.STATE ? row.STATE.padStart(2, '0') : '',
    region: row.REGION ?? '',
    gross2014: num(row, 'FINCBTXM'),
    netTakeHome2014,
  };
}

/** NEWID = CU id followed by the interview number. */
const cuIdOf = (newid: string) => newid.slice(0, -1);

/**
 * Per-CU fixed costs averaged over all of the CU's interviews: a single quarter is lumpy (property
 * tax paid once a year, a premium skipped), the CU's average quarter ×4 is a fair annual amount.
 */
function addFixedCosts(costs: Map<string, CuFixedCosts>, row: FmliRow): void {
  const cuId = cuIdOf(row.NEWID ?? '');
  const cu = costs.get(cuId) ?? { quarters: 0, housing: 0, healthInsurance: 0, vehicleFinanced: false };
  cu.quarters += 1;
  // mortgage_and_rent as the CE defines it: mortgage interest, property taxes, rent (principal is not an expenditure).
  cu.housing += quarterly(row, 'MRTINT') + quarterly(row, 'PROPTX') + quarterly(row, 'RENDWE');
  cu.healthInsurance += quarterly(row, 'HLTHIN');
  // Paying vehicle finance charges or leasing a vehicle marks a household with a car payment.
  cu.vehicleFinanced ||= quarterly(row, 'VEHFIN') > 0 || num(row, 'VEHQL') > 0;
  costs.set(cuId, cu);
}

/**
 * Floor on take-home pay (2025 dollars a year), a product choice: below it the record is a reporting
 * artefact (income wiped out by losses or contributions), not a household a lender would score. Drops 0.5%
 * of the weight (167 records), besides the 0.4% with take-home ≤ 0.
 */
const MIN_TAKE_HOME_2025 = 1000;

/**
 * Kept: quarters with months in 2014 (January 2014 interviews cover only 2013) describing a household the
 * contract accepts (take-home above the floor, non-negative gross, household size within LIMITS) and a
 * lender could see: a housing cost above the whole take-home (one quarter's income against the CU's
 * average housing; students, dissaving retirees) is not an application, and stated as a fixed expense it
 * made rows such as take-home $2,153 with rent $54,893.
 */
function isKept(q: CuQuarter, costs: Map<string, CuFixedCosts>, incomeScale: number): boolean {
  const takeHome = q.netTakeHome2014 * incomeScale;
  return (
    q.weight > 0 &&
    takeHome >= MIN_TAKE_HOME_2025 &&
    q.gross2014 >= 0 &&
    q.householdMembers <= LIMITS.householdMax &&
    annualHousing(costs, q) * SHELTER_2014_TO_2025 <= takeHome
  );
}

/** The CU's average quarterly housing cost × 4 (2014 dollars). */
function annualHousing(costs: Map<string, CuFixedCosts>, q: CuQuarter): number {
  const cu = costs.get(cuIdOf(q.newid));
  if (cu === undefined) throw new Error(`no fixed costs for NEWID ${q.newid}`);
  return (4 * cu.housing) / cu.quarters;
}

const dollars = (amount: number) => String(Math.round(amount));

/**
 * Gross is at least take-home: CE's after-tax income adds the refundable credits (EITC, child credit) its
 * pre-tax income leaves out, so 12 % of the weight had take-home above gross; an applicant's stated income
 * before taxes counts them, and the engine flags gross below take-home as an input to check.
 */
function householdsCsv(quarters: CuQuarter[], costs: Map<string, CuFixedCosts>, incomeScale: number): string {
  const header =
    'newid,weight,age,household_members,is_homeowner,state_fips,region,gross_annual_income,net_annual_income,mortgage_and_rent,health_insurance,vehicle_financed';
  const lines = quarters.map((q) => {
    const cu = costs.get(cuIdOf(q.newid));
    if (cu === undefined) throw new Error(`no fixed costs for NEWID ${q.newid}`);
    return [
      q.newid,
      q.weight.toFixed(3),
      q.age,
      q.householdMembers,
      q.isHomeowner ? 1 : 0,
      q.stateFips,
      q.region,
      dollars(Math.max(q.gross2014, q.netTakeHome2014) * incomeScale),
      dollars(q.netTakeHome2014 * incomeScale),
      dollars(annualHousing(costs, q) * SHELTER_2014_TO_2025),
      dollars(((4 * cu.healthInsurance) / cu.quarters) * ALL_ITEMS_2014_TO_2025),
      cu.vehicleFinanced ? 1 : 0,
    ].join(',');
  });
  return `${[header, ...lines].join('\n')}\n`;
}

async function readCsv(path: string): Promise<Record<string, string>[]> {
  return parseSync(await readFile(path), { columns: true, bom: true }) as Record<string, string>[];
}

/**
 * State FIPS code of each USPS state abbreviation (50 states and DC). simplemaps has no state FIPS column,
 * so take the prefix of the ZIPs' primary county, by majority: a ZIP near a state line may have its
 * primary county in the neighbouring state (e.g. NH ZIPs with a Maine county).
 */
function stateFipsByAbbreviation(
  simplemaps: Record<string, string>[],
  states: Set<string>,
): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const r of simplemaps) {
    const abbreviation = r.stateAbbreviation ?? '';
    if (!states.has(abbreviation)) continue;
    const fips = (r.county_fips ?? '').slice(0, 2);
    const tally = votes.get(abbreviation) ?? new Map<string, number>();
    tally.set(fips, (tally.get(fips) ?? 0) + 1);
    votes.set(abbreviation, tally);
  }
  return new Map(
    [...votes.entries()].map(([abbreviation, tally]) => {
      const [fips] = [...tally.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
      return [abbreviation, fips];
    }),
  );
}

/** Populated ZIPs of the 50 states and DC (territories have no Census region and no CE sample). */
function zipPopulations(simplemaps: Record<string, string>[], fipsOf: Map<string, string>): ZipPopulation[] {
  return simplemaps
    .filter((r) => fipsOf.has(r.stateAbbreviation ?? '') && Number(r.population) > 0)
    .map((r) => ({
      zip: r.zip ?? '',
      stateFips: fipsOf.get(r.stateAbbreviation ?? '') ?? '',
      population: Number(r.population),
    }))
    .sort((a, b) => a.zip.localeCompare(b.zip));
}

/**
 * CE suppresses STATE for ~15% of the weight, and some states (e.g. North Carolina) never appear at all,
 * so a suppressed record most likely lives where the published states fall short of their population.
 * A state's draw weight for suppressed records is that shortfall: its population share of the total CE
 * weight minus the weight the CE already places there (floored at 0).
 */
function suppressedDrawWeights(
  states: { fips: string; population: number }[],
  quarters: CuQuarter[],
): Map<string, number> {
  const totalWeight = quarters.reduce((sum, q) => sum + q.weight, 0);
  const totalPopulation = states.reduce((sum, s) => sum + s.population, 0);
  const known = new Map<string, number>();
  for (const q of quarters)
    if (q.stateFips !== '') known.set(q.stateFips, (known.get(q.stateFips) ?? 0) + q.weight);
  return new Map(
    states.map((s) => [
      s.fips,
      Math.max(0, (s.population / totalPopulation) * totalWeight - (known.get(s.fips) ?? 0)),
    ]),
  );
}

function statesCsv(
  zips: ZipPopulation[],
  fipsOf: Map<string, string>,
  regionOfState: Map<string, string>,
  quarters: CuQuarter[],
): string {
  const population = new Map<string, number>();
  for (const z of zips) population.set(z.stateFips, (population.get(z.stateFips) ?? 0) + z.population);
  const states = [...fipsOf.entries()]
    .map(([abbreviation, fips]) => ({ abbreviation, fips, population: population.get(fips) ?? 0 }))
    .sort((a, b) => a.fips.localeCompare(b.fips));
  const drawWeight = suppressedDrawWeights(states, quarters);
  const lines = states.map((s) =>
    [
      s.fips,
      s.abbreviation,
      regionOfState.get(s.abbreviation),
      s.population,
      dollars(drawWeight.get(s.fips) ?? 0),
    ].join(','),
  );
  return `${['state_fips,state,region,population,suppressed_draw_weight', ...lines].join('\n')}\n`;
}

/** Reads the raw CE and geography files and writes households.csv, states.csv and zips.csv to outDir. */
export async function extractPopulation(
  ceDir: string,
  geoDir: string,
  outDir: string,
): Promise<PopulationCounts> {
  const quarters: CuQuarter[] = [];
  const costs = new Map<string, CuFixedCosts>();
  for await (const { file, row } of readFmli(ceDir)) {
    quarters.push(toCuQuarter(file, row));
    addFixedCosts(costs, row);
  }
  const incomeScale = incomeScaleToPriceYear(
    new SourceReader(dirname(ceDir)),
    ceDir,
    join(dirname(ceDir), 'cpi'),
  );
  const kept = quarters
    .filter((q) => isKept(q, costs, incomeScale))
    .sort((a, b) => a.newid.localeCompare(b.newid));

  const regions = await readCsv(join(geoDir, 'census_regions_divisions.csv'));
  const regionOfState = new Map(
    regions.map((r) => [r['State Code'] ?? '', CE_REGION_CODE[r.Region ?? ''] ?? '']),
  );
  const simplemaps = await readCsv(join(geoDir, 'simplemaps_uszips_free_2024.csv'));
  const fipsOf = stateFipsByAbbreviation(simplemaps, new Set(regionOfState.keys()));
  const zips = zipPopulations(simplemaps, fipsOf);

  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'households.csv'), householdsCsv(kept, costs, incomeScale));
  await writeFile(join(outDir, 'states.csv'), statesCsv(zips, fipsOf, regionOfState, kept));
  await writeFile(
    join(outDir, 'zips.csv'),
    `${['zip,state_fips,population', ...zips.map((z) => `${z.zip},${z.stateFips},${z.population}`)].join('\n')}\n`,
  );
  const states = new Set(zips.map((z) => z.stateFips)).size;
  return { cuQuarters: quarters.length, kept: kept.length, zips: zips.length, states };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [ceDir, geoDir, outDir] = process.argv.slice(2);
  if (ceDir === undefined || geoDir === undefined || outDir === undefined) {
    process.stderr.write('usage: population.js <ceDir> <geoDir> <outDir>\n');
    process.exitCode = 1;
  } else {
    const counts = await extractPopulation(ceDir, geoDir, outDir);
    process.stdout.write(`${JSON.stringify(counts)}\n`);
  }
}
