/** Reads the committed geography extract (data/geo/, written by jobs/extract/geo.ts). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_DIR } from '../paths.js';
import { buildGeoResolver } from './resolver.js';
import { buildStateTable, type StateTable } from './states.js';
import {
  CBSA_TABLE,
  GEO_FILES,
  type GeoExtract,
  parseTable,
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

async function readTable<Row>(dir: string, file: string, table: TableCodec<Row>): Promise<Row[]> {
  return parseTable(table, await readFile(join(dir, file), 'utf8'), file);
}

export async function loadGeoExtract(dir = DEFAULT_GEO_DIR): Promise<GeoExtract> {
  const [zips, zip3States, zip5States, states, cbsas, rents] = await Promise.all([
    readTable(dir, GEO_FILES.zips, ZIP_TABLE),
    readTable(dir, GEO_FILES.zip3States, ZIP3_STATE_TABLE),
    readTable(dir, GEO_FILES.zip5States, ZIP5_STATE_TABLE),
    readTable(dir, GEO_FILES.states, STATE_TABLE),
    readTable(dir, GEO_FILES.cbsas, CBSA_TABLE),
    readTable(dir, RENT_FILES.rents, ZIP_RENT_TABLE),
  ]);
  return { zips, zip3States, zip5States, states, cbsas, rents };
}

export async function loadGeoResolver(dir = DEFAULT_GEO_DIR): Promise<GeoResolver> {
  return buildGeoResolver(await loadGeoExtract(dir));
}

/** States, DC and the US with their region and SARPP 2023; reads only states.tsv. */
export async function loadStateTable(dir = DEFAULT_GEO_DIR): Promise<StateTable> {
  return buildStateTable(await readTable(dir, GEO_FILES.states, STATE_TABLE));
}
