/**
 * Golden lookups on the committed extract (data/geo/). Expected values are the "Verified lookups" of
 * /work/shared/geo/README.md (HUD → county file → cbsa_2020 → MARPP/SARPP → regions → RUCA); MARPP
 * values are as BEA publishes them (2 dp), SARPP values are the file's 3 dp, which the README rounds to 2 dp.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGeoResolver } from '../../src/geo/load.js';
import type { GeoResolver } from '../../src/geo/types.js';

let geo: GeoResolver;
beforeAll(async () => {
  geo = await loadGeoResolver();
});

describe('resolve: verified lookups from the raw-data README', () => {
  it('resolve, 35210 Birmingham, is AL in metro 13820 with the Birmingham-Hoover MARPP', () => {
    // README: county 01073 Jefferson, CBSA 13820 (metro), South, RUCA 1;
    // MARPP 2023 all 92.57 goods 95.05 housing 72.09 util 90.68 other 98.68.
    expect(geo.resolve('35210')).toEqual({
      level: 'zip',
      state: 'AL',
      cbsa: '13820',
      region: 'south',
      urban: true,
      rpp: { all: 92.57, goods: 95.05, housing: 72.09, utilities: 90.68, other: 98.68 },
      rppScope: 'metro',
      rentIndex: 0.91,
      // CBSA population 2012: 1,136,650 (cbsa_2020.psv) → class 3, 0.33–1.19 million.
      metroSize: 3,
    });
  });

  it('resolve, 77479 Sugar Land, is TX in metro 26420 with the Houston MARPP', () => {
    // README: county 48157 Fort Bend, CBSA 26420 Houston-The Woodlands-Sugar Land (metro), South, RUCA 1;
    // MARPP 2023 all 100.22 goods 103.43 housing 106.45 util 95.12 other 96.32.
    expect(geo.resolve('77479')).toEqual({
      level: 'zip',
      state: 'TX',
      cbsa: '26420',
      region: 'south',
      urban: true,
      rpp: { all: 100.22, goods: 103.43, housing: 106.45, utilities: 95.12, other: 96.32 },
      rppScope: 'metro',
      rentIndex: 1.33,
      // 6,177,035 → class 1, more than 4 million.
      metroSize: 1,
    });
  });

  it('resolve, 10001 Manhattan, is NY in metro 35620 with the New York MARPP', () => {
    // README: county 36061 New York, CBSA 35620 (metro), Northeast, RUCA 1;
    // MARPP 2023 all 112.47 goods 109.52 housing 149.26 util 129.99 other 105.85.
    expect(geo.resolve('10001')).toEqual({
      level: 'zip',
      state: 'NY',
      cbsa: '35620',
      region: 'northeast',
      urban: true,
      rpp: { all: 112.47, goods: 109.52, housing: 149.26, utilities: 129.99, other: 105.85 },
      rppScope: 'metro',
      rentIndex: 1.43,
      // 19,831,858 → class 1.
      metroSize: 1,
    });
  });

  it('resolve, 59001 Absarokee (county CBSA code 0), is rural MT with no CBSA and the MT SARPP', () => {
    // README: county 30095 Stillwater, no CBSA, RUCA 10 → MT SARPP 90.24, housing 76.74. The county file
    // gives this county cbsa_code 0, which must not match BEA's GeoFIPS 0 (US = 100). SARPP 2023
    // (bea_sarpp_state_2008_2023.csv, GeoFIPS 30000, lines 5–9): 90.244 94.290 76.743 72.862 93.451.
    expect(geo.resolve('59001')).toEqual({
      level: 'zip',
      state: 'MT',
      cbsa: null,
      region: 'west',
      urban: false,
      rpp: { all: 90.244, goods: 94.29, housing: 76.743, utilities: 72.862, other: 93.451 },
      rppScope: 'state',
      rentIndex: 0.9,
      metroSize: null,
    });
  });
});
