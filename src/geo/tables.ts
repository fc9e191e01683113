/**
 * The geography extract (data/geo/): file names, columns and the tab-separated text format shared by the
 * writer (jobs/extract/geo.ts) and the reader (src/geo/load.ts). Tab-separated because no value contains
 * a tab, so there is no quoting, each row is one greppable and diffable line, and reading is a plain split.
 */
import type { CensusRegion, PriceParities } from './types.js';

export const GEO_FILES = {
  zips: 'zips.tsv',
  zip3States: 'zip3_states.tsv',
  zip5States: 'zip5_states.tsv',
  states: 'states.tsv',
  cbsas: 'cbsas.tsv',
  provenance: 'provenance.json',
} as const;

/** The ZIP rent extract, written by jobs/extract/rents.ts from HUD rents (data/geo/README.md). */
export const RENT_FILES = {
  rents: 'zip_rents.tsv',
  provenance: 'rents-provenance.json',
} as const;

/** The dataset that placed a ZIP (its state and county), in the order they are tried. */
export type ZipSource = 'hud' | 'ruca' | 'geonames' | 'simplemaps';

export interface ZipRow {
  readonly zip: string;
  readonly state: string;
  /** 5-digit county FIPS with the largest share of the ZIP's residents, null when no source knows it. */
  readonly county: string | null;
  /** CBSA (2023 delineation; Connecticut 2020) of that county, metro or micro; null outside any CBSA. */
  readonly cbsa: string | null;
  /** USDA primary RUCA 2020 code (1–10), null when the ZIP is not in RUCA. */
  readonly ruca: number | null;
  /** RUCA ≤ 3, else (no RUCA) the county's NCHS 2013 class ≤ 4 (metro); null when neither is known. */
  readonly urban: boolean | null;
  readonly source: ZipSource;
}

export interface PrefixStateRow {
  /** 3-digit prefix (zip3_states.tsv) or full 5-digit ZIP (zip5_states.tsv). */
  readonly prefix: string;
  readonly state: string;
}

/** One state or DC, plus the United States itself (fips 00, state US, no region). */
export interface StateRow {
  /** 2-digit state FIPS. */
  readonly fips: string;
  readonly state: string;
  readonly name: string;
  readonly region: CensusRegion | null;
  readonly division: string | null;
  /**
   * BEA SARPP 2023. Only "all items" is 100 for the US: BEA states each component relative to the US
   * all-items level, so the US row's components (goods 99.505, housing 100.742, …) are the national values.
   */
  readonly rpp: PriceParities;
}

/** USPS code and FIPS of the national row of states.tsv. */
export const NATIONAL = { state: 'US', fips: '00' } as const;

export type CbsaKind = 'metro' | 'micro';

export interface CbsaRow {
  readonly cbsa: string;
  readonly kind: CbsaKind;
  readonly title: string;
  /**
   * Resident population, 2012 (the sum over its counties, data/geo/README.md): what the metro-size class
   * keys on. Null where it is not known (Puerto Rico's areas, Waterbury-Shelton CT).
   */
  readonly population: number | null;
  /** BEA MARPP 2023; null for micropolitan areas and the metros BEA does not publish (Puerto Rico, new ones). */
  readonly rpp: PriceParities | null;
}

/**
 * A ZIP's rent level over the population-weighted mean of its price area (the metro whose MARPP it takes,
 * else its state): the within-area contrast BEA's area-wide housing parity does not carry.
 */
export interface ZipRentRow {
  readonly zip: string;
  readonly rentIndex: number;
}

/** Everything the resolver and the state table need, parsed. */
export interface GeoExtract {
  readonly zips: readonly ZipRow[];
  readonly zip3States: readonly PrefixStateRow[];
  readonly zip5States: readonly PrefixStateRow[];
  readonly states: readonly StateRow[];
  readonly cbsas: readonly CbsaRow[];
  /** ZIPs without a row have rent index 1 (their area's level). */
  readonly rents: readonly ZipRentRow[];
}

/** How one row type is written to and read from its columns (null is written as an empty cell). */
export interface TableCodec<Row> {
  readonly columns: readonly string[];
  toCells(row: Row): readonly (string | number | boolean | null)[];
  fromCells(cells: readonly string[]): Row;
}

const RPP_COLUMNS = ['rpp_all', 'rpp_goods', 'rpp_housing', 'rpp_utilities', 'rpp_other'] as const;

