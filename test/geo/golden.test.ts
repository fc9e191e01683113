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
      // CBSA population 2012: 1,136,650 (its 2023 counties in the county file) → class 3, 0.33–1.19 million.
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

  it('resolve, 59001 Absarokee (Stillwater County, added to the Billings metro in 2023), is rural MT in CBSA 13740 with the Billings MARPP', () => {
    // README: county 30095 Stillwater, RUCA 10. The 2023 delineation (census_cbsa_delineation_2023_list1.csv)
    // puts Stillwater County in 13740 Billings, MT as an outlying county (the 2020 county file: cbsa_code 0).
    // MARPP 2023 Billings (bea_marpp_msa_2023.csv, GeoFIPS 13740): 89.61 94.29 72.98 72.39 93.45.
    expect(geo.resolve('59001')).toEqual({
      level: 'zip',
      state: 'MT',
      cbsa: '13740',
      region: 'west',
      urban: false,
      rpp: { all: 89.61, goods: 94.29, housing: 72.98, utilities: 72.39, other: 93.45 },
      rppScope: 'metro',
      rentIndex: 0.87,
      // 171,204 people in 2012 (Yellowstone, Carbon, Golden Valley and Stillwater) → class 4; rural, so the
      // class's factors do not apply.
      metroSize: 4,
    });
  });

  it('resolve, 44113 Cleveland (metro recoded 17460 → 17410 in 2023), keeps the Cleveland-Elyria MARPP', () => {
    // MARPP 2023 GeoFIPS 17460 Cleveland-Elyria: 93.05 93.32 79.53 88.9 97.78.
    expect(geo.resolve('44113')).toMatchObject({
      cbsa: '17410',
      rpp: { all: 93.05, goods: 93.32, housing: 79.53, utilities: 88.9, other: 97.78 },
      rppScope: 'metro',
    });
  });
});
