/**
 * The model card's benchmarks-against-standards block (docs/model.md, "Benchmarks against public
 * standards"; jobs/build-model/validate-benchmarks.ts) is what the shipped engine gives today: regenerated
 * from the committed model, geography and standards, byte for byte the text between the card's markers.
 * Needs no raw data: `outlay build-model --validate --only benchmark-standards` writes the same function's
 * output.
 */
import { describe, expect, it } from 'vitest';
import { benchmarkStandardsTable } from '../../../jobs/build-model/validate-benchmarks.js';
import { loadEngine } from '../../../src/runtime/load-engine.js';
import { committedSection } from './card-section.js';

const committed = committedSection('benchmark-standards');

describe('benchmarkStandardsTable', () => {
  it('benchmarkStandardsTable: the shipped engine, gives the card block byte for byte', async () => {
    expect(benchmarkStandardsTable(await loadEngine()).trim()).toBe(committed);
  });

  it('benchmarkStandardsTable: sizes 1 to 8, food at home held to USDA Thrifty (4 persons: $11,920.76, data/reference/benchmark-floors.json)', () => {
    const rows = committed.split('\n').filter((line) => /^\| \d \|/.test(line));
    expect(rows.map((row) => row.split(' | ')[0])).toEqual([
      '| 1',
      '| 2',
      '| 3',
      '| 4',
      '| 5',
      '| 6',
      '| 7',
      '| 8',
    ]);
    expect(rows[3]).toMatch(/^\| 4 \| 11,921 \| 11,921 \| 100% \|/);
  });
});