const rppCells = (rpp: PriceParities | null) =>
  rpp === null ? [null, null, null, null, null] : [rpp.all, rpp.goods, rpp.housing, rpp.utilities, rpp.other];

function cellAt(cells: readonly string[], index: number): string {
  const cell = cells[index];
  if (cell === undefined) throw new Error(`geo extract: missing column ${index + 1}`);
  return cell;
}

function missing(what: string): never {
  throw new Error(`geo extract: missing ${what}`);
}

const orNull = (cell: string) => (cell === '' ? null : cell);

function numberCell(cell: string): number {
  const value = Number(cell);
  if (cell === '' || !Number.isFinite(value)) throw new Error(`geo extract: not a number: "${cell}"`);
  return value;
}

function rppFromCells(cells: readonly string[], first: number): PriceParities | null {
  if (cellAt(cells, first) === '') return null;
  const component = (offset: number) => numberCell(cellAt(cells, first + offset));
  return {
    all: component(0),
    goods: component(1),
    housing: component(2),
    utilities: component(3),
    other: component(4),
  };
}

function booleanCell(cell: string): boolean | null {
  if (cell === '') return null;
  if (cell === '1' || cell === '0') return cell === '1';
  throw new Error(`geo extract: not a 0/1 flag: "${cell}"`);
}

export const ZIP_TABLE: TableCodec<ZipRow> = {
  columns: ['zip', 'state', 'county', 'cbsa', 'ruca', 'urban', 'source'],
  toCells: (r) => [r.zip, r.state, r.county, r.cbsa, r.ruca, r.urban, r.source],
  fromCells: (c) => ({
    zip: cellAt(c, 0),
    state: cellAt(c, 1),
    county: orNull(cellAt(c, 2)),
    cbsa: orNull(cellAt(c, 3)),
    ruca: cellAt(c, 4) === '' ? null : numberCell(cellAt(c, 4)),
    urban: booleanCell(cellAt(c, 5)),
    source: cellAt(c, 6) as ZipSource,
  }),
};

const prefixTable = (prefixColumn: string): TableCodec<PrefixStateRow> => ({
  columns: [prefixColumn, 'state'],
  toCells: (r) => [r.prefix, r.state],
  fromCells: (c) => ({ prefix: cellAt(c, 0), state: cellAt(c, 1) }),
});

export const ZIP3_STATE_TABLE = prefixTable('zip3');
export const ZIP5_STATE_TABLE = prefixTable('zip5');

export const STATE_TABLE: TableCodec<StateRow> = {
  columns: ['fips', 'state', 'name', 'region', 'division', ...RPP_COLUMNS],
  toCells: (r) => [r.fips, r.state, r.name, r.region, r.division, ...rppCells(r.rpp)],
  fromCells: (c) => ({
    fips: cellAt(c, 0),
    state: cellAt(c, 1),
    name: cellAt(c, 2),
    region: orNull(cellAt(c, 3)) as CensusRegion | null,
    division: orNull(cellAt(c, 4)),
    rpp: rppFromCells(c, 5) ?? missing(`state ${cellAt(c, 1)} price parities`),
  }),
};

export const CBSA_TABLE: TableCodec<CbsaRow> = {
  columns: ['cbsa', 'kind', 'title', 'population', ...RPP_COLUMNS],
  toCells: (r) => [r.cbsa, r.kind, r.title, r.population, ...rppCells(r.rpp)],
  fromCells: (c) => ({
    cbsa: cellAt(c, 0),
    kind: cellAt(c, 1) as CbsaKind,
    title: cellAt(c, 2),
    population: cellAt(c, 3) === '' ? null : positiveCell(cellAt(c, 3)),
    rpp: rppFromCells(c, 4),
  }),
};

export const ZIP_RENT_TABLE: TableCodec<ZipRentRow> = {
  columns: ['zip', 'rent_index'],
  toCells: (r) => [r.zip, r.rentIndex],
  fromCells: (c) => ({ zip: cellAt(c, 0), rentIndex: positiveCell(cellAt(c, 1)) }),
};

function positiveCell(cell: string): number {
  const value = numberCell(cell);
  if (value <= 0) throw new Error(`geo extract: not a positive number: "${cell}"`);
  return value;
}

function formatCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  const text = String(value);
  if (/[\t\n\r]/.test(text))
    throw new Error(`geo extract: value contains a tab or newline: ${JSON.stringify(text)}`);
  return text;
}

