/**
 * Arrow output: assembled column by column from the typed arrays the scorers build, passing the input's
 * own Arrow columns through untouched when every row of a batch was scored. A module of its own so that
 * CSV jobs never load apache-arrow. The batches become an Arrow IPC file or a Parquet file
 * (jobs/batch/io/parquet-writer.ts), as `BatchFileWriter` says.
 */

import { CATEGORY_COUNT } from '../../../src/contract/categories.js';
import {
  type Data,
  DataType,
  type Dictionary,
  Field,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  RecordBatchFileWriter,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  Utf8,
} from '../../../src/vendor/apache-arrow.js';
import { OutputFile } from '../io/output-file.js';
import { ParquetBatchWriter } from '../io/parquet-writer.js';
import type { Utf8Buffers } from '../io/utf8-column.js';
import { DictionaryUnifier } from './arrow-dictionary.js';
import { type InputColumn, inputColumnData, inputColumnsOf } from './arrow-input-columns.js';
import type { EncodedBatch } from './encode.js';
import { ScoredStreamClosed } from './exit-codes.js';
import { DERIVED_COLUMNS, type OutputLayout } from './layout.js';
import type { ScoredSink, SelectedBatch } from './sinks.js';

const DERIVED_TYPES: readonly DataType[] = [
  ...Array.from({ length: 2 * CATEGORY_COUNT + 1 }, () => new Int32()),
  new Float64(),
  new Float64(),
  new Utf8(),
  new Utf8(),
  new Utf8(),
];

/** EXPLANATION_COLUMNS' types: the indices and the percentile, then the reason codes and the flags. */
const EXPLANATION_TYPES: readonly DataType[] = [
  new Float64(),
  new Float64(),
  new Float64(),
  new Utf8(),
  new Utf8(),
];

/** Which model the scored amounts come from, for the file's schema metadata. */
export interface ModelIdentity {
  readonly modelVersion: string;
  /** The year of the prices every amount is in; undefined when a remote server does not say. */
  readonly priceYear: number | undefined;
}

/**
 * The schema metadata of a scored file (Arrow IPC schema metadata; Parquet key-value metadata too): the
 * model, its price year and the units of the amounts, so that a file read on its own says what it holds.
 */
export function scoredMetadata(model: ModelIdentity): Map<string, string> {
  const metadata = new Map([
    ['outlay.model_version', model.modelVersion],
    ['outlay.amounts_unit', 'budget_* and model_*: US dollars a year, whole dollars'],
    ['outlay.predicted_saving_ability_unit', 'US dollars a month, whole dollars'],
  ]);
  if (model.priceYear !== undefined) metadata.set('outlay.price_year', String(model.priceYear));
  return metadata;
}

/** Record batches in, a file's bytes out. */
interface BatchFileWriter extends AsyncIterable<Uint8Array> {
  write(batch: RecordBatch): Promise<void>;
  /** Writes the file's end; a file without batches still carries `schema`. */
  finish(schema: Schema, wroteBatch: boolean): Promise<void>;
}

/** apache-arrow's IPC file (or stream) writer as a BatchFileWriter. */
function ipcWriter(stream: boolean): BatchFileWriter {
  const writer = stream ? new RecordBatchStreamWriter() : new RecordBatchFileWriter();
  return {
    write: async (batch) => {
      writer.write(batch);
    },
    finish: async (schema, wroteBatch) => {
      if (!wroteBatch) writer.reset(undefined, schema);
      writer.finish();
    },
    [Symbol.asyncIterator]: () => writer[Symbol.asyncIterator](),
  };
}

export type ColumnarFormat = 'arrow' | 'parquet';

export class ArrowScoredSink implements ScoredSink {
  readonly needsInput = true;
  private readonly pump: Promise<void>;
  /** Why the output stopped taking bytes, once it has: later writes fail with it, not with a closed queue. */
  private pumpFailure: unknown;
  private wroteBatch = false;
  /** Per pass-through column, its unifier when dictionary-encoded. */
  private readonly dictionaries: (DictionaryUnifier | undefined)[];

  private constructor(
    readonly file: OutputFile | null,
    output: (chunk: Uint8Array) => Promise<void>,
    private readonly schema: Schema,
    private readonly layout: OutputLayout,
    private readonly inputs: readonly InputColumn[],
    private readonly writer: BatchFileWriter,
  ) {
    this.dictionaries = inputs.map((column) =>
      DataType.isDictionary(column.field.type) ? new DictionaryUnifier() : undefined,
    );
    this.pump = (async () => {
      for await (const chunk of this.writer) await output(chunk);
    })();
    // Surfaced by write() and end(); without a handler here it would be an unhandled rejection first.
    this.pump.catch((error: unknown) => {
      this.pumpFailure = error;
    });
  }

