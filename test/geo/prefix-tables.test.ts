/**
 * The resolver the engine loads (ZIP-keyed tables parsed a prefix at a time) against the one built from
 * the extract parsed whole, over every 5-digit code; and the checks the prefix index makes on a table.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGeoExtract, loadGeoResolver } from '../../src/geo/load.js';
import { buildGeoResolver } from '../../src/geo/resolver.js';
import { prefixIndexedTable, ZIP_RENT_TABLE } from '../../src/geo/tables.js';
import type { GeoResolver } from '../../src/geo/types.js';

let whole: GeoResolver;
let byPrefix: GeoResolver;
beforeAll(async () => {
  whole = buildGeoResolver(await loadGeoExtract());
  byPrefix = await loadGeoResolver();
});

const codes = Array.from({ length: 100_000 }, (_, zip) => String(zip).padStart(5, '0'));

describe('loadGeoResolver, prefixes parsed on first use', () => {
  it('resolve and knows, every code 00000-99999 in descending order, equal the resolver of the whole extract', () => {
    // Descending, so that a prefix is first placed by its last code rather than its first.
    const mismatches = [...codes].reverse().filter((zip) => {
      const known = byPrefix.knows(zip);
      return (
        known !== whole.knows(zip) ||
        JSON.stringify(byPrefix.resolve(zip)) !== JSON.stringify(whole.resolve(zip))
      );
    });
    expect(mismatches).toEqual([]);
  });

  it('resolve, a code asked twice, returns the same shared object', () => {
    expect(byPrefix.resolve('35210')).toBe(byPrefix.resolve('35210'));
  });
});

describe('prefixIndexedTable', () => {
  const table = (lines: string[]) => `zip\trent_index\n${lines.join('\n')}\n`;

  it('rowsOf, a prefix with lines, parses only that prefix', () => {
    const rows = prefixIndexedTable(
      ZIP_RENT_TABLE,
      table(['35210\t0.9', '35211\t1.1', '36201\tbad']),
      't.tsv',
    );
    expect(rows.rowsOf(352)).toEqual([
      { zip: '35210', rentIndex: 0.9 },
      { zip: '35211', rentIndex: 1.1 },
    ]);
    expect(rows.rowsOf(353)).toEqual([]);
    expect(() => rows.rowsOf(362)).toThrow(/not a number: "bad"/);
  });

  it('a line out of ZIP order, throws naming the file and line', () => {
    expect(() => prefixIndexedTable(ZIP_RENT_TABLE, table(['36201\t1', '35210\t1']), 't.tsv')).toThrow(
      't.tsv: line 3 is out of ZIP order',
    );
  });

  it('a line without a 5-digit ZIP first, throws naming the file and line', () => {
    expect(() => prefixIndexedTable(ZIP_RENT_TABLE, table(['35210\t1', '3521\t1']), 't.tsv')).toThrow(
      't.tsv: line 3 does not start with a 5-digit ZIP',
    );
  });

  it('a header other than the columns, throws', () => {
    expect(() => prefixIndexedTable(ZIP_RENT_TABLE, 'zip\trent\n35210\t1\n', 't.tsv')).toThrow(
      /expected columns/,
    );
  });
});
