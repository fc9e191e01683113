/**
 * BLS's own 2014 means (sample-program output, `2014_*_Mean_and_SE.csv`): rows are stub line titles with a
 * MEAN and an SE row each. Titles repeat (e.g. "Maintenance and repairs"), so the k-th stub line with a
 * title is matched to the k-th MEAN row with that title.
 */
import type { StubLine } from './stub.js';

/** Titles are compared on their first 50 characters: the CSV pads or cuts them at a fixed width. */
const TITLE_WIDTH = 50;

/** All-CU mean of each stub line, keyed by stub code (first occurrence of a code wins). */
export function meansByStubCode(stub: readonly StubLine[], rows: readonly string[][]): Map<string, number> {
  const meansByTitle = new Map<string, number[]>();
  for (const row of rows) {
    if (row[1] !== 'MEAN') continue;
    const title = (row[0] ?? '').trim().slice(0, TITLE_WIDTH);
    meansByTitle.set(title, [...(meansByTitle.get(title) ?? []), Number(row[2])]);
  }
  const seen = new Map<string, number>();
  const byCode = new Map<string, number>();
  for (const line of stub) {
    const title = line.title.slice(0, TITLE_WIDTH);
    const k = seen.get(title) ?? 0;
    seen.set(title, k + 1);
    const value = meansByTitle.get(title)?.[k];
    if (value !== undefined && !byCode.has(line.code)) byCode.set(line.code, value);
  }
  return byCode;
}
