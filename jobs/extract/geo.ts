/**
 * Builds the geography extract (data/geo/) from the raw public files in /work/shared/geo (layout and
 * pitfalls: data/geo/README.md). Output is deterministic: sorted rows, no timestamps, numbers written
 * exactly as BEA published them, so re-running on the same raw files gives byte-identical files.
 *
 * Standalone: `npx tsc -p tsconfig.build.json && node dist/jobs/extract/geo.js RAW_GEO_DIR OUT_DIR`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import {
  CBSA_TABLE,
  type CbsaKind,
  type CbsaRow,
  formatTable,
  GEO_FILES,
  NATIONAL,
  type PrefixStateRow,
  STATE_TABLE,
  type StateRow,
  ZIP_TABLE,
  ZIP3_STATE_TABLE,
  ZIP5_STATE_TABLE,
  type ZipRow,
  type ZipSource,
} from '../../src/geo/tables.js';
import type { CensusRegion, PriceParities } from '../../src/geo/types.js';

export const RAW_GEO_FILES = {
  hud: 'hud_zip_county_2023q1.csv',
  ruca: 'usda_ruca2020_zipcode.csv',
  geonames: 'geonames_us_postal_codes.tsv',
  simplemaps: 'simplemaps_uszips_free_2024.csv',
  zcta: 'census_zcta5_county_rel_2020.csv',
  counties: 'county_cbsa2020_nchs2013.csv',
  cbsas: 'cbsa_2020.psv',
  delineation: 'census_cbsa_delineation_2023_list1.csv',
  marpp: 'bea_marpp_msa_2023.csv',
  sarpp: 'bea_sarpp_state_2008_2023.csv',
  regions: 'census_regions_divisions.csv',
  zip3States: 'zip3_prefix_state_zipstate_cc0.csv',
  zip5States: 'zip5_state_exceptions_zipstate_cc0.csv',
} as const;

export interface ExtractSummary {
  readonly outDir: string;
  /** Every file written, with its size and sha256. */
  readonly files: readonly { readonly file: string; readonly bytes: number; readonly sha256: string }[];
  readonly zips: number;
  readonly zipsBySource: Readonly<Record<ZipSource, number>>;
  readonly zipsWithoutCounty: number;
  readonly zipsInCbsa: number;
  /** ZIPs whose urban flag comes from the county's NCHS class because RUCA does not list them. */
  readonly urbanFromCounty: number;
  readonly states: number;
  readonly cbsas: number;
  readonly metrosWithRpp: number;
}

export type RawRecord = Record<string, string>;

/** Reads the raw files and remembers their hashes for provenance.json. */
export class RawFiles {
  readonly hashes = new Map<string, { sha256: string; bytes: number }>();
  constructor(private readonly dir: string) {}

  async text(file: string, encoding: BufferEncoding = 'utf8'): Promise<string> {
    const bytes = await readFile(join(this.dir, file));
    this.hashes.set(file, { sha256: sha256(bytes), bytes: bytes.length });
    return bytes.toString(encoding);
  }

