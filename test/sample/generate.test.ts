import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../src/contract/validate.js';
import { BAD_ROW_KINDS } from '../../src/sample/bad-rows.js';
import { SAMPLE_COLUMNS } from '../../src/sample/columns.js';
import { badRowPositions } from '../../src/sample/generate.js';
import { parseCsv, requestOf, sampleCsv } from './rows.js';

describe('sample generator determinism', () => {
  it('writes identical bytes for the same seed', () => {
    expect(sampleCsv({ rows: 5000, seed: 7 })).toBe(sampleCsv({ rows: 5000, seed: 7 }));
  });

  it('writes different households for a different seed', () => {
    expect(sampleCsv({ rows: 100, seed: 7 })).not.toBe(sampleCsv({ rows: 100, seed: 8 }));
  });

  it('keeps the clean rows unchanged when bad rows are added', () => {
    const clean = parseCsv(sampleCsv({ rows: 2000, seed: 3 }));
    const withBad = parseCsv(sampleCsv({ rows: 2000, seed: 3, badRows: 12 }));
    const bad = badRowPositions(2000, 12, 3);
    const differing = clean.flatMap((row, i) =>
      JSON.stringify(row) === JSON.stringify(withBad[i]) ? [] : [i],
    );
    expect(differing).toEqual([...bad.keys()]);
  });

  it('writes exactly the contract columns, in order, and ids 1..N', () => {
    const text = sampleCsv({ rows: 3, seed: 1 });
    expect(text.split('\n')[0]).toBe(SAMPLE_COLUMNS.join(','));
    expect(parseCsv(text).map((r) => r.id)).toEqual(['1', '2', '3']);
  });
});

describe('sample rows against the request contract', () => {
  it('every clean row of 20,000 is a valid request, with take-home above zero', () => {
    const rejected = parseCsv(sampleCsv({ rows: 20_000, seed: 11 }))
      .map((row) => ({ id: row.id, result: validateRequest(requestOf(row)) }))
      .filter(({ result }) => !result.ok);
    expect(rejected).toEqual([]);
  });

  it('each bad-row kind is rejected with the error it documents', () => {
    const rows = parseCsv(sampleCsv({ rows: 500, seed: 5, badRows: BAD_ROW_KINDS.length }));
    const positions = badRowPositions(500, BAD_ROW_KINDS.length, 5);
    for (const [position, k] of positions) {
      const kind = BAD_ROW_KINDS[k]!;
      const result = validateRequest(requestOf(rows[position]!));
      expect(result.ok, kind.name).toBe(false);
      if (!result.ok) expect(result.error.errors, kind.name).toContainEqual(kind.rejects);
    }
  });

  it('rejects more bad rows than rows', () => {
    expect(() => sampleCsv({ rows: 3, seed: 1, badRows: 4 })).toThrow(/bad rows/);
  });
});
