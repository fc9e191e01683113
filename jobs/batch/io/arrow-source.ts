/**
 * Arrow IPC input, file or stream format (apache-arrow detects which), read batch by batch; Parquet input
 * (./parquet-source.ts) comes through here as Arrow batches too. Column kinds come
 * from the Arrow types so that the job can refuse, before reading rows, a column whose type cannot hold its
 * field. Numeric and Utf8 columns are copied out as typed columns (jobs/batch/io/typed-columns.ts) for the
 * workers to read; other columns (booleans, dictionaries, ...) as plain values, nested ones as JSON and
 * dates and timestamps as ISO 8601 text (./arrow-cell-text.ts).
 */
import { type FileHandle, open } from 'node:fs/promises';
import {
  type AsyncRecordBatchFileReader,
  type AsyncRecordBatchStreamReader,
  type DataType,
  type Decimal,
  type Field,
  Message,
  type RecordBatch,
  RecordBatchReader,
  Type,
  type Utf8,
  util,
  type Vector,
} from '../../../src/vendor/apache-arrow.js';
import { cellTextReader } from './arrow-cell-text.js';
import type { ColumnKind } from './column-mapping.js';
import {
  type CellColumn,
  type InputPart,
  type InputSource,
  type SourceBatch,
  unitRangeOf,
} from './input-source.js';
import type { Cell, NumberArray, TypedColumn } from './typed-columns.js';