  /** Delimited text with a header row; header names trimmed (the county file has " county_population "). */
  async records(
    file: string,
    options: { delimiter?: string; encoding?: BufferEncoding } = {},
  ): Promise<RawRecord[]> {
    return parse(await this.text(file, options.encoding), {
      bom: true,
      delimiter: options.delimiter ?? ',',
      columns: (header: string[]) => header.map((name) => name.trim()),
      // SARPP quotes its GeoFIPS after a space (` "01000"`) and ends with one-cell footnote lines.
      ltrim: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as RawRecord[];
  }
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export function field(record: RawRecord, name: string): string {
  const value = record[name];
  if (value === undefined) throw new Error(`geo extract: raw record has no column "${name}"`);
  return value.trim();
}

// BEA renumbered the RPP LineCodes between vintages, so components are matched on their Description.
const RPP_DESCRIPTIONS: Readonly<Record<string, keyof PriceParities>> = {
  'RPPs: All items': 'all',
  'RPPs: Goods': 'goods',
  'RPPs: Services: Housing': 'housing',
  'RPPs: Services: Utilities': 'utilities',
  'RPPs: Services: Other': 'other',
};

/** Collects the five RPP components per BEA GeoFIPS from rows of a BEA table. */
function collectRpps(rows: RawRecord[], valueColumn: string): Map<string, PriceParities> {
  const partial = new Map<string, Partial<Record<keyof PriceParities, number>>>();
  for (const row of rows) {
    const component = RPP_DESCRIPTIONS[field(row, 'Description')];
    if (component === undefined) continue;
    const geo = field(row, 'GeoFIPS');
    const value = Number(field(row, valueColumn));
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`geo extract: RPP ${geo} ${component} = ${value}`);
    partial.set(geo, { ...partial.get(geo), [component]: value });
  }
  const complete = new Map<string, PriceParities>();
  for (const [geo, parts] of partial) {
    const { all, goods, housing, utilities, other } = parts;
    if (
      all === undefined ||
      goods === undefined ||
      housing === undefined ||
      utilities === undefined ||
      other === undefined
    ) {
      throw new Error(`geo extract: incomplete RPP components for GeoFIPS ${geo}`);
    }
    complete.set(geo, { all, goods, housing, utilities, other });
  }
  return complete;
}

/** BEA indexes RPPs so that US all items = 100; anything else means a different base or a misread file. */
function nationalRpp(rpps: Map<string, PriceParities>, usGeoFips: string, file: string): PriceParities {
  const us = rpps.get(usGeoFips);
  if (us?.all !== 100)
    throw new Error(`geo extract: ${file} has no US all-items RPP of 100 (GeoFIPS ${usGeoFips})`);
  return us;
}

async function readStates(raw: RawFiles): Promise<StateRow[]> {
  // The file ends with one-cell footnote lines (no Description): they are not data.
  const sarpp = (await raw.records(RAW_GEO_FILES.sarpp, { encoding: 'latin1' })).filter(
    (row) => row.Description !== undefined,
  );
  const rpps = collectRpps(sarpp, '2023');
  const fipsByName = new Map(sarpp.map((row) => [field(row, 'GeoName'), field(row, 'GeoFIPS').slice(0, 2)]));
  const regions = await raw.records(RAW_GEO_FILES.regions);
  const states = regions.map((row): StateRow => {
    const name = field(row, 'State');
    const fips = fipsByName.get(name);
    const rpp = fips === undefined ? undefined : rpps.get(`${fips}000`);
    if (fips === undefined || rpp === undefined) throw new Error(`geo extract: no SARPP 2023 for ${name}`);
    return {
      fips,
      state: field(row, 'State Code'),
      name,
      region: field(row, 'Region').toLowerCase() as CensusRegion,
      division: field(row, 'Division'),
      rpp,
    };
  });
  const nation: StateRow = {
    ...NATIONAL,
    name: 'United States',
    region: null,
    division: null,
    rpp: nationalRpp(rpps, `${NATIONAL.fips}000`, RAW_GEO_FILES.sarpp),
  };
  return [nation, ...states].sort((a, b) => compare(a.fips, b.fips));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A CBSA as a delineation file lists it, before its population and price parities are attached. */
interface Delineated {
  readonly cbsa: string;
  readonly kind: CbsaKind;
  readonly title: string;
}

/**
 * The July 2023 delineation (OMB Bulletin 23-01), county → CBSA. Connecticut's rows name its planning
 * regions, which no ZIP file uses: its old counties keep their 2020 CBSA (`cbsaOfCounty`).
 */
async function readDelineation(raw: RawFiles): Promise<Map<string, Delineated>> {
  const byCounty = new Map<string, Delineated>();
  for (const row of await raw.records(RAW_GEO_FILES.delineation)) {
    const county = `${field(row, 'FIPS State Code')}${field(row, 'FIPS County Code')}`;
    const area = field(row, 'Metropolitan/Micropolitan Statistical Area');
    const kind = area === 'Metropolitan Statistical Area' ? 'metro' : 'micro';
    if (kind === 'micro' && area !== 'Micropolitan Statistical Area')
      throw new Error(`geo extract: county ${county} in an area of unknown kind "${area}"`);
    byCounty.set(county, { cbsa: field(row, 'CBSA Code'), kind, title: field(row, 'CBSA Title') });
  }
  return byCounty;
}

/** The 2020 CBSA list (title, kind, 2012 population by code), for Connecticut's CBSAs and populations. */
async function read2020Cbsas(
  raw: RawFiles,
): Promise<Map<string, Delineated & { population: number | null }>> {
  const rows = await raw.records(RAW_GEO_FILES.cbsas, { delimiter: '|' });
  return new Map(
    rows.map((row) => {
      const cbsa = field(row, 'cbsa_code');
      const kind: CbsaKind = field(row, 'metro_micro_indicator') === '1' ? 'metro' : 'micro';
      return [
        cbsa,
        {
          cbsa,
          kind,
          title: field(row, 'cbsa_title'),
          population: positiveOrNull(field(row, 'cbsa_population'), cbsa),
        },
      ];
    }),
  );
}

function positiveOrNull(cell: string, what: string): number | null {
  const value = cell === '' ? null : Number(cell);
  if (value !== null && !(Number.isInteger(value) && value > 0))
    throw new Error(`geo extract: ${what} population "${cell}"`);
  return value;
}

/** The CBSA of a county: its 2023 area, else (Connecticut's old counties only) its 2020 one. */
function cbsaOfCounty(county: string, counties: Map<string, County>, delineation: Map<string, Delineated>) {
  const delineated = delineation.get(county);
  if (delineated !== undefined) return delineated.cbsa;
  return county.startsWith(CONNECTICUT_FIPS) ? (counties.get(county)?.cbsa2020 ?? null) : null;
}

const CONNECTICUT_FIPS = '09';

/**
 * A 2023 metro's MARPP: BEA's for its code; for a metro recoded in 2023 (Cleveland 17460 → 17410,
 * Poughkeepsie 39100 → 28880, The Villages 45540 → 48680, Lexington Park 15680 → 30500), that of the 2020
 * metro holding most of its members' 2012 population, so that a new code does not lose its prices.
 */
function metroRpp(
  cbsa: string,
  members: readonly string[],
  counties: Map<string, County>,
  rpps: Map<string, PriceParities>,
): PriceParities | null {
  const own = rpps.get(cbsa);
  if (own !== undefined) return own;
  const populationBy2020 = new Map<string, number>();
  for (const county of members) {
    const { cbsa2020, population } = counties.get(county) ?? {};
    if (cbsa2020 && population && rpps.has(cbsa2020))
      populationBy2020.set(cbsa2020, (populationBy2020.get(cbsa2020) ?? 0) + population);
  }
  const [largest] = [...populationBy2020].sort(([a, x], [b, y]) => y - x || compare(a, b));
  return largest === undefined ? null : rpps.get(largest[0])!;
}

/**
 * Every CBSA a ZIP can be in: the 2023 areas, plus the 2020 areas Connecticut's counties still point to.
 * Population: the sum of the member counties' 2012 populations (the county file's), the measure the
 * metro-size class keys on, so an area that gained counties in 2023 grows; where a member has none (Puerto
 * Rico, Connecticut's planning regions) the 2020 list's 2012 figure for the code, else none. Price
 * parities: BEA's MARPP 2023 of the same code (published on the 2020 delineation) for a 2023 metro.
 */
async function readCbsas(
  raw: RawFiles,
  counties: Map<string, County>,
  delineation: Map<string, Delineated>,
): Promise<CbsaRow[]> {
  const rpps = collectRpps(await raw.records(RAW_GEO_FILES.marpp), 'RPP 2023');
  nationalRpp(rpps, '0', RAW_GEO_FILES.marpp);
  const listed2020 = await read2020Cbsas(raw);
  const areas = new Map<string, Delineated>([...delineation.values()].map((area) => [area.cbsa, area]));
  for (const [county, info] of counties) {
    const old = info.cbsa2020 === null ? undefined : listed2020.get(info.cbsa2020);
    if (county.startsWith(CONNECTICUT_FIPS) && old !== undefined && !areas.has(old.cbsa))
      areas.set(old.cbsa, old);
  }
  const members = new Map<string, string[]>();
  for (const [county, area] of delineation)
    members.set(area.cbsa, [...(members.get(area.cbsa) ?? []), county]);
  return [...areas.values()]
    .map((area): CbsaRow => {
      const populations = (members.get(area.cbsa) ?? []).map(
        (county) => counties.get(county)?.population ?? null,
      );
      const summed = populations.length > 0 && populations.every((p) => p !== null);
      return {
        ...area,
        population: summed
          ? populations.reduce((a, b) => a! + b!, 0)
          : (listed2020.get(area.cbsa)?.population ?? null),
        rpp: area.kind === 'metro' ? metroRpp(area.cbsa, members.get(area.cbsa) ?? [], counties, rpps) : null,
      };
    })
    .sort((a, b) => compare(a.cbsa, b.cbsa));
}

interface County {
  /** The county's CBSA in the 2020 delineation (the county file's), used only for Connecticut. */
  readonly cbsa2020: string | null;
  /** Resident population, 2012 (the county file's), null where it gives none (Puerto Rico). */
  readonly population: number | null;
  /** NCHS 2013 urban-rural class: 1 large central metro … 4 small metro, 5 micropolitan, 6 non-core. */
  readonly nchs: number | null;
}

const NCHS_LAST_METRO_CLASS = 4;
/** USDA ERS: primary RUCA codes 1–3 are metropolitan commuting areas. */
const RUCA_LAST_METRO_CODE = 3;

async function readCounties(raw: RawFiles): Promise<Map<string, County>> {
  const counties = new Map<string, County>();
  for (const row of await raw.records(RAW_GEO_FILES.counties)) {
    const cbsa = field(row, 'cbsa_code');
    const nchs = field(row, 'nchs_urban_rural_class');
    const county = field(row, 'fips_code_county');
    counties.set(county, {
      // Outside any CBSA the file says 0 or nothing; 0 must not become a code (it is the US in BEA tables).
      cbsa2020: cbsa === '' || cbsa === '0' ? null : cbsa,
      population: positiveOrNull(field(row, 'county_population'), `county ${county}`),
      nchs: nchs === '' ? null : Number(nchs),
    });
  }
  return counties;
}

/** HUD county code for an address that could not be placed in a county. */
const HUD_UNKNOWN_COUNTY = '99999';

interface Placement {
  readonly state: string;
  readonly county: string | null;
}

interface HudRow extends Placement {
  readonly res: number;
  readonly tot: number;
}

/** HUD ZIP → county: the state USPS files the ZIP under and the county with most residential addresses. */
async function readHud(raw: RawFiles): Promise<Map<string, Placement>> {
  const best = new Map<string, HudRow>();
  for (const row of await raw.records(RAW_GEO_FILES.hud)) {
    const zip = field(row, 'ZIP');
    const county = field(row, 'COUNTY');
    const candidate = {
      state: field(row, 'USPS_ZIP_PREF_STATE'),
      county: county === HUD_UNKNOWN_COUNTY ? null : county,
      res: Number(field(row, 'RES_RATIO')),
      tot: Number(field(row, 'TOT_RATIO')),
    };
    const current = best.get(zip);
    if (current === undefined || placesMoreAddresses(candidate, current)) best.set(zip, candidate);
  }
  return new Map([...best].map(([zip, { state, county }]) => [zip, { state, county }]));
}

/** Known county first, then residential share, then all addresses (business-only ZIPs), then lowest code. */
function placesMoreAddresses(a: HudRow, b: HudRow): boolean {
  if ((a.county === null) !== (b.county === null)) return a.county !== null;
  if (a.res !== b.res) return a.res > b.res;
  if (a.tot !== b.tot) return a.tot > b.tot;
  return compare(a.county ?? '', b.county ?? '') < 0;
}

async function readRuca(raw: RawFiles): Promise<Map<string, { state: string; ruca: number }>> {
  const rows = await raw.records(RAW_GEO_FILES.ruca);
  return new Map(
    rows.map((row) => [
      field(row, 'ZIPCode'),
      { state: field(row, 'State'), ruca: Number(field(row, 'PrimaryRUCA')) },
    ]),
  );
}

/** GeoNames (no header): country, zip, place, state name, state abbr, county name, 3-digit county FIPS, … */
async function readGeonames(raw: RawFiles, stateFips: Map<string, string>): Promise<Map<string, Placement>> {
  const placements = new Map<string, Placement>();
  for (const line of (await raw.text(RAW_GEO_FILES.geonames)).split('\n')) {
    const [, zip, , , state, , county] = line.split('\t');
    // Military APO/FPO ZIPs have no state here; the prefix table places them (AA/AE/AP).
    if (zip === undefined || state === undefined || state === '') continue;
    const fips = stateFips.get(state);
    placements.set(zip, { state, county: fips !== undefined && county ? `${fips}${county}` : null });
  }
  return placements;
}

async function readSimplemaps(raw: RawFiles): Promise<Map<string, Placement>> {
  const rows = await raw.records(RAW_GEO_FILES.simplemaps);
  return new Map(
    rows.map((row) => [
      field(row, 'zip'),
      // county_fips is simplemaps' primary county, the one with the largest population weight.
      { state: field(row, 'stateAbbreviation'), county: field(row, 'county_fips') || null },
    ]),
  );
}

/** Census ZCTA → county with the largest land area, for ZIPs no population-weighted source places. */
async function readZctaPrimaryCounty(raw: RawFiles): Promise<Map<string, string>> {
  const rows = await raw.records(RAW_GEO_FILES.zcta);
  return new Map(
    rows
      .filter((row) => field(row, 'is_primary') === '1')
      .map((row) => [field(row, 'zcta5'), field(row, 'fips_code_county')]),
  );
}

async function readPrefixStates(
  raw: RawFiles,
  file: string,
  prefixColumn: string,
): Promise<PrefixStateRow[]> {
  return (await raw.records(file))
    .map((row) => ({ prefix: field(row, prefixColumn), state: field(row, 'state') }))
    .filter((row) => row.state !== '') // unassigned prefixes
    .sort((a, b) => compare(a.prefix, b.prefix));
}

interface ZipSources {
  readonly hud: Map<string, Placement>;
  readonly ruca: Map<string, { state: string; ruca: number }>;
  readonly geonames: Map<string, Placement>;
  readonly simplemaps: Map<string, Placement>;
  readonly zctaCounty: Map<string, string>;
  readonly counties: Map<string, County>;
  readonly delineation: Map<string, Delineated>;
  /** FIPS by USPS code, states and DC only: BEA and the region file cover no territory. */
  readonly stateFips: Map<string, string>;
  readonly assignedPrefixes: Set<string>;
}

function buildZipRow(zip: string, sources: ZipSources): ZipRow {
  const { hud, ruca, geonames, simplemaps, zctaCounty, counties, delineation, stateFips } = sources;
  const hudPlacement = hud.get(zip);
  const rucaEntry = ruca.get(zip);
  const [source, state] = hudPlacement
    ? (['hud', hudPlacement.state] as const)
    : rucaEntry
      ? (['ruca', rucaEntry.state] as const)
      : geonames.has(zip)
        ? (['geonames', geonames.get(zip)!.state] as const)
        : (['simplemaps', simplemaps.get(zip)!.state] as const);
  // Outside HUD, take the first county that lies in the chosen state (by FIPS prefix: the county file's
  // state column labels the Virgin Islands PR) and that the county→CBSA file knows (simplemaps uses CT's
  // 2022 planning regions): population-weighted (simplemaps), then largest land area (ZCTA), then GeoNames.
  const fips = stateFips.get(state);
  const county =
    hudPlacement?.county ??
    [simplemaps.get(zip)?.county, zctaCounty.get(zip), geonames.get(zip)?.county].find(
      (candidate) => fips !== undefined && candidate?.startsWith(fips) && counties.has(candidate),
    ) ??
    null;
  const countyInfo = county === null ? undefined : counties.get(county);
  if (county !== null && countyInfo === undefined)
    throw new Error(`geo extract: ZIP ${zip} county ${county} unknown`);
  const rucaCode = rucaEntry?.ruca ?? null;
  const urban =
    rucaCode !== null
      ? rucaCode <= RUCA_LAST_METRO_CODE
      : countyInfo?.nchs != null
        ? countyInfo.nchs <= NCHS_LAST_METRO_CLASS
        : null;
  const cbsa = county === null ? null : cbsaOfCounty(county, counties, delineation);
  return { zip, state, county, cbsa, ruca: rucaCode, urban, source };
}

function buildZipRows(sources: ZipSources): ZipRow[] {
  const zips = new Set([
    ...sources.hud.keys(),
    ...sources.ruca.keys(),
    ...sources.geonames.keys(),
    ...sources.simplemaps.keys(),
  ]);
  return (
    [...zips]
      // RUCA's 000xx/001xx pseudo-ZIPs cover unpopulated land and are not mail codes: no household has one.
      .filter((zip) => sources.hud.has(zip) || sources.assignedPrefixes.has(zip.slice(0, 3)))
      .sort(compare)
      .map((zip) => buildZipRow(zip, sources))
  );
}

export async function extractGeo(geoDir: string, outDir: string): Promise<ExtractSummary> {
  const raw = new RawFiles(geoDir);
  const states = await readStates(raw);
  const counties = await readCounties(raw);
  const delineation = await readDelineation(raw);
  const cbsas = await readCbsas(raw, counties, delineation);
  const stateFips = new Map(states.map((row) => [row.state, row.fips]));
  const zip3States = await readPrefixStates(raw, RAW_GEO_FILES.zip3States, 'zip3');
  const zip5States = await readPrefixStates(raw, RAW_GEO_FILES.zip5States, 'zip5');
  const zips = buildZipRows({
    hud: await readHud(raw),
    ruca: await readRuca(raw),
    geonames: await readGeonames(raw, stateFips),
    simplemaps: await readSimplemaps(raw),
    zctaCounty: await readZctaPrimaryCounty(raw),
    counties,
    delineation,
    stateFips,
    assignedPrefixes: new Set(zip3States.map((row) => row.prefix)),
  });
  const knownCbsas = new Set(cbsas.map((row) => row.cbsa));
  const strayCbsa = zips.find((row) => row.cbsa !== null && !knownCbsas.has(row.cbsa));
  if (strayCbsa)
    throw new Error(`geo extract: ZIP ${strayCbsa.zip} has CBSA ${strayCbsa.cbsa}, not in the CBSA list`);

  const sources = [...raw.hashes]
    .sort(([a], [b]) => compare(a, b))
    .map(([file, hash]) => ({ file, ...hash }));
  const contents: [string, string][] = [
    [GEO_FILES.zips, formatTable(ZIP_TABLE, zips)],
    [GEO_FILES.zip3States, formatTable(ZIP3_STATE_TABLE, zip3States)],
    [GEO_FILES.zip5States, formatTable(ZIP5_STATE_TABLE, zip5States)],
    [GEO_FILES.states, formatTable(STATE_TABLE, states)],
    [GEO_FILES.cbsas, formatTable(CBSA_TABLE, cbsas)],
    [GEO_FILES.provenance, `${JSON.stringify({ extractor: 'jobs/extract/geo.ts', sources }, null, 2)}\n`],
  ];
  await mkdir(outDir, { recursive: true });
  for (const [file, text] of contents) await writeFile(join(outDir, file), text);

  const zipsBySource: Record<ZipSource, number> = { hud: 0, ruca: 0, geonames: 0, simplemaps: 0 };
  for (const row of zips) zipsBySource[row.source]++;
  return {
    outDir,
    files: contents.map(([file, text]) => ({ file, bytes: Buffer.byteLength(text), sha256: sha256(text) })),
    zips: zips.length,
    zipsBySource,
    zipsWithoutCounty: zips.filter((row) => row.county === null).length,
    zipsInCbsa: zips.filter((row) => row.cbsa !== null).length,
    urbanFromCounty: zips.filter((row) => row.ruca === null && row.urban !== null).length,
    states: states.length,
    cbsas: cbsas.length,
    metrosWithRpp: cbsas.filter((row) => row.rpp !== null).length,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [geoDir, outDir] = process.argv.slice(2);
  if (geoDir === undefined || outDir === undefined) {
    process.stderr.write('usage: node dist/jobs/extract/geo.js RAW_GEO_DIR OUT_DIR\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(`${JSON.stringify(await extractGeo(geoDir, outDir), null, 2)}\n`);
  }
}
