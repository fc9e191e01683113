/**
 * The row stream of a sample file: N households drawn independently from the population, with K of them
 * replaced by deliberately bad rows at seeded positions. Rows come in batches so writers can stream any N
 * with flat memory.
 */
import { badRowKind } from './bad-rows.js';
import type { SampleRow } from './columns.js';
import { drawHousehold } from './household.js';
import type { Population } from './population.js';
import { Random } from './random.js';

export interface SampleOptions {
  rows: number;
  seed: number;
  /** How many rows to make deliberately bad (default 0: clean input, as benchmarks need). */
  badRows?: number;
}

const HOUSEHOLD_STREAM = 0;
const BAD_ROW_STREAM = 1;
const BATCH_ROWS = 8192;

/** 0-based row positions of the bad rows mapped to their kind order, drawn without replacement (Floyd). */
export function badRowPositions(rows: number, badRows: number, seed: number): Map<number, number> {
  const random = new Random(seed, BAD_ROW_STREAM);
  const chosen = new Set<number>();
  for (let j = rows - badRows; j < rows; j++) {
    const t = random.integer(0, j);
    chosen.add(chosen.has(t) ? j : t);
  }
  return new Map([...chosen].sort((a, b) => a - b).map((position, k) => [position, k]));
}

export function* sampleBatches(population: Population, options: SampleOptions): Generator<SampleRow[]> {
  const { rows, seed, badRows = 0 } = options;
  if (!Number.isSafeInteger(rows) || rows < 0)
    throw new Error(`rows must be a non-negative integer, got ${rows}`);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new Error(`seed must be a non-negative integer, got ${seed}`);
  if (!Number.isSafeInteger(badRows) || badRows < 0 || badRows > rows) {
    throw new Error(`bad rows must be an integer from 0 to the number of rows, got ${badRows}`);
  }
  const random = new Random(seed, HOUSEHOLD_STREAM);
  const bad = badRowPositions(rows, badRows, seed);
  for (let start = 0; start < rows; start += BATCH_ROWS) {
    const end = Math.min(rows, start + BATCH_ROWS);
    const batch: SampleRow[] = [];
    for (let i = start; i < end; i++) {
      // Bad rows are corrupted copies of the row drawn there, so the clean rows do not depend on K.
      const row: SampleRow = drawHousehold(String(i + 1), population, random);
      const kind = bad.get(i);
      if (kind !== undefined) badRowKind(kind).corrupt(row);
      batch.push(row);
    }
    yield batch;
  }
}
