/**
 * CSV text of a sample, RFC 4180. Formatted here rather than with csv-stringify: the cells are our own
 * numbers, booleans and short strings, and csv-stringify's general per-field machinery measured ~8× slower
 * (12.6 µs vs 1.6 µs a row), which would make a 10M-row benchmark file take minutes instead of seconds.
 * The tests read the output back with csv-parse.
 */
import { SAMPLE_COLUMNS, type SampleRow } from './columns.js';

const NEEDS_QUOTES = /[",\r\n]/;

/** Booleans as true/false, not given (null) as an empty cell, text quoted only when it must be. */
function csvCell(value: SampleRow[keyof SampleRow]): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const csvLine = (row: SampleRow) => `${SAMPLE_COLUMNS.map((column) => csvCell(row[column])).join(',')}\n`;

/** The header, then the CSV text of each batch. */
export function* csvChunks(batches: Iterable<SampleRow[]>): Generator<string> {
  yield `${SAMPLE_COLUMNS.join(',')}\n`;
  for (const batch of batches) yield batch.map(csvLine).join('');
}
