/**
 * Arrow output: assembled column by column from the typed arrays the scorers build, passing the input's
 * own Arrow columns through untouched when every row of a batch was scored. A module of its own so that
 * CSV jobs never load apache-arrow. The batches become an Arrow IPC file or a Parquet file
 * (src/io/parquet-writer.ts), as `BatchFileWriter` says.
 */

import { CATEGORY_COUNT } from '../../src/contract/categories.js';
import { cellAt, type SourceBatch } from '../../src/io/input-source.js';
import { OutputFile } from '../../src/io/output-file.js';
import { ParquetBatchWriter } from '../../src/io/parquet-writer.js';
import { type Utf8Buffers, Utf8ColumnBuilder } from '../../src/io/utf8-column.js';
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
  Schema,
  Struct,
  Utf8,
} from '../../src/vendor/apache-arrow.js';
import { DictionaryUnifier } from './arrow-dictionary.js';
import { takeRows } from './arrow-take.js';
import { cellText, type EncodedBatch } from './encode.js';
import { DERIVED_COLUMNS, EXPLANATION_COLUMNS, type OutputLayout } from './layout.js';
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

/** The columns the job adds after the input's. */
const ADDED_COLUMN_COUNT = DERIVED_COLUMNS.length + EXPLANATION_COLUMNS.length;

/** Record batches in, a file's bytes out. */
interface BatchFileWriter extends AsyncIterable<Uint8Array> {
  write(batch: RecordBatch): Promise<void>;
  /** Writes the file's end; a file without batches still carries `schema`. */
  finish(schema: Schema, wroteBatch: boolean): Promise<void>;
}

/** apache-arrow's IPC file writer as a BatchFileWriter. */
function ipcFileWriter(): BatchFileWriter {
  const writer = new RecordBatchFileWriter();
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
  private wroteBatch = false;
  /** Per pass-through column, its unifier when dictionary-encoded. */
  private readonly dictionaries: (DictionaryUnifier | undefined)[];

  private constructor(
    readonly file: OutputFile,
    private readonly schema: Schema,
    private readonly writer: BatchFileWriter,
  ) {
    this.dictionaries = schema.fields.map((field) =>
      DataType.isDictionary(field.type) ? new DictionaryUnifier() : undefined,
    );
    this.pump = (async () => {
      for await (const chunk of this.writer) await file.write(chunk);
    })();
    // Surfaced by end(); without a handler here a write error would be an unhandled rejection first.
    this.pump.catch(() => undefined);
  }

  static async create(
    path: string,
    layout: OutputLayout,
    inputFields: readonly Field[] | null,
    format: ColumnarFormat = 'arrow',
  ): Promise<ArrowScoredSink> {
    const passthrough = inputFields ?? layout.header.map((name) => new Field(name, new Utf8(), true));
    const derived = DERIVED_COLUMNS.map(
      (name, i) => new Field(name, DERIVED_TYPES[i]!, name === 'state' || name === 'cbsa'),
    );
    const explanation = layout.explanationColumns.map(
      (name, i) => new Field(name, EXPLANATION_TYPES[i]!, false),
    );
    const writer = format === 'parquet' ? new ParquetBatchWriter() : ipcFileWriter();
    return new ArrowScoredSink(
      await OutputFile.create(path),
      new Schema([...passthrough, ...derived, ...explanation]),
      writer,
    );
  }

  async write(encoded: EncodedBatch, batch: SelectedBatch): Promise<void> {
    const columns = encoded.columns!;
    const k = encoded.scored;
    const sourceRows = sourceRowsOf(encoded.scoredIndex, batch.selection);
    const source = batch.source!;
    const children: Data[] = [];
    for (let c = 0; c < this.schema.fields.length - ADDED_COLUMN_COUNT; c++) {
      const column = passthroughColumn(source, c, sourceRows, k);
      children.push(this.dictionaries[c]?.unify(column as Data<Dictionary>) ?? column);
    }
    const int32 = (values: Int32Array) => makeData({ type: new Int32(), length: k, data: values });
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
    await this.writer.write(new RecordBatch(this.schema, struct));
    this.wroteBatch = true;
  }

  async end(): Promise<void> {
    // An input without rows still gets a valid file that carries the schema.
    await this.writer.finish(this.schema, this.wroteBatch);
    await this.pump;
  }
}

/** Row index in the source batch of each scored row. */
function sourceRowsOf(scoredIndex: Int32Array, selection: Int32Array | null): Int32Array {
  return selection === null ? scoredIndex : scoredIndex.map((i) => selection[i]!);
}

function passthroughColumn(source: SourceBatch, column: number, rows: Int32Array, k: number): Data {
  if (source.arrow !== undefined) {
    const vector = source.arrow.getChildAt(column)!;
    return k === source.length ? vector.data[0]! : takeRows(vector, rows);
  }
  const text = new Utf8ColumnBuilder(k);
  for (const row of rows) text.add(cellText(cellAt(source.cells, row, column)));
  return utf8Data(text.finish());
}

const utf8Data = (buffers: Utf8Buffers): Data => makeData({ type: new Utf8(), ...buffers });
