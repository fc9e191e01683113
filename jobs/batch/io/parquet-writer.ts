/**
 * Parquet output through parquet-wasm (see ./parquet-source.ts for the choice): apache-arrow batches are
 * handed over as Arrow IPC and written by its streaming writer (`transformParquetStream`), which emits a
 * row group's bytes once it holds ROW_GROUP_ROWS rows. Memory is one row group's encoded columns plus the
 * batches queued for the writer, of which at most QUEUED_BATCHES wait: `write` waits for the writer.
 */
import type { RecordBatch as WasmRecordBatch } from 'parquet-wasm';
import {
  makeData,
  RecordBatch,
  type Schema,
  Struct,
  Table,
  tableToIPC,
  vectorFromArray,
} from '../../../src/vendor/apache-arrow.js';
import { loadParquetWasm } from './parquet-wasm.js';

/**
 * Rows per row group, about 2.5 MB of a scored file. The writer holds a whole row group (its values, then
 * its compressed chunks, then their copy for output) in WebAssembly memory, which never shrinks: writing
 * 1 M scored rows alone peaked at 72 MB of it and 258 MB RSS with 64 Ki rows, 42 MB with 32 Ki, and 29 MB
 * and 187 MB RSS with 16 Ki, the file 1 % smaller. In a Parquet → Parquet job (1 M rows, Node 22) 8 Ki rows
 * with one batch queued held 17–22 MB and peaked at 257–275 MB RSS, against 30 MB and 275–294 MB with
 * 16 Ki and two, for a file 3 % larger. Still large enough for readers to skip by.
 */
export const ROW_GROUP_ROWS = 8 * 1024;
const QUEUED_BATCHES = 1;

/** Arrow batches in, a Parquet file's bytes out (async iteration), like apache-arrow's IPC writers. */
export class ParquetBatchWriter implements AsyncIterable<Uint8Array> {
  private controller!: ReadableStreamDefaultController<WasmRecordBatch>;
  private pulled: (() => void) | undefined;
  private readonly output: Promise<ReadableStream<Uint8Array>>;

  /** `metadata`: the file's key-value metadata, beside the Arrow schema the writer stores there itself. */
  constructor(metadata: ReadonlyMap<string, string> = new Map()) {
    const input = new ReadableStream<WasmRecordBatch>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => {
          this.pulled?.();
          this.pulled = undefined;
        },
      },
      { highWaterMark: QUEUED_BATCHES },
    );
    this.output = (async () => {
      const { Compression, transformParquetStream, WriterPropertiesBuilder } = await loadParquetWasm();
      const properties = new WriterPropertiesBuilder()
        .setCompression(Compression.SNAPPY)
        // Dictionary pages for ~90 columns of amounts took 7× the CPU of plain ones (3.4 against 0.48 s
        // per 100,000 scored rows) and made the file larger, not smaller.
        .setDictionaryEnabled(false)
        .setMaxRowGroupSize(ROW_GROUP_ROWS)
        .setKeyValueMetadata(new Map(metadata))
        .build();
      return (await transformParquetStream(input, properties)) as ReadableStream<Uint8Array>;
    })();
  }

  async write(batch: RecordBatch): Promise<void> {
    const { Table: WasmTable } = await loadParquetWasm();
    const wasm = WasmTable.fromIPCStream(tableToIPC(new Table([batch]), 'stream'));
    for (const part of wasm.recordBatches()) this.controller.enqueue(part);
    wasm.free();
    if ((this.controller.desiredSize ?? 1) <= 0)
      await new Promise<void>((resolve) => {
        this.pulled = resolve;
      });
  }

  /** Ends the file; a file without rows still carries `schema` (one empty batch). */
  async finish(schema: Schema, wroteBatch: boolean): Promise<void> {
    if (!wroteBatch) await this.write(emptyBatch(schema));
    this.controller.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for await (const chunk of await this.output) yield chunk;
  }
}

/**
 * A batch of no rows of `schema`, every column built empty by its type's builder: apache-arrow's
 * `new RecordBatch(schema)` leaves nested columns (List, Struct) without their children.
 */
function emptyBatch(schema: Schema): RecordBatch {
  const children = schema.fields.map((field) => vectorFromArray([], field.type).data[0]!);
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 0, children }));
}
