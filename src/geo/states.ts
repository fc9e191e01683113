/**
 * State-level lookups for code that knows only a state, such as the model builder fitting price response
 * on CE microdata that carry just the state FIPS code.
 */
import type { StateRow } from './tables.js';
import type { PriceParities } from './types.js';

export type { StateRow } from './tables.js';

export interface StateTable {
  /** The 50 states, DC and the national row (fips 00, state US), ordered by FIPS. */
  readonly rows: readonly StateRow[];
  /**
   * A state by FIPS ('06', '6' or 6) or USPS code ('CA'); 'US' or '00' give the national row.
   * Undefined when unknown (territories are unknown: BEA publishes no RPP for them).
   */
  get(fipsOrCode: string | number): StateRow | undefined;
  /** BEA SARPP 2023 of a state, same keys as `get`. Throws a RangeError for an unknown state. */
  statePriceParities(fipsOrCode: string | number): PriceParities;
}

const isFips = (key: string) => /^[0-9]{1,2}$/.test(key);

export function buildStateTable(rows: readonly StateRow[]): StateTable {
  const byKey = new Map<string, StateRow>();
  for (const row of rows) {
    byKey.set(row.fips, row);
    byKey.set(row.state, row);
  }
  const get = (fipsOrCode: string | number) => {
    const key = String(fipsOrCode).trim();
    return byKey.get(isFips(key) ? key.padStart(2, '0') : key.toUpperCase());
  };
  return {
    rows,
    get,
    statePriceParities(fipsOrCode) {
      const row = get(fipsOrCode);
      if (row === undefined) throw new RangeError(`geo: no state price parities for "${fipsOrCode}"`);
      return row.rpp;
    },
  };
}
