/**
 * Metro-size classes: CE's POPSIZE bounds (src/geo/metro-size.ts) and the committed extract's ZIP → class,
 * checked on ZIPs whose CBSA population (2012, shared/geo/cbsa_2020.psv) puts them in each class.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGeoResolver } from '../../src/geo/load.js';
import { metroSizeOf } from '../../src/geo/metro-size.js';
import type { GeoResolver } from '../../src/geo/types.js';

describe('metroSizeOf', () => {
  it.each([
    [19_831_858, 1],
    [4_000_000, 1],
    [3_999_999, 2],
    [1_200_000, 2],
    [1_136_650, 3],
    [330_000, 3],
    [329_999, 4],
    [125_000, 4],
    [124_999, 5],
    [41_357, 5],
  ])('population %i, is class %i (lower bounds inclusive)', (population, size) => {
    expect(metroSizeOf(population)).toBe(size);
  });
});

describe('committed geography, ZIP → metro-size class', () => {
  let geo: GeoResolver;
  beforeAll(async () => {
    geo = await loadGeoResolver();
  });

  it.each([
    ['10021', '35620', 1], // New York-Newark-Jersey City, 19.8 million
    ['11756', '35620', 1], // Levittown: same CBSA, same class (no finer density)
    ['15222', '38300', 2], // Pittsburgh, 2.36 million
    ['14604', '40380', 3], // Rochester NY, 1.08 million
    ['16801', '44300', 4], // State College PA, 154 thousand
    ['14901', '21300', 5], // Elmira NY, 89 thousand
  ])('ZIP %s (CBSA %s), is class %i', (zip, cbsa, size) => {
    const place = geo.resolve(zip);
    expect(place).toMatchObject({ cbsa, urban: true, metroSize: size });
  });

  it('ZIP outside any CBSA, and a ZIP known only by its prefix, have no class', () => {
    const rural = geo.resolve('59003'); // Ashland MT, Rosebud County: in no CBSA
    expect(rural.cbsa).toBeNull();
    expect(rural.metroSize).toBeNull();
    expect(geo.resolve('09001')).toMatchObject({ level: 'outside', metroSize: null });
  });
});
