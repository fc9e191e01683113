/**
 * Builds data/geo/zip_rents.tsv: each ZIP's rent level relative to the average of the area whose BEA
 * housing price parity it takes (its metro's MARPP, else its state's SARPP), from HUD Fair Market Rents.
 * The engine reads only the committed file; this job reads the raw folders named on its command line and
 * the committed ZIP placement (data/geo/zips.tsv, cbsas.tsv). Deterministic: same inputs, same bytes.
 *
 *     npm run build && node dist/jobs/extract/rents.js RAW_HUD_DIR RAW_GEO_DIR data/geo
 *
 * Method (docs/model.md, "Local prices"): a ZIP's two-bedroom rent level is its county's FMR (geometric
 * mean of FY2024–FY2026) times the ZIP's premium over its HUD area in FY2024 (HUD's ZIP-level "ERAP"
 * rents, floored at the area FMR); the index is that level over the population-weighted mean level of
 * the ZIPs of its price area, so that the area's mean index is 1 and BEA's area level is kept.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CBSA_TABLE,
  formatTable,
  GEO_FILES,
  parseTable,
  RENT_FILES,
  ZIP_RENT_TABLE,
  ZIP_TABLE,
  type ZipRentRow,
  type ZipRow,
} from '../../src/geo/tables.js';
import { field, RAW_GEO_FILES, RawFiles, type RawRecord, sha256 } from './geo.js';

const RAW_HUD_FILES = {
  county2024: 'hud_fmr_county_fy2024.csv',
  county2025: 'hud_fmr_county_fy2025_fy2026_long.csv',
  zip2024: 'hud_erap_fmr_zip_fy2024.csv',
} as const;
const RAW_POPULATION_FILE = 'simplemaps_uszips_free_2024.csv';
export const RENTS_COMMAND =
  'npm run build && node dist/jobs/extract/rents.js ../shared/hud ../shared/geo data/geo';
/** The HUD reference unit: two bedrooms (HUD's own benchmark size; every area publishes it). */
const BEDROOMS = 2;
/** Index precision: 1 % steps keep the distinct places few while moving housing by < 0.4 %. */
const INDEX_DECIMALS = 2;

export interface RentsSummary {
  readonly zips: number;
  readonly zipsWithPremium: number;
  readonly priceAreas: number;
  readonly files: readonly { readonly file: string; readonly bytes: number; readonly sha256: string }[];
}

/** "$1,117" → 1117. */
function dollars(text: string): number {
  const value = Number(text.replace(/[$,\s]/g, ''));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`rents extract: not a rent: "${text}"`);
  return value;
}

/** Population-weighted mean rent per county and fiscal year from rows keyed by a 10-digit HUD area code. */
class CountyRents {
  private readonly sums = new Map<string, Map<number, [number, number]>>();

  add(code10: string, year: number, rent: number, weight: number): void {
    const county = code10.slice(0, 5);
    const years = this.sums.get(county) ?? new Map<number, [number, number]>();
    const sum = years.get(year) ?? [0, 0];
    sum[0] += weight * rent;
    sum[1] += weight;
    years.set(year, sum);
    this.sums.set(county, years);
  }

  /** Geometric mean over the fiscal years the county has (Connecticut's FY2026 uses planning regions). */
  levels(): Map<string, number> {
    const result = new Map<string, number>();
    for (const [county, years] of this.sums) {
      const logs = [...years.values()].filter(([, w]) => w > 0).map(([s, w]) => Math.log(s / w));
      if (logs.length > 0) result.set(county, Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length));
    }
    return result;
  }
}

/** County two-bedroom FMR levels and each FY2024 county's HUD area (to pick a ZIP's area in the ZIP file). */
async function readCountyRents(
  hud: RawFiles,
): Promise<{ level: Map<string, number>; area: Map<string, string> }> {
  const rents = new CountyRents();
  const population = new Map<string, number>();
  const area = new Map<string, string>();
  for (const row of await hud.records(RAW_HUD_FILES.county2024)) {
    const code = field(row, 'fips').padStart(10, '0');
    // New England towns have no population of their own in some rows: weight 1 keeps them in.
    const weight = Number(field(row, 'pop2020')) || 1;
    population.set(code, weight);
    rents.add(code, 2024, dollars(field(row, `fmr_${BEDROOMS}`)), weight);
    const county = code.slice(0, 5);
    if (!area.has(county)) area.set(county, field(row, 'hud_area_code'));
  }
  for (const row of await hud.records(RAW_HUD_FILES.county2025)) {
    if (Number(field(row, 'bedrooms')) !== BEDROOMS) continue;
    // The leading zero of states 01–09 was lost upstream.
    const code = field(row, 'hud_fmr_area_code').padStart(10, '0');
    const weight = population.get(code);
    // Codes FY2024 does not know (Connecticut's 2026 planning regions) place no ZIP's county.
    if (weight === undefined) continue;
    rents.add(code, Number(field(row, 'year')), dollars(field(row, 'value')), weight);
  }
  return { level: rents.levels(), area };
}

