/**
 * What the batch job reads: a header, the kind of each column, and batches of cells with their 1-based
 * row numbers (data rows only; the header is not counted). CSV and Arrow sources both produce this.
 */
import type { Field, RecordBatch } from 'apache-arrow';
import type { ColumnKind } from './column-mapping.js';
import type { Cell } from './row-request.js';

/** Cells of a batch: CSV rows as text, or Arrow columns as values (typed arrays where possible). */
export type CellGrid =
  | { readonly kind: 'rows'; readonly rows: string[][] }
  | { readonly kind: 'columns'; readonly columns: ArrayLike<Cell>[] };

export interface SourceBatch {
  /** Row number of the batch's first row. */
  readonly firstRow: number;
  readonly length: number;
  readonly cells: CellGrid;
  /** The Arrow batch the cells came from, so Arrow output can pass input columns through unconverted. */
  readonly arrow?: RecordBatch;
}

export interface InputSource {
  readonly format: 'csv' | 'arrow';
  readonly header: readonly string[];
  readonly kinds: readonly ColumnKind[];
  /** The input's Arrow fields (types included), for Arrow output to keep them; absent for CSV. */
  readonly arrowFields?: readonly Field[];
  /** Input size in bytes when known (a file, not stdin), for the progress ETA. */
  readonly sizeBytes: number | undefined;
  /** Bytes consumed so far. */
  bytesRead(): number;
  batches(): AsyncIterable<SourceBatch>;
  close(): Promise<void>;
}

export const cellAt = (cells: CellGrid, row: number, column: number): Cell =>
  cells.kind === 'rows' ? cells.rows[row]?.[column] : cells.columns[column]?.[row];
