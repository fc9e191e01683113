/** Coarser levels on the committed extract: ZIPs no ZIP-level source lists, unassigned prefixes. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGeoExtract } from '../../src/geo/load.js';
import { buildGeoResolver } from '../../src/geo/resolver.js';
import type { GeoExtract } from '../../src/geo/tables.js';
import type { GeoResolver } from '../../src/geo/types.js';

let extract: GeoExtract;
let geo: GeoResolver;
beforeAll(async () => {
  extract = await loadGeoExtract();
  geo = buildGeoResolver(extract);
});

const listed = (zip: string) => extract.zips.some((row) => row.zip === zip);
const stateRpp = (state: string) => extract.states.find((row) => row.state === state)?.rpp;

describe('resolve: fallbacks', () => {
  it('resolve, unlisted ZIP 35250 inside the span of prefix 352, is zip3 level in AL with the AL SARPP', () => {
    expect(listed('35250')).toBe(false);
    expect(geo.knows('35250')).toBe(true);
    expect(geo.resolve('35250')).toEqual({
      level: 'zip3',
      state: 'AL',
      cbsa: null,
      region: 'south',
      urban: null,
      rpp: stateRpp('AL'),
      rppScope: 'state',
      rentIndex: 1,
      metroSize: null,
    });
  });

  it('resolve, ZIPs with unassigned prefixes 000/002/213, are national with the US row and no state', () => {
    const national = {
      level: 'national',
      state: null,
      cbsa: null,
      region: null,
      urban: null,
      rppScope: 'national',
      rentIndex: 1,
      metroSize: null,
    };
    for (const zip of ['00000', '00212', '21300']) {
      expect(geo.resolve(zip)).toEqual({ ...national, rpp: stateRpp('US') });
      expect(geo.knows(zip)).toBe(false);
    }
  });

  it('resolve, 99999 and 35299 (assigned prefixes, past the last ZIP listed in them: 99950, 35298), are national and unknown', () => {
    for (const zip of ['99999', '35299']) {
      expect(listed(zip)).toBe(false);
      expect(geo.resolve(zip).level).toBe('national');
      expect(geo.knows(zip)).toBe(false);
    }
  });

  it('resolve, RUCA pseudo-ZIP 00001 (unpopulated land, not a mail code), is national', () => {
    expect(listed('00001')).toBe(false);
    expect(geo.resolve('00001').level).toBe('national');
  });

  it('resolve, USPS exception 96941 (Micronesia, inside Guam prefix 969) not in any ZIP source, is FM outside coverage', () => {
    // zip5_state_exceptions_zipstate_cc0.csv: 96941 → FM; BEA publishes no RPP for the territories.
    expect(listed('96941')).toBe(false);
    expect(geo.resolve('96941')).toMatchObject({ level: 'outside', state: 'FM', rppScope: 'national' });
  });

  it('resolve, territories San Juan PR 00901, St Thomas VI 00802, Hagåtña GU 96910, are outside coverage at national prices', () => {
    for (const [zip, state] of [
      ['00901', 'PR'],
      ['00802', 'VI'],
      ['96910', 'GU'],
    ] as const) {
      expect(geo.resolve(zip)).toMatchObject({ level: 'outside', state, region: null, rppScope: 'national' });
    }
  });

  it('resolve, APO 09001 (military, no state in GeoNames, no ZIP listed in prefix 090), is AE outside coverage at national prices', () => {
    expect(geo.knows('09001')).toBe(true);
    expect(geo.resolve('09001')).toMatchObject({
      level: 'outside',
      state: 'AE',
      region: null,
      rppScope: 'national',
    });
  });

  it('extract, county CBSA code 0 and BEA GeoFIPS 0 (US), never appear as a CBSA', () => {
    expect(extract.cbsas.some((row) => Number(row.cbsa) === 0)).toBe(false);
    expect(extract.zips.filter((row) => row.cbsa !== null && Number(row.cbsa) === 0)).toEqual([]);
    const known = new Set(extract.cbsas.map((row) => row.cbsa));
    expect(extract.zips.filter((row) => row.cbsa !== null && !known.has(row.cbsa))).toEqual([]);
  });

  it('resolve, micropolitan ZIP 57401 (Aberdeen SD, CBSA 10100), keeps its CBSA and uses the SD SARPP', () => {
    expect(geo.resolve('57401')).toMatchObject({
      level: 'zip',
      state: 'SD',
      cbsa: '10100',
      rpp: stateRpp('SD'),
      rppScope: 'state',
    });
  });

  it('resolve, San Juan PR 00901 (no SARPP, no MARPP for Puerto Rico), is PR outside coverage with national prices', () => {
    expect(geo.resolve('00901')).toMatchObject({
      level: 'outside',
      state: 'PR',
      region: null,
      rpp: stateRpp('US'),
      rppScope: 'national',
    });
  });
});

describe('resolve: every 5-digit string', () => {
  it('resolve, all of 00000–99999, never throws and gives finite positive RPPs and a consistent level', () => {
    for (let n = 0; n < 100_000; n++) {
      const geography = geo.resolve(String(n).padStart(5, '0'));
      for (const value of Object.values(geography.rpp)) {
        if (!(Number.isFinite(value) && value > 0)) throw new Error(`${n}: RPP ${value}`);
      }
      if ((geography.state === null) !== (geography.level === 'national'))
        throw new Error(`${n}: state vs level`);
      if (geo.knows(String(n).padStart(5, '0')) === (geography.level === 'national'))
        throw new Error(`${n}: known vs level`);
      if ((geography.region === null) !== (geography.level === 'national' || geography.level === 'outside'))
        throw new Error(`${n}: region vs coverage`);
    }
  });
});