/** Per ZIP, its premium over its HUD area's FMR (≥ 1: the file floors each ZIP at its area's FMR). */
async function readZipPremiums(hud: RawFiles, countyArea: Map<string, string>, zips: Map<string, ZipRow>) {
  const rows = (await hud.records(RAW_HUD_FILES.zip2024)).map((row: RawRecord) => ({
    area: field(row, 'CBSASub23'),
    // The ZIP column's header holds a line break.
    zip: field(row, 'ZIP\nCode').padStart(5, '0'),
    rent: dollars(field(row, `erap_fmr_br${BEDROOMS}`)),
  }));
  const areaFmr = new Map<string, number>();
  for (const { area, rent } of rows) areaFmr.set(area, Math.min(areaFmr.get(area) ?? rent, rent));
  const premiums = new Map<string, number>();
  const chosenArea = new Map<string, string>();
  for (const { area, zip, rent } of rows) {
    const county = zips.get(zip)?.county;
    const home = county === null || county === undefined ? undefined : countyArea.get(county);
    const previous = chosenArea.get(zip);
    // A ZIP crossing area lines is listed once per area: keep its county's area, else the lowest code.
    if (previous !== undefined && (previous === home || (area !== home && previous < area))) continue;
    chosenArea.set(zip, area);
    premiums.set(zip, rent / areaFmr.get(area)!);
  }
  return premiums;
}

async function readZipPopulation(geo: RawFiles): Promise<Map<string, number>> {
  const population = new Map<string, number>();
  for (const row of await geo.records(RAW_POPULATION_FILE)) {
    population.set(field(row, 'zip').padStart(5, '0'), Number(field(row, 'population')) || 0);
  }
  return population;
}

/**
 * The areas BEA priced: its MARPP 2023 metros on the 2020 delineation (the county file's CBSA), else the
 * state. A rent index is a ZIP's level over the mean of the area BEA's housing parity averages, so the
 * means are taken over these areas, whatever delineation places the ZIP.
 */
async function readBeaAreas(geo: RawFiles) {
  const marpp = new Set((await geo.records(RAW_GEO_FILES.marpp)).map((row) => field(row, 'GeoFIPS')));
  const cbsa2020 = new Map<string, string>();
  for (const row of await geo.records(RAW_GEO_FILES.counties)) {
    const cbsa = field(row, 'cbsa_code');
    if (marpp.has(cbsa) && cbsa !== '0') cbsa2020.set(field(row, 'fips_code_county'), cbsa);
  }
  return {
    areaOf(row: ZipRow): string {
      const metro = row.county === null ? undefined : cbsa2020.get(row.county);
      return metro === undefined ? `state ${row.state}` : `metro ${metro}`;
    },
    priced: (cbsa: string) => marpp.has(cbsa),
  };
}

/**
 * The BEA area whose mean a ZIP's rent is put over: for a ZIP priced at a metro's MARPP, that metro's
 * (for a metro recoded in 2023, the BEA metro holding most of its ZIPs' people, as its MARPP is chosen in
 * geo.ts); else its state's.
 */
function referenceAreas(
  zipRows: readonly ZipRow[],
  metrosWithRpp: ReadonlySet<string>,
  bea: Awaited<ReturnType<typeof readBeaAreas>>,
  population: ReadonlyMap<string, number>,
): (row: ZipRow) => string {
  const recoded = new Map<string, Map<string, number>>();
  for (const row of zipRows) {
    const area = bea.areaOf(row);
    if (
      row.cbsa === null ||
      !metrosWithRpp.has(row.cbsa) ||
      bea.priced(row.cbsa) ||
      !area.startsWith('metro')
    )
      continue;
    const weights = recoded.get(row.cbsa) ?? new Map<string, number>();
    weights.set(area, (weights.get(area) ?? 0) + (population.get(row.zip) ?? 0));
    recoded.set(row.cbsa, weights);
  }
  const source = new Map(
    [...recoded].map(([cbsa, weights]) => [
      cbsa,
      [...weights].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]![0],
    ]),
  );
  return (row) => {
    if (row.cbsa === null || !metrosWithRpp.has(row.cbsa)) return `state ${row.state}`;
    return source.get(row.cbsa) ?? `metro ${row.cbsa}`;
  };
}

