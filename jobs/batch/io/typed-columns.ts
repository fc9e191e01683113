/**
 * Arrow input columns as they travel to a scoring worker: typed arrays that are transferred, not
 * structured-cloned cell by cell. Reading every cell into a JS value on the main thread (nullable numbers,
 * and text, which means a UTF-8 decode per cell) and cloning those values was most of Arrow input's
 * main-thread time; the worker now reads each cell where it uses it. Free of apache-arrow at run time, so
 * workers do not load it.
 */
/** An input cell's value: CSV text, or a typed Arrow value; null or undefined when the cell is empty. */
export type Cell = string | number | boolean | bigint | null | undefined;

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

/** Longest cell built code unit by code unit; longer ones cost less through the decoder. */
const SHORT_TEXT_BYTES = 16;

export function typedCellAt(column: TypedColumn, row: number): Cell {
  if (column.nulls?.[row] === 1) return null;
  if (column.kind === 'numbers') return column.values[row];
  const { data, valueOffsets } = column;
  const start = valueOffsets[row]!;
  const end = valueOffsets[row + 1]!;
  const short = end - start <= SHORT_TEXT_BYTES ? shortAscii(data, start, end) : undefined;
  return short ?? decoder.decode(data.subarray(start, end));
}

/**
 * A short all-ASCII cell (a ZIP code, a household type) as a string, or undefined for any other byte. The
 * decoder's call and the view it needs cost more than these few bytes: it was most of reading a row.
 */
function shortAscii(data: Uint8Array, start: number, end: number): string | undefined {
  let text = '';
  for (let i = start; i < end; i++) {
    const byte = data[i]!;
    if (byte > 0x7f) return undefined;
    text += String.fromCharCode(byte);
  }
  return text;
}

/** The buffers a posted batch can hand over instead of copying. */
export function typedColumnBuffers(column: TypedColumn): ArrayBuffer[] {
  const views = column.kind === 'numbers' ? [column.values] : [column.valueOffsets, column.data];
  if (column.nulls !== null) views.push(column.nulls);
  return views.map((view) => view.buffer as ArrayBuffer);
}
