/** Reads the committed geography extract (data/geo/, written by jobs/extract/geo.ts). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_DIR } from '../paths.js';
import { resolverOver } from './resolver.js';
import { buildStateTable, type StateTable } from './states.js';
import {
  CBSA_TABLE,
  GEO_FILES,
  type GeoExtract,
  parseTable,
  prefixIndexedTable,
  RENT_FILES,
  STATE_TABLE,
  type TableCodec,
  ZIP_RENT_TABLE,
  ZIP_TABLE,
  ZIP3_STATE_TABLE,
  ZIP5_STATE_TABLE,
} from './tables.js';
import type { GeoResolver } from './types.js';

export const DEFAULT_GEO_DIR = join(DATA_DIR, 'geo');

const readText = (dir: string, file: string) => readFile(join(dir, file), 'utf8');

async function readTable<Row>(dir: string, file: string, table: TableCodec<Row>): Promise<Row[]> {
  return parseTable(table, await readText(dir, file), file);
}

/** The extract's tables but the two keyed by ZIP. */
async function loadAreaTables(dir: string): Promise<Omit<GeoExtract, 'zips' | 'rents'>> {
  const [zip3States, zip5States, states, cbsas] = await Promise.all([
    readTable(dir, GEO_FILES.zip3States, ZIP3_STATE_TABLE),
    readTable(dir, GEO_FILES.zip5States, ZIP5_STATE_TABLE),
    readTable(dir, GEO_FILES.states, STATE_TABLE),
    readTable(dir, GEO_FILES.cbsas, CBSA_TABLE),
  ]);
  return { zip3States, zip5States, states, cbsas };
}

/** The whole extract, parsed (its tests, the state table's callers). */
export async function loadGeoExtract(dir = DEFAULT_GEO_DIR): Promise<GeoExtract> {
  const [areas, zips, rents] = await Promise.all([
    loadAreaTables(dir),
    readTable(dir, GEO_FILES.zips, ZIP_TABLE),
    readTable(dir, RENT_FILES.rents, ZIP_RENT_TABLE),
  ]);
  return { ...areas, zips, rents };
}

/** The resolver over the extract, its ZIP-keyed tables parsed a prefix at a time (`RowsByPrefix`). */
export async function loadGeoResolver(dir = DEFAULT_GEO_DIR): Promise<GeoResolver> {
  const [areas, zips, rents] = await Promise.all([
    loadAreaTables(dir),
    readText(dir, GEO_FILES.zips),
    readText(dir, RENT_FILES.rents),
  ]);
  return resolverOver({
    ...areas,
    zips: prefixIndexedTable(ZIP_TABLE, zips, GEO_FILES.zips),
    rents: prefixIndexedTable(ZIP_RENT_TABLE, rents, RENT_FILES.rents),
  });
}

/** States, DC and the US with their region and SARPP 2023; reads only states.tsv. */
export async function loadStateTable(dir = DEFAULT_GEO_DIR): Promise<StateTable> {
  return buildStateTable(await readTable(dir, GEO_FILES.states, STATE_TABLE));
}
