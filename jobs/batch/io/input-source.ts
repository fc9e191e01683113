/**
 * What the batch job reads: a header, the kind of each column, and batches of cells with their 1-based
 * row numbers (data rows only; the header is not counted). CSV and Arrow sources both produce this.
 */
import type { Field, RecordBatch } from '../../../src/vendor/apache-arrow.js';
import type { ColumnKind } from './column-mapping.js';
import type { Unreadable } from './csv-records.js';
import type { LineSpanReport } from './line-spans.js';
import { type Cell, type TypedColumn, typedCellAt, typedColumnBuffers } from './typed-columns.js';

/** An input column of a batch: values, or (Arrow input) the typed buffers they are read from. */
export type CellColumn = readonly Cell[] | TypedColumn;

/**
 * Cells of a batch: CSV rows as text (a record that could not be read is an empty row, with why in
 * `unreadable` by row index), or Arrow columns.
 */
export type CellGrid =
  | {
      readonly kind: 'rows';
      readonly rows: string[][];
      readonly unreadable?: ReadonlyMap<number, Unreadable>;
    }
  | { readonly kind: 'columns'; readonly columns: CellColumn[] };

export interface SourceBatch {
  /** Row number of the batch's first row. */
  readonly firstRow: number;
  readonly length: number;
  readonly cells: CellGrid;
  /** The Arrow batch the cells came from, so Arrow output can pass input columns through unconverted. */
  readonly arrow?: RecordBatch;
}

export interface InputSource {
  readonly format: 'csv' | 'arrow' | 'parquet';
  readonly header: readonly string[];
  readonly kinds: readonly ColumnKind[];
  /** CSV: the field delimiter, given or read off the header line (./csv-dialect.ts). */
  readonly delimiter?: string;
  /** The input's Arrow fields (types included), for Arrow output to keep them; absent for CSV. */
  readonly arrowFields?: readonly Field[];
  /** Input size in bytes when known (a file, not stdin), for the progress ETA. */
  readonly sizeBytes: number | undefined;
  /** Bytes consumed so far. */
  bytesRead(): number;
  /** CSV: the records read so far that span several lines. */
  lineSpans?(): LineSpanReport;
  batches(): AsyncIterable<SourceBatch>;
  close(): Promise<void>;
}

/** One shard of an input (`--shard I/N`): `index` of `count`, 0-based. */
export interface InputPart {
  readonly index: number;
  readonly count: number;
}

/** The whole units (Arrow record batches, Parquet row groups) a shard reads, and its first row number. */
export interface UnitRange {
  /** Index of the first unit, and the one after the last. */
  readonly from: number;
  readonly to: number;
  readonly firstRow: number;
}

/**
 * Shard `part`'s units of these lengths in rows: those whose first row falls in its share of the rows,
 * [index·rows/count, (index+1)·rows/count), so that the shards are balanced by rows as far as whole units
 * allow and every unit is read by exactly one shard.
 */
export function unitRangeOf(lengths: readonly number[], part: InputPart): UnitRange {
  const total = lengths.reduce((sum, length) => sum + length, 0);
  const lower = Math.floor((part.index * total) / part.count);
  const upper = Math.floor(((part.index + 1) * total) / part.count);
  let from = 0;
  let before = 0;
  for (; from < lengths.length && before < lower; from++) before += lengths[from]!;
  let to = from;
  for (let row = before; to < lengths.length && row < upper; to++) row += lengths[to]!;
  return { from, to, firstRow: before + 1 };
}

export function cellAt(cells: CellGrid, row: number, column: number): Cell {
  if (cells.kind === 'rows') return cells.rows[row]?.[column];
  const cellColumn = cells.columns[column];
  if (cellColumn === undefined) return undefined;
  return 'kind' in cellColumn ? typedCellAt(cellColumn, row) : cellColumn[row];
}

/** The given rows of a batch's cells, as plain values. */
export function selectCells(cells: CellGrid, selection: Int32Array): CellGrid {
  if (cells.kind === 'rows') {
    const rows = Array.from(selection, (i) => cells.rows[i]!);
    const { unreadable } = cells;
    if (unreadable === undefined) return { kind: 'rows', rows };
    const chosen = new Map<number, Unreadable>();
    selection.forEach((i, at) => {
      const problem = unreadable.get(i);
      if (problem !== undefined) chosen.set(at, problem);
    });
    return { kind: 'rows', rows, unreadable: chosen };
  }
  return {
    kind: 'columns',
    columns: cells.columns.map((_, c) => Array.from(selection, (i) => cellAt(cells, i, c))),
  };
}

/**
 * Buffers of the typed columns, to transfer rather than copy when the batch is posted to a worker. The
 * batch's typed columns are unusable in the sender afterwards (Arrow output passes input columns through
 * from `SourceBatch.arrow`, never from the cells).
 */
export function cellBuffers(cells: CellGrid): ArrayBuffer[] {
  if (cells.kind === 'rows') return [];
  return cells.columns.flatMap((column) => ('kind' in column ? typedColumnBuffers(column) : []));
}