  static async create(
    path: string,
    layout: OutputLayout,
    inputFields: readonly Field[] | null,
    model: ModelIdentity,
    /** A file format, or a stream that takes the rows as an Arrow IPC stream (`--scored -`). */
    to: ColumnarFormat | NodeJS.WritableStream = 'arrow',
  ): Promise<ArrowScoredSink> {
    const inputs = inputColumnsOf(layout.header, layout.plan, inputFields);
    const rowNumber = new Field(layout.rowNumberColumn, new Int32(), false);
    const derived = DERIVED_COLUMNS.map(
      (name, i) => new Field(name, DERIVED_TYPES[i]!, name === 'state' || name === 'cbsa'),
    );
    const explanation = layout.explanationColumns.map(
      (name, i) => new Field(name, EXPLANATION_TYPES[i]!, false),
    );
    const metadata = scoredMetadata(model);
    const writer = to === 'parquet' ? new ParquetBatchWriter(metadata) : ipcWriter(typeof to !== 'string');
    const fields = [rowNumber, ...inputs.map((column) => column.field), ...derived, ...explanation];
    const file = typeof to === 'string' ? await OutputFile.create(path) : null;
    return new ArrowScoredSink(
      file,
      file === null ? streamOutput(to as NodeJS.WritableStream) : (chunk) => file.write(chunk),
      new Schema(fields, metadata),
      layout,
      inputs,
      writer,
    );
  }

  async write(encoded: EncodedBatch, batch: SelectedBatch): Promise<void> {
    const columns = encoded.columns!;
    const k = encoded.scored;
    const sourceRows = sourceRowsOf(encoded.scoredIndex, batch.selection);
    const source = batch.source!;
    const int32 = (values: Int32Array) => makeData({ type: new Int32(), length: k, data: values });
    const children: Data[] = [int32(columns.rowNumber)];
    this.inputs.forEach((input, c) => {
      const column = inputColumnData(input, source, c, sourceRows, this.layout.plan);
      children.push(this.dictionaries[c]?.unify(column as Data<Dictionary>) ?? column);
    });
    const float64 = (values: Float64Array) => makeData({ type: new Float64(), length: k, data: values });
    const stride = columns.categoryStride;
    const category = (values: Int32Array, c: number) => int32(values.subarray(c * stride, c * stride + k));
    for (let c = 0; c < CATEGORY_COUNT; c++) children.push(category(columns.budget, c));
    for (let c = 0; c < CATEGORY_COUNT; c++) children.push(category(columns.model, c));
    children.push(int32(columns.psa));
    children.push(float64(columns.score));
    children.push(float64(columns.savingsScore));
    for (const strings of [columns.geoLevel, columns.state, columns.cbsa]) children.push(utf8Data(strings));
    for (const values of [columns.index, columns.savingsIndex, columns.percentile])
      children.push(float64(values));
    for (const strings of [columns.reasonCodes, columns.expenseFlags]) children.push(utf8Data(strings));
    const struct = makeData({ type: new Struct(this.schema.fields), length: k, nullCount: 0, children });
    if (this.pumpFailure !== undefined) throw this.pumpFailure;
    await this.writer.write(new RecordBatch(this.schema, struct));
    this.wroteBatch = true;
  }

  async end(): Promise<void> {
    if (this.pumpFailure !== undefined) throw this.pumpFailure;
    // An input without rows still gets a valid file that carries the schema.
    await this.writer.finish(this.schema, this.wroteBatch);
    await this.pump;
  }
}

/**
 * Writes to a stream, waiting while it is full: a slow reader on a pipe slows the job, not its memory. A
 * reader that goes away (EPIPE) fails the next write with ScoredStreamClosed.
 */
function streamOutput(stream: NodeJS.WritableStream): (chunk: Uint8Array) => Promise<void> {
  let failure: Error | undefined;
  // Listened to for the whole run: an 'error' emitted while nothing listens would end the process with a
  // stack trace instead of the job's own message.
  stream.on('error', (error: NodeJS.ErrnoException) => {
    failure ??= error.code === 'EPIPE' ? new ScoredStreamClosed() : error;
  });
  return async (chunk) => {
    if (failure === undefined && !stream.write(chunk)) {
      // A stream that fails while full never drains: its 'close' ends the wait too.
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('close', done);
          resolve();
        };
        stream.on('drain', done);
        stream.on('close', done);
      });
    }
    if (failure !== undefined) throw failure;
  };
}

/** Row index in the source batch of each scored row. */
function sourceRowsOf(scoredIndex: Int32Array, selection: Int32Array | null): Int32Array {
  return selection === null ? scoredIndex : scoredIndex.map((i) => selection[i]!);
}

const utf8Data = (buffers: Utf8Buffers): Data => makeData({ type: new Utf8(), ...buffers });
