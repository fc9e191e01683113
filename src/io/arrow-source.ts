/**
 * Arrow IPC input, file or stream format (apache-arrow detects which), read batch by batch. Column kinds come
 * from the Arrow types so that the job can refuse, before reading rows, a column whose type cannot hold its
 * field. Numeric and Utf8 columns are copied out as typed columns (src/io/typed-columns.ts) for the
 * workers to read; other columns (booleans, dictionaries, ...) as plain values.
 */
import { open } from 'node:fs/promises';
import {
  type DataType,
  type RecordBatch,
  RecordBatchReader,
  Type,
  type Utf8,
  type Vector,
} from '../vendor/apache-arrow.js';
import type { ColumnKind } from './column-mapping.js';
import type { CellColumn, InputSource, SourceBatch } from './input-source.js';
import type { Cell, NumberArray, TypedColumn } from './typed-columns.js';

export function columnKindOf(type: DataType): ColumnKind {
  switch (type.typeId) {
    case Type.Int:
    case Type.Float:
      return 'number';
    case Type.Bool:
      return 'boolean';
    case Type.Utf8:
    case Type.LargeUtf8:
      return 'text';
    case Type.Dictionary:
      return columnKindOf((type as unknown as { dictionary: DataType }).dictionary) === 'text'
        ? 'text'
        : 'other';
    default:
      return 'other';
  }
}

// Copies, not views: a view would drag the whole IPC body buffer along when posted to a worker.
function cellsOf(vector: Vector, kind: ColumnKind): CellColumn {
  if (kind === 'number' && vector.type.typeId !== Type.Float16)
    return { kind: 'numbers', values: (vector.toArray() as NumberArray).slice(), nulls: nullsOf(vector) };
  if (vector.type.typeId === Type.Utf8) return textOf(vector as Vector<Utf8>);
  const cells: Cell[] = new Array(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const value: unknown = vector.get(i);
    cells[i] = value === null || typeof value !== 'object' ? (value as Cell) : String(value);
  }
  return cells;
}

/** One byte per row, 1 where the value is null (null: no nulls), from the Arrow validity bits. */
function nullsOf(vector: Vector): Uint8Array | null {
  if (vector.nullCount === 0) return null;
  const nulls = new Uint8Array(vector.length);
  let row = 0;
  for (const data of vector.data) {
    const bitmap = data.nullCount === 0 ? undefined : data.nullBitmap;
    for (let i = 0; i < data.length; i++, row++) {
      const bit = data.offset + i;
      if (bitmap !== undefined && (bitmap[bit >> 3]! & (1 << (bit & 7))) === 0) nulls[row] = 1;
    }
  }
  return nulls;
}

/**
 * The column's UTF-8 bytes and offsets, rebased to start at 0. Slicing a batch leaves the bytes whole and
 * narrows the offsets (indexed from 0 in each slice); the validity bits instead keep `data.offset`.
 */
function textOf(vector: Vector<Utf8>): TypedColumn {
  const valueOffsets = new Int32Array(vector.length + 1);
  const chunks = vector.data.map((data) =>
    data.values.subarray(data.valueOffsets[0]!, data.valueOffsets[data.length]!),
  );
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let row = 0;
  let at = 0;
  vector.data.forEach((data, d) => {
    const offsets = data.valueOffsets;
    const base = offsets[0]!;
    for (let i = 1; i <= data.length; i++) valueOffsets[row + i] = at + offsets[i]! - base;
    bytes.set(chunks[d]!, at);
    row += data.length;
    at += chunks[d]!.byteLength;
  });
  return { kind: 'text', valueOffsets, data: bytes, nulls: nullsOf(vector) };
}

export async function openArrowSource(path: string, batchRows: number): Promise<InputSource> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  let reader: Awaited<ReturnType<typeof RecordBatchReader.from>>;
  try {
    reader = await RecordBatchReader.from(handle);
    await reader.open();
  } catch (error) {
    await handle.close();
    throw new Error(
      `${path} is not a readable Arrow IPC file or stream: ${error instanceof Error ? error.message : error}`,
    );
  }
  const fields = reader.schema.fields;
  const header = fields.map((field) => field.name);
  const kinds = fields.map((field) => columnKindOf(field.type));
  let bytesRead = 0;

  async function* batches(): AsyncIterable<SourceBatch> {
    let firstRow = 1;
    const wholeBatches = reader[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<RecordBatch>;
      try {
        next = await wholeBatches.next();
      } catch (error) {
        // A truncated or corrupt file fails mid-read; say which file, what kind, and how far it got.
        throw new Error(
          `${path}: the Arrow data is truncated or corrupt after row ${firstRow - 1}: ${error instanceof Error ? error.message : error}`,
        );
      }
      if (next.done) return;
      const whole = next.value;
      // Large writer batches are cut so that a work unit stays small (memory, worker balance).
      for (let start = 0; start < whole.numRows; start += batchRows) {
        const batch = whole.slice(start, Math.min(whole.numRows, start + batchRows));
        const columns = fields.map((_, c) => cellsOf(batch.getChildAt(c)!, kinds[c]!));
        yield { firstRow, length: batch.numRows, cells: { kind: 'columns', columns }, arrow: batch };
        firstRow += batch.numRows;
      }
      bytesRead += whole.data.byteLength;
    }
  }

  return {
    format: 'arrow',
    header,
    kinds,
    arrowFields: fields,
    sizeBytes: size,
    bytesRead: () => Math.min(bytesRead, size),
    batches,
    close: async () => {
      await reader.cancel();
      await handle.close().catch(() => undefined);
    },
  };
}
