/**
 * Reading what `outlay score` left in its output directory: which files exist under final (non-hidden)
 * names, the counts in the summary, and the records actually in the scored and rejects files, so a suite can
 * check that every input row is accounted for exactly once.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { parse } from 'csv-parse/sync';

export interface SummaryCounts {
  readonly rows_in: number;
  readonly rows_scored: number;
  readonly rows_rejected: number;
  readonly rejected_by_reason: Record<string, number>;
}

/** Files a reader would take for output: everything not hidden (temporary files and checkpoints are dotfiles). */
export async function finalFilesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => !name.startsWith('.')).sort();
  } catch {
    return [];
  }
}

export async function summaryCounts(outDir: string, name: string): Promise<SummaryCounts> {
  const summary = JSON.parse(await readFile(join(outDir, `${name}.summary.json`), 'utf8')) as {
    counts: SummaryCounts;
  };
  return summary.counts;
}

/** Data records (header excluded) of a CSV output file. */
export async function csvRecords(path: string): Promise<string[][]> {
  const records = parse(await readFile(path), { relax_column_count: true }) as string[][];
  return records.slice(1);
}

/** Rows of the scored file, CSV or Arrow. */
export async function scoredRowCount(path: string): Promise<number> {
  if (path.endsWith('.arrow')) return tableFromIPC(await readFile(path)).numRows;
  return (await csvRecords(path)).length;
}

export interface Reconciliation {
  readonly counts: SummaryCounts;
  readonly scoredRows: number;
  readonly rejectRows: number;
  readonly firstRejectReason: string | undefined;
}

/** The summary's counts beside the rows really written; a caller asserts they agree. */
export async function reconcile(
  outDir: string,
  name: string,
  scoredExtension: 'csv' | 'arrow',
): Promise<Reconciliation> {
  const counts = await summaryCounts(outDir, name);
  const rejects = await csvRecords(join(outDir, `${name}.rejects.csv`));
  return {
    counts,
    scoredRows: await scoredRowCount(join(outDir, `${name}.scored.${scoredExtension}`)),
    rejectRows: rejects.length,
    firstRejectReason: rejects[0]?.at(-1),
  };
}
