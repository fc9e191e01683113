/**
 * Parquet input through parquet-wasm (the Rust `parquet` crate compiled to WebAssembly), which hands over
 * Arrow IPC: each batch it decodes becomes an apache-arrow batch and goes the Arrow input's way
 * (./arrow-source.ts), typed columns included. The file is read through a Blob (`fs.openAsBlob`), so only
 * the byte ranges of the row group being decoded are in memory, never the whole file. UUID columns become
 * their text (./parquet-uuid.ts).
 *
 * Chosen over DuckDB's Node API: parquet-wasm speaks Arrow IPC, the job's own columnar form, streams a
 * file batch by batch in both directions, and is one platform-independent package; DuckDB's API returns
 * its own value chunks (a conversion per cell to reach Arrow) and ships a native binary per platform.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ParquetFile, RecordBatch as WasmRecordBatch } from 'parquet-wasm';
import {
  type RecordBatch,
  RecordBatchReader,
  Schema,
  tableFromIPC,
} from '../../../src/vendor/apache-arrow.js';
import { arrowInput } from './arrow-source.js';
import { type InputPart, type InputSource, unitRangeOf } from './input-source.js';
import { uuidColumnsOf, uuidTextFields, withUuidText } from './parquet-uuid.js';
import { loadParquetWasm } from './parquet-wasm.js';

export async function openParquetSource(
  path: string,
  batchRows: number,
  part?: InputPart,
): Promise<InputSource> {
  const { ParquetFile } = await loadParquetWasm();
  const { size } = await stat(path);
  let file: ParquetFile;
  try {
    file = await ParquetFile.fromFile(await openAsBlob(path));
  } catch (error) {
    throw new Error(
      `${path} is not a readable Parquet file: ${error instanceof Error ? error.message : error}`,
    );
  }
  const { fields: wasmFields } = tableFromIPC(file.schema().intoIPCStream()).schema;
  const uuids = await uuidColumnsOf(path, wasmFields);
  const fields = uuidTextFields(wasmFields, uuids);
  const schema = new Schema(fields);
  const groupRows = file
    .metadata()
    .rowGroups()
    .map((group) => group.numRows());
  // A shard reads whole row groups, balanced by rows; none are read but its own.
  const range = part === undefined ? undefined : unitRangeOf(groupRows, part);
  const rowGroups =
    range === undefined ? undefined : Array.from({ length: range.to - range.from }, (_, i) => range.from + i);
  const totalRows = rowGroups === undefined ? sum(groupRows) : sum(rowGroups.map((g) => groupRows[g]!));
  return arrowInput({
    format: 'parquet',
    name: path,
    fields,
    batches: decodedBatches(file, batchRows, rowGroups, (batch) =>
      uuids.length === 0 ? batch : withUuidText(batch, schema, uuids),
    ),
    firstRow: range?.firstRow,
    sizeBytes: size,
    batchRows,
    // Progress by rows: a Parquet batch's share of the file is not known from its bytes.
    bytesOf: (batch) => (batch.numRows / Math.max(1, totalRows)) * size,
    close: async () => file.free(),
  });
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** The file's batches (of `rowGroups` only, when given) as apache-arrow batches, decoded one at a time. */
async function* decodedBatches(
  file: ParquetFile,
  batchRows: number,
  rowGroups: number[] | undefined,
  converted: (batch: RecordBatch) => RecordBatch,
): AsyncIterable<RecordBatch> {
  // No row group at all is asked for as none, not as the reader's default of every one.
  if (rowGroups?.length === 0) return;
  const stream: ReadableStream<WasmRecordBatch> = await file.stream({
    batchSize: batchRows,
    ...(rowGroups === undefined ? {} : { rowGroups }),
  });
  for await (const decoded of stream) {
    // intoIPCStream consumes (frees) the wasm batch.
    const reader = RecordBatchReader.from(decoded.intoIPCStream());
    for (const batch of reader) yield converted(batch);
  }
}
