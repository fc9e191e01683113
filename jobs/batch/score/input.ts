/**
 * The job's input: its format, read from the file name (or `--input-format` for standard input), the
 * column map, and the source of its batches.
 */
import { access, constants } from 'node:fs/promises';
import { basename } from 'node:path';
import { type ColumnMap, DEFAULT_COLUMN_MAP, loadColumnMap } from '../io/column-mapping.js';
import { type CsvOptions, openCsvSource } from '../io/csv-source.js';
import type { InputPart, InputSource } from '../io/input-source.js';
import type { FileFormat } from './layout.js';

export interface JobInput {
  readonly source: InputSource;
  readonly map: ColumnMap;
}

/** How the input is read: its format, and for CSV the dialect (`gzip` is set from the file name). */
export interface InputOptions {
  readonly format: FileFormat;
  readonly csv: CsvOptions;
}

/** File name endings of each input format; the longest that matches decides. */
const INPUT_ENDINGS: readonly (readonly [string, FileFormat])[] = [
  ['.csv.gz', 'csv'],
  ['.csv', 'csv'],
  ['.arrow', 'arrow'],
  ['.arrows', 'arrow'],
  ['.feather', 'arrow'],
  ['.parquet', 'parquet'],
];

const endingOf = (input: string) => INPUT_ENDINGS.find(([ending]) => input.toLowerCase().endsWith(ending));

/** `households.csv` and `households.csv.gz` → `households`; standard input → `stdin`. */
export function outputNameOf(input: string): string {
  if (input === '-') return 'stdin';
  const name = basename(input);
  const ending = endingOf(name);
  return ending === undefined ? name.replace(/\.[^.]*$/, '') : name.slice(0, -ending[0].length);
}

/** The input's format: `stdinFormat` (CSV when not given) for `-`, else the file name's ending. */
export function inputFormatOf(input: string, stdinFormat?: FileFormat): FileFormat {
  if (input === '-') return stdinFormat ?? 'csv';
  const ending = endingOf(input);
  if (ending !== undefined) return ending[1];
  throw new Error(
    `${input}: unknown input type "${basename(input)}"; expected .csv, .csv.gz, .arrow (IPC file or stream), .parquet, or - for standard input`,
  );
}

/** Whether the CSV input is gzip-compressed, as its name says. */
export const isGzipInput = (input: string) => input.toLowerCase().endsWith('.gz');

/** Loads the column map (the default one without a file), then opens the input for batches of `batchRows`. */
export async function openInput(
  input: string,
  options: InputOptions,
  mapFile: string | undefined,
  batchRows: number,
  part?: InputPart,
): Promise<JobInput> {
  if (input !== '-') await checkReadable(input);
  const map = mapFile === undefined ? DEFAULT_COLUMN_MAP : await loadColumnMap(mapFile);
  return { source: await openSource(input, options, batchRows, part), map };
}

/** Stops the job with one line naming the input when it is missing or unreadable. */
async function checkReadable(input: string): Promise<void> {
  try {
    await access(input, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `input file ${input} does not exist`
        : `input file ${input} cannot be read (${code ?? String(error)})`,
    );
  }
}

/** The input's source; with `part`, of that shard's rows only. */
async function openSource(
  input: string,
  options: InputOptions,
  batchRows: number,
  part: InputPart | undefined,
): Promise<InputSource> {
  // Loaded on use, like the Arrow sink: a CSV job never needs apache-arrow or parquet-wasm in memory.
  switch (options.format) {
    case 'csv':
      return openCsvSource(input, batchRows, { ...options.csv, gzip: isGzipInput(input) }, part);
    case 'arrow':
      return (await import('../io/arrow-source.js')).openArrowSource(input, batchRows, part);
    case 'parquet':
      if (input === '-')
        throw new Error(
          'Parquet cannot be read from standard input (its index is at the end): name the file',
        );
      return (await import('../io/parquet-source.js')).openParquetSource(input, batchRows, part);
  }
}
