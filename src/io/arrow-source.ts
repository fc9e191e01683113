/**
 * Arrow IPC input, file or stream format (apache-arrow detects which), read batch by batch. Column kinds come
 * from the Arrow types so that the job can refuse, before reading rows, a column whose type cannot hold its
 * field. Cells are extracted per column: numeric columns without nulls as their typed arrays (no per-cell
 * objects), everything else as plain values.
 */
import { open } from 'node:fs/promises';
import { type DataType, type RecordBatch, RecordBatchReader, Type, type Vector } from 'apache-arrow';
import type { ColumnKind } from './column-mapping.js';
import type { InputSource, SourceBatch } from './input-source.js';
import type { Cell } from './row-request.js';

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

function cellsOf(vector: Vector, kind: ColumnKind): ArrayLike<Cell> {
  // A copy, not a view: a view would drag the whole IPC body buffer along when posted to a worker.
  if (kind === 'number' && vector.nullCount === 0)
    return (vector.toArray() as Float64Array | BigInt64Array).slice();
  const cells: Cell[] = new Array(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const value: unknown = vector.get(i);
    cells[i] = value === null || typeof value !== 'object' ? (value as Cell) : String(value);
  }
  return cells;
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
