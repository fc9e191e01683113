/** State table on the committed extract (for code that only knows a state, e.g. CE microdata FIPS). */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadStateTable } from '../../src/geo/load.js';
import type { StateTable } from '../../src/geo/states.js';

let states: StateTable;
beforeAll(async () => {
  states = await loadStateTable();
});

// bea_sarpp_state_2008_2023.csv, GeoFIPS 30000 (Montana), RPP lines 5–9, 2023.
const MONTANA_SARPP_2023 = { all: 90.244, goods: 94.29, housing: 76.743, utilities: 72.862, other: 93.451 };

describe('state table', () => {
  it('rows, states + DC + national, are 52 ordered by FIPS', () => {
    expect(states.rows).toHaveLength(52);
    expect(states.rows.map((row) => row.fips)).toEqual(states.rows.map((row) => row.fips).sort());
  });

  it('statePriceParities, Montana by "30", 30, "MT" and "mt", is the MT SARPP 2023', () => {
    for (const key of ['30', 30, 'MT', 'mt'])
      expect(states.statePriceParities(key)).toEqual(MONTANA_SARPP_2023);
  });

  it('get, California by one-digit FIPS 6, is CA in the west region', () => {
    expect(states.get(6)).toMatchObject({ fips: '06', state: 'CA', region: 'west', division: 'Pacific' });
  });

  it('get, US, is the national row with all items 100 (BEA base)', () => {
    expect(states.get('US')?.rpp.all).toBe(100);
    expect(states.get('00')).toBe(states.get('US'));
  });

  it('statePriceParities, unknown state (PR FIPS 72, "ZZ"), throws a RangeError', () => {
    expect(() => states.statePriceParities(72)).toThrow(RangeError);
    expect(() => states.statePriceParities('ZZ')).toThrow(RangeError);
  });
});
