/**
 * Comparing two runs of `outlay score` row by row: the scored CSV of each, keyed by the input's `id`
 * column, so that a run that rejected some rows can still be checked against a complete one.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';

/** Scored rows by id, each as its full record (input columns and every derived column). */
export async function scoredRowsById(path: string): Promise<Map<string, string>> {
  const [header, ...records] = parse(await readFile(path)) as string[][];
  const id = header!.indexOf('id');
  if (id < 0) throw new Error(`${path} has no id column`);
  return new Map(records.map((record) => [record[id]!, JSON.stringify(record)]));
}

/** Ids whose scored row differs from the reference run's, or that the reference run did not score. */
export function differingRows(
  rows: ReadonlyMap<string, string>,
  reference: ReadonlyMap<string, string>,
): string[] {
  return [...rows].filter(([id, row]) => reference.get(id) !== row).map(([id]) => id);
}
