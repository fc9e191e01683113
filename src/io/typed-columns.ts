/**
 * Arrow input columns as they travel to a scoring worker: typed arrays that are transferred, not
 * structured-cloned cell by cell. Reading every cell into a JS value on the main thread (nullable numbers,
 * and text, which means a UTF-8 decode per cell) and cloning those values was most of Arrow input's
 * main-thread time; the worker now reads each cell where it uses it. Free of apache-arrow at run time, so
 * workers do not load it.
 */
import type { Cell } from './row-request.js';

export type NumberArray =
  | Float64Array
  | Float32Array
  | Int32Array
  | Int16Array
  | Int8Array
  | Uint32Array
  | Uint16Array
  | Uint8Array
  | BigInt64Array
  | BigUint64Array;

export type TypedColumn =
  | {
      readonly kind: 'numbers';
      readonly values: NumberArray;
      /** One byte per row, 1 where the cell is null; null when the column has no nulls. */
      readonly nulls: Uint8Array | null;
    }
  | {
      readonly kind: 'text';
      /** length + 1 offsets into `data`, starting at 0. */
      readonly valueOffsets: Int32Array;
      readonly data: Uint8Array;
      readonly nulls: Uint8Array | null;
    };

const decoder = new TextDecoder();

export function typedCellAt(column: TypedColumn, row: number): Cell {
  if (column.nulls?.[row] === 1) return null;
  if (column.kind === 'numbers') return column.values[row];
  return decoder.decode(column.data.subarray(column.valueOffsets[row], column.valueOffsets[row + 1]));
}

/** The buffers a posted batch can hand over instead of copying. */
export function typedColumnBuffers(column: TypedColumn): ArrayBuffer[] {
  const views = column.kind === 'numbers' ? [column.values] : [column.valueOffsets, column.data];
  if (column.nulls !== null) views.push(column.nulls);
  return views.map((view) => view.buffer as ArrayBuffer);
}
