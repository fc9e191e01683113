/** buildGeoResolver on a small hand-made extract: precedence of levels, price fallbacks, sharing. */
import { describe, expect, it } from 'vitest';
import { buildGeoResolver } from '../../src/geo/resolver.js';
import type { GeoExtract, StateRow } from '../../src/geo/tables.js';

const rpp = (all: number) => ({ all, goods: all + 1, housing: all + 2, utilities: all + 3, other: all + 4 });
const state = (fips: string, code: string, all: number): StateRow => ({
  fips,
  state: code,
  name: code,
  region: code === 'US' ? null : 'south',
  division: code === 'US' ? null : 'East South Central',
  rpp: rpp(all),
});

const EXTRACT: GeoExtract = {
  zips: [
    { zip: '35210', state: 'AL', county: '01073', cbsa: '13820', ruca: 1, urban: true, source: 'hud' },
    { zip: '35211', state: 'AL', county: '01073', cbsa: '13820', ruca: 1, urban: true, source: 'hud' },
    { zip: '35213', state: 'AL', county: '01073', cbsa: '13820', ruca: 1, urban: true, source: 'hud' },
    { zip: '35440', state: 'AL', county: '01107', cbsa: null, ruca: 10, urban: false, source: 'hud' },
    { zip: '36201', state: 'AL', county: '01015', cbsa: '11500', ruca: 4, urban: false, source: 'ruca' },
    { zip: '00901', state: 'PR', county: '72127', cbsa: null, ruca: 1, urban: true, source: 'hud' },
    { zip: '96910', state: 'GU', county: null, cbsa: null, ruca: null, urban: null, source: 'geonames' },
    { zip: '96932', state: 'GU', county: null, cbsa: null, ruca: null, urban: null, source: 'geonames' },
  ],
  zip3States: [
    { prefix: '352', state: 'AL' },
    { prefix: '969', state: 'GU' },
  ],
  zip5States: [
    { prefix: '96941', state: 'FM' },
    { prefix: '35210', state: 'AL' },
  ],
  states: [state('00', 'US', 100), state('01', 'AL', 90)],
  cbsas: [
    { cbsa: '13820', kind: 'metro', title: 'Birmingham-Hoover, AL', population: 1_136_650, rpp: rpp(92) },
    { cbsa: '11500', kind: 'micro', title: 'Anniston-Oxford, AL', population: 117_296, rpp: null },
  ],
  rents: [
    { zip: '35210', rentIndex: 0.9 },
    { zip: '35211', rentIndex: 0.9 },
    { zip: '35213', rentIndex: 1.3 },
  ],
};

const geo = buildGeoResolver(EXTRACT);