export function columnKindOf(type: DataType): ColumnKind {
  switch (type.typeId) {
    case Type.Int:
    case Type.Float:
    case Type.Decimal:
      return 'number';
    case Type.Bool:
      return 'boolean';
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Utf8View:
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
  if (vector.type.typeId === Type.Decimal) return decimalsOf(vector);
  if (kind === 'number' && vector.type.typeId !== Type.Float16)
    return { kind: 'numbers', values: (vector.toArray() as NumberArray).slice(), nulls: nullsOf(vector) };
  if (vector.type.typeId === Type.Utf8) return textOf(vector as Vector<Utf8>);
  const text = cellTextReader(vector);
  if (text !== undefined) return Array.from({ length: vector.length }, (_, i) => text(i));
  const cells: Cell[] = new Array(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const value: unknown = vector.get(i);
    cells[i] = value === null || typeof value !== 'object' ? (value as Cell) : String(value);
  }
  return cells;
}

/**
 * A Decimal column (how SQL databases export money: DuckDB's DECIMAL(18,2) in Parquet) as numbers: each
 * value's unscaled integer divided by 10^scale, the nearest double. A value beyond a double's exact
 * integers stays the text Arrow gives it, which a numeric field then rejects (never a rounded amount).
 */
function decimalsOf(vector: Vector): Cell[] {
  const { scale } = vector.type as Decimal;
  const cells: Cell[] = new Array(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const value = vector.get(i) as Parameters<typeof util.bigNumToNumber>[0] | null;
    cells[i] = value === null ? null : decimalNumber(value, scale);
  }
  return cells;
}

function decimalNumber(value: Parameters<typeof util.bigNumToNumber>[0], scale: number): Cell {
  try {
    return util.bigNumToNumber(value, scale);
  } catch {
    return String(value);
  }
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

/**
 * Arrow IPC from a file (`path`) or standard input (`-`, the stream format: a pipeline from Spark's
 * `RDD.pipe`, Ray or a shell).
 */
export async function openArrowSource(
  path: string,
  batchRows: number,
  part?: InputPart,
): Promise<InputSource> {
  const fromStdin = path === '-';
  if (fromStdin && part !== undefined)
    throw new Error(
      'standard input: --shard needs an Arrow IPC file, whose footer says where each record batch is; save the stream to a file, or score it whole (without --shard)',
    );
  const name = fromStdin ? 'standard input' : path;
  const handle = fromStdin ? undefined : await open(path, 'r');
  const size = handle === undefined ? undefined : (await handle.stat()).size;
  let reader: AsyncRecordBatchReader;
  try {
    reader =
      handle === undefined
        ? await RecordBatchReader.from(chunksOf(process.stdin))
        : await RecordBatchReader.from(handle);
    await reader.open();
  } catch (error) {
    await handle?.close();
    throw new Error(
      `${name} is not a readable Arrow IPC file or stream: ${error instanceof Error ? error.message : error}`,
    );
  }
  const chosen = part === undefined ? undefined : await batchesOfPart(reader, handle!, name, part);
  return arrowInput({
    format: 'arrow',
    name,
    fields: reader.schema.fields,
    batches: chosen?.batches ?? reader,
    firstRow: chosen?.firstRow,
    sizeBytes: size,
    batchRows,
    close: async () => {
      await reader.cancel();
      await handle?.close().catch(() => undefined);
    },
  });
}

/**
 * Shard `part`'s record batches of an Arrow IPC file: whole batches, balanced by rows, their lengths read
 * off each batch's metadata (a few hundred bytes found through the footer), never its body. A file in the
 * stream format has no footer: a shard cannot find its batches without reading every one before them.
 */
async function batchesOfPart(
  reader: AsyncRecordBatchReader,
  handle: FileHandle,
  name: string,
  part: InputPart,
): Promise<{ batches: AsyncIterable<RecordBatch>; firstRow: number }> {
  if (!reader.isFile())
    throw new Error(
      `${name} is an Arrow IPC stream: --shard needs the IPC file format, whose footer says where each record batch is; write it as an IPC file, or score it whole (without --shard)`,
    );
  const blocks = Array.from({ length: reader.numRecordBatches }, (_, i) => reader.footer!.getRecordBatch(i)!);
  const lengths = await Promise.all(blocks.map((block) => batchLength(handle, block)));
  const { from, to, firstRow } = unitRangeOf(lengths, part);
  async function* batches(): AsyncIterable<RecordBatch> {
    for (let i = from; i < to; i++) {
      const batch = await reader.readRecordBatch(i);
      if (batch === null) throw new Error(`record batch ${i} cannot be read`);
      yield batch;
    }
  }
  return { batches: batches(), firstRow };
}

/** Where a record batch is in an Arrow IPC file, as its footer says. */
interface FileBlock {
  readonly offset: number | bigint;
  readonly metaDataLength: number;
}

/** Rows of the record batch at `block`, from its metadata: a continuation marker, a length, a Message. */
async function batchLength(handle: FileHandle, block: FileBlock): Promise<number> {
  const metadata = new Uint8Array(block.metaDataLength);
  await handle.read(metadata, 0, metadata.length, Number(block.offset));
  const view = new DataView(metadata.buffer);
  // Files before Arrow 0.15 have no continuation marker (-1) before the length.
  const skip = view.getInt32(0, true) === -1 ? 8 : 4;
  const message = Message.decode(metadata.subarray(skip));
  if (!message.isRecordBatch()) throw new Error('a record batch block of the footer holds no record batch');
  return Number(message.header().length);
}

/**
 * A stream's chunks as an async iterable: apache-arrow's reader of a Node stream itself found no schema
 * on a piped standard input, and this way the input digest's 'data' listener still sees every chunk.
 */
async function* chunksOf(stream: NodeJS.ReadableStream): AsyncIterable<Uint8Array> {
  for await (const chunk of stream) yield chunk as Uint8Array;
}

type AsyncRecordBatchReader = AsyncRecordBatchFileReader | AsyncRecordBatchStreamReader;

/** A source of whole Arrow record batches (as a reader or writer made them) and what to say about it. */
export interface WholeBatches {
  readonly format: InputSource['format'];
  /** The input as error messages name it. */
  readonly name: string;
  readonly fields: readonly Field[];
  readonly batches: AsyncIterable<RecordBatch>;
  /** Row number of the first row of `batches` (default 1; a shard's later). */
  readonly firstRow?: number | undefined;
  readonly sizeBytes: number | undefined;
  readonly batchRows: number;
  /** Bytes of input consumed by a whole batch (default: its Arrow bytes). */
  readonly bytesOf?: (batch: RecordBatch) => number;
  readonly close: () => Promise<void>;
}

/** The next whole batch, or undefined at the end; a truncated or corrupt file says how far it got. */
async function nextWhole(
  wholeBatches: AsyncIterator<RecordBatch>,
  input: WholeBatches,
  firstRow: number,
): Promise<RecordBatch | undefined> {
  try {
    const next = await wholeBatches.next();
    return next.done ? undefined : next.value;
  } catch (error) {
    const kind = input.format === 'parquet' ? 'Parquet' : 'Arrow';
    throw new Error(
      `${input.name}: the ${kind} data is truncated or corrupt after row ${firstRow - 1}: ${error instanceof Error ? error.message : error}`,
    );
  }
}

/** The input source over whole Arrow batches, cut into work batches of at most `batchRows` rows. */
export function arrowInput(input: WholeBatches): InputSource {
  const { fields, batchRows, sizeBytes } = input;
  const header = fields.map((field) => field.name);
  const kinds = fields.map((field) => columnKindOf(field.type));
  // A batch of no rows adds no bytes (and apache-arrow's byteLength fails on an empty List's child).
  const sizeOf = input.bytesOf ?? ((batch: RecordBatch) => batch.data.byteLength);
  const bytesOf = (batch: RecordBatch) => (batch.numRows === 0 ? 0 : sizeOf(batch));
  let bytesRead = 0;

  async function* batches(): AsyncIterable<SourceBatch> {
    let firstRow = input.firstRow ?? 1;
    const wholeBatches = input.batches[Symbol.asyncIterator]();
    for (let whole = await nextWhole(wholeBatches, input, firstRow); whole !== undefined; ) {
      // Large writer batches are cut so that a work unit stays small (memory, worker balance).
      for (let start = 0; start < whole.numRows; start += batchRows) {
        const batch = whole.slice(start, Math.min(whole.numRows, start + batchRows));
        const columns = fields.map((_, c) => cellsOf(batch.getChildAt(c)!, kinds[c]!));
        yield { firstRow, length: batch.numRows, cells: { kind: 'columns', columns }, arrow: batch };
        firstRow += batch.numRows;
      }
      bytesRead += bytesOf(whole);
      whole = await nextWhole(wholeBatches, input, firstRow);
    }
  }

  return {
    format: input.format,
    header,
    kinds,
    arrowFields: fields,
    sizeBytes,
    bytesRead: () => (sizeBytes === undefined ? bytesRead : Math.min(bytesRead, sizeBytes)),
    batches,
    close: input.close,
  };
}
