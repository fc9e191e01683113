/**
 * The job's input: its format, read from the file name, the column map, and the source of its batches.
 */
import { basename, extname } from 'node:path';
import { type ColumnMap, DEFAULT_COLUMN_MAP, loadColumnMap } from '../../src/io/column-mapping.js';
import { openCsvSource } from '../../src/io/csv-source.js';
import type { InputSource } from '../../src/io/input-source.js';
import type { OutputFormat } from './layout.js';

export interface JobInput {
  readonly source: InputSource;
  readonly map: ColumnMap;
}

/** `households.csv` → `households`; standard input → `stdin`. */
export const outputNameOf = (input: string) => (input === '-' ? 'stdin' : basename(input, extname(input)));

export function inputFormatOf(input: string): OutputFormat {
  if (input === '-') return 'csv';
  const extension = extname(input).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.arrow' || extension === '.arrows' || extension === '.feather') return 'arrow';
  throw new Error(
    `${input}: unknown input type "${extension}"; expected .csv, .arrow (IPC file or stream) or - for CSV on stdin`,
  );
}

/** Loads the column map (the default one without a file), then opens the input for batches of `batchRows`. */
export async function openInput(
  input: string,
  format: OutputFormat,
  mapFile: string | undefined,
  batchRows: number,
): Promise<JobInput> {
  const map = mapFile === undefined ? DEFAULT_COLUMN_MAP : await loadColumnMap(mapFile);
  const source =
    format === 'csv'
      ? await openCsvSource(input, batchRows)
      : // Loaded on use, like the Arrow sink: a CSV job never needs apache-arrow in memory.
        await (await import('../../src/io/arrow-source.js')).openArrowSource(input, batchRows);
  return { source, map };
}