/** Header line plus one LF-terminated line per row: the same rows always give the same bytes. */
export function formatTable<Row>(table: TableCodec<Row>, rows: readonly Row[]): string {
  const lines = [table.columns.join('\t')];
  for (const row of rows) lines.push(table.toCells(row).map(formatCell).join('\t'));
  return `${lines.join('\n')}\n`;
}

/** Where the data lines of a table's text start, after checking its header and final newline. */
function bodyStart<Row>(table: TableCodec<Row>, text: string, fileName: string): number {
  if (!text.endsWith('\n')) throw new Error(`geo extract ${fileName}: does not end with a newline`);
  const headerEnd = text.indexOf('\n');
  const header = text.slice(0, headerEnd);
  if (header !== table.columns.join('\t')) {
    throw new Error(`geo extract ${fileName}: expected columns ${table.columns.join(',')}, got ${header}`);
  }
  return headerEnd + 1;
}

const TAB = 9;

export function parseTable<Row>(table: TableCodec<Row>, text: string, fileName: string): Row[] {
  const start = bodyStart(table, text, fileName);
  if (start === text.length) return [];
  return text
    .slice(start, -1)
    .split('\n')
    .map((line) => table.fromCells(line.split('\t')));
}

/**
 * The rows of one 3-digit prefix of a ZIP-keyed table (zips.tsv, zip_rents.tsv). The resolver asks for a
 * prefix's rows the first time it resolves a ZIP of that prefix, so a run parses only the prefixes its
 * rows use: parsing and placing all 41,000 ZIPs took about a quarter of the CPU of `outlay score` on a
 * small file (docs/fast-paths.md).
 */
export interface RowsByPrefix<Row> {
  rowsOf(prefix: number): readonly Row[];
}

const PREFIX_COUNT = 1000;
const ZIP_LENGTH = 5;

/** The number 0–99999 that the 5 characters at `start` of `text` write, or -1 when they are not 5 digits. */
export function zipValueAt(text: string, start: number): number {
  let value = 0;
  for (let i = start; i < start + ZIP_LENGTH; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The 3-digit prefix of a 5-digit ZIP, or -1 for a string that is not one. */
const prefixOfZip = (zip: string): number =>
  zip.length === ZIP_LENGTH ? Math.floor(zipValueAt(zip, 0) / 100) : -1;

/** Rows already parsed (a hand-made extract, a test's), grouped by the prefix of the ZIP `zipOf` reads. */
export function groupedByPrefix<Row>(rows: readonly Row[], zipOf: (row: Row) => string): RowsByPrefix<Row> {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const prefix = prefixOfZip(zipOf(row));
    const group = groups.get(prefix);
    if (group === undefined) groups.set(prefix, [row]);
    else group.push(row);
  }
  return { rowsOf: (prefix) => groups.get(prefix) ?? [] };
}

/**
 * A ZIP-keyed table's text, parsed a prefix at a time. The header, the final newline and the start of
 * every line (a 5-digit ZIP and a tab, in ZIP order, so that a prefix's lines are one run) are checked
 * now; a line's cells when its prefix is first asked for. test/geo parses the committed files whole.
 */
export function prefixIndexedTable<Row>(
  table: TableCodec<Row>,
  text: string,
  fileName: string,
): RowsByPrefix<Row> {
  const from = new Int32Array(PREFIX_COUNT);
  const to = new Int32Array(PREFIX_COUNT);
  let previous = -1;
  let line = 2;
  for (let start = bodyStart(table, text, fileName); start < text.length; line++) {
    const end = text.indexOf('\n', start);
    const prefix =
      text.charCodeAt(start + ZIP_LENGTH) === TAB ? Math.floor(zipValueAt(text, start) / 100) : -1;
    if (prefix < 0)
      throw new Error(`geo extract ${fileName}: line ${line} does not start with a 5-digit ZIP`);
    if (prefix < previous) throw new Error(`geo extract ${fileName}: line ${line} is out of ZIP order`);
    if (prefix !== previous) from[prefix] = start;
    to[prefix] = end;
    previous = prefix;
    start = end + 1;
  }
  const linesOf = (prefix: number) => text.slice(from[prefix], to[prefix]).split('\n');
  return {
    rowsOf: (prefix) =>
      from[prefix] === to[prefix] ? [] : linesOf(prefix).map((row) => table.fromCells(row.split('\t'))),
  };
}