describe('buildGeoResolver', () => {
  it('resolve, ZIP listed in the ZIP table and in the exceptions, takes the ZIP row (zip level)', () => {
    expect(geo.resolve('35210')).toMatchObject({
      level: 'zip',
      cbsa: '13820',
      rpp: rpp(92),
      rppScope: 'metro',
    });
  });

  it('resolve, ZIP in a micropolitan CBSA, keeps the CBSA and uses the state SARPP', () => {
    expect(geo.resolve('36201')).toMatchObject({
      level: 'zip',
      cbsa: '11500',
      rpp: rpp(90),
      rppScope: 'state',
    });
  });

  it('resolve, rural ZIP outside any CBSA, uses the state SARPP', () => {
    expect(geo.resolve('35440')).toMatchObject({ level: 'zip', cbsa: null, urban: false, rppScope: 'state' });
  });

  it('resolve, exception ZIP inside another state prefix, takes the exception state', () => {
    expect(geo.resolve('96941')).toMatchObject({ state: 'FM', region: null, rppScope: 'national' });
  });

  it('resolve, territory ZIP listed (PR 00901) or not (GU 96915) and exception (FM 96941), is outside coverage at national prices', () => {
    for (const zip of ['00901', '96915', '96941'])
      expect(geo.resolve(zip)).toMatchObject({ level: 'outside', region: null, rppScope: 'national' });
    expect(geo.resolve('96915').state).toBe('GU');
    expect(geo.knows('96915')).toBe(true);
  });

  it('resolve, state without SARPP (PR), uses the national row', () => {
    expect(geo.resolve('00901')).toMatchObject({
      level: 'outside',
      state: 'PR',
      rpp: rpp(100),
      rppScope: 'national',
    });
  });

  it('resolve, unassigned prefix, is national with the national row and nothing else', () => {
    expect(geo.resolve('99999')).toEqual({
      level: 'national',
      state: null,
      cbsa: null,
      region: null,
      urban: null,
      rpp: rpp(100),
      rppScope: 'national',
      rentIndex: 1,
      metroSize: null,
    });
  });

  it('resolve, unlisted ZIP inside its prefix span (35212), is zip3 level, known, and the prefix geography', () => {
    expect(geo.resolve('35212')).toMatchObject({ level: 'zip3', state: 'AL', cbsa: null, rppScope: 'state' });
    expect(geo.knows('35212')).toBe(true);
    expect(geo.resolvePrefix('352')).toBe(geo.resolve('35212'));
  });

  it('resolve, code of an assigned prefix outside the span of its listed ZIPs (35200, 35299), is national and unknown', () => {
    for (const zip of ['35200', '35299', '35209', '35214']) {
      expect(geo.resolve(zip).level).toBe('national');
      expect(geo.knows(zip)).toBe(false);
    }
  });

  it('knows, unassigned prefix or malformed string, is false; resolvePrefix of them is undefined', () => {
    for (const zip of ['99999', '00000', '', '3521a']) expect(geo.knows(zip)).toBe(false);
    for (const prefix of ['999', '000', '35', '3521']) expect(geo.resolvePrefix(prefix)).toBeUndefined();
  });

  it('resolve, ZIP in a CBSA, has the metro-size class of the CBSA population; outside one or coarser, null', () => {
    expect(geo.resolve('35210').metroSize).toBe(3);
    expect(geo.resolve('36201').metroSize).toBe(5);
    expect(geo.resolve('35440').metroSize).toBeNull();
    expect(geo.resolve('35212').metroSize).toBeNull();
  });

  it('resolve, two ZIPs of one metro with different rent levels, share the metro parities but not the rent index', () => {
    const [cheaper, dearer] = [geo.resolve('35210'), geo.resolve('35213')];
    expect(cheaper).toMatchObject({ cbsa: '13820', rppScope: 'metro', rentIndex: 0.9 });
    expect(dearer).toMatchObject({ cbsa: '13820', rppScope: 'metro', rentIndex: 1.3 });
    expect(dearer.rpp).toBe(cheaper.rpp);
  });

  it('resolve, ZIP without a rent row or coarser than a ZIP, has rent index 1', () => {
    expect(geo.resolve('35440').rentIndex).toBe(1);
    expect(geo.resolve('35212').rentIndex).toBe(1);
  });

  it('resolve, malformed input despite the contract (length, non-digits), is national instead of throwing', () => {
    for (const bad of ['', '3521', '352100', '3521a', ' 3521', '35-10'])
      expect(geo.resolve(bad).level).toBe('national');
  });

  it('resolve, two ZIPs with the same place, return one shared frozen object', () => {
    const a = geo.resolve('35210');
    expect(geo.resolve('35211')).toBe(a);
    expect(geo.resolve('35212')).toBe(geo.resolvePrefix('352'));
    expect(Object.isFrozen(a) && Object.isFrozen(a.rpp)).toBe(true);
  });

  it('build, extract without the national row, throws', () => {
    expect(() => buildGeoResolver({ ...EXTRACT, states: [state('01', 'AL', 90)] })).toThrow(/national/);
  });
});