/**
 * The areas whose mean a ZIP's rent level enters: the BEA metro it was priced in (2020 delineation), and
 * the state when it is priced at its state's SARPP now (a state's mean is over the ZIPs priced at it).
 */
function averagedIn(beaArea: string, reference: string): string[] {
  const areas = beaArea.startsWith('metro') ? [beaArea] : [];
  if (reference.startsWith('state')) areas.push(reference);
  return areas;
}

/** Per area, the population-weighted sum of levels and the weight. */
function areaSums(
  levels: readonly { row: ZipRow; level: number }[],
  areasOf: (row: ZipRow) => readonly string[],
  population: ReadonlyMap<string, number>,
): Map<string, [number, number]> {
  const sums = new Map<string, [number, number]>();
  for (const { row, level } of levels) {
    const weight = population.get(row.zip) ?? 0;
    for (const area of areasOf(row)) {
      const sum = sums.get(area) ?? [0, 0];
      sum[0] += weight * level;
      sum[1] += weight;
      sums.set(area, sum);
    }
  }
  return sums;
}

export async function extractRents(hudDir: string, geoDir: string, outDir: string): Promise<RentsSummary> {
  const hud = new RawFiles(hudDir);
  const geo = new RawFiles(geoDir);
  const zipRows = parseTable(ZIP_TABLE, await readFile(join(outDir, GEO_FILES.zips), 'utf8'), GEO_FILES.zips);
  const cbsas = parseTable(
    CBSA_TABLE,
    await readFile(join(outDir, GEO_FILES.cbsas), 'utf8'),
    GEO_FILES.cbsas,
  );
  const zips = new Map(zipRows.map((row) => [row.zip, row]));
  const metrosWithRpp = new Set(cbsas.filter((row) => row.rpp !== null).map((row) => row.cbsa));
  const counties = await readCountyRents(hud);
  const premiums = await readZipPremiums(hud, counties.area, zips);
  const population = await readZipPopulation(geo);

  const levels: { row: ZipRow; level: number }[] = [];
  for (const row of zipRows) {
    const county = row.county === null ? undefined : counties.level.get(row.county);
    if (county !== undefined) levels.push({ row, level: county * (premiums.get(row.zip) ?? 1) });
  }
  const bea = await readBeaAreas(geo);
  const reference = referenceAreas(zipRows, metrosWithRpp, bea, population);
  const sums = areaSums(levels, (row) => averagedIn(bea.areaOf(row), reference(row)), population);
  const rents: ZipRentRow[] = levels.map(({ row, level }) => {
    const [s, w] = sums.get(reference(row)) ?? [0, 0];
    return { zip: row.zip, rentIndex: w > 0 ? Number((level / (s / w)).toFixed(INDEX_DECIMALS)) : 1 };
  });

  const sources = [
    ...[...hud.hashes].map(([file, hash]) => ({ file: `hud/${file}`, ...hash })),
    ...[...geo.hashes].map(([file, hash]) => ({ file: `geo/${file}`, ...hash })),
  ].sort((a, b) => (a.file < b.file ? -1 : 1));
  const contents: [string, string][] = [
    [RENT_FILES.rents, formatTable(ZIP_RENT_TABLE, rents)],
    [
      RENT_FILES.provenance,
      `${JSON.stringify(
        {
          extractor: 'jobs/extract/rents.ts',
          command: RENTS_COMMAND,
          inputs: ['data/geo/zips.tsv', 'data/geo/cbsas.tsv'],
          sources,
        },
        null,
        2,
      )}\n`,
    ],
  ];
  await mkdir(outDir, { recursive: true });
  for (const [file, text] of contents) await writeFile(join(outDir, file), text);
  return {
    zips: rents.length,
    zipsWithPremium: levels.filter(({ row }) => (premiums.get(row.zip) ?? 1) > 1).length,
    priceAreas: sums.size,
    files: contents.map(([file, text]) => ({ file, bytes: Buffer.byteLength(text), sha256: sha256(text) })),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [hudDir, geoDir, outDir] = process.argv.slice(2);
  if (hudDir === undefined || geoDir === undefined || outDir === undefined) {
    process.stderr.write('usage: node dist/jobs/extract/rents.js RAW_HUD_DIR RAW_GEO_DIR OUT_DIR\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(`${JSON.stringify(await extractRents(hudDir, geoDir, outDir), null, 2)}\n`);
  }
}
