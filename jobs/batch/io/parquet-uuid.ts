/**
 * Parquet UUID columns as their canonical text (`0b4e…-…`, 36 characters, lower case). parquet-wasm reads
 * a UUID column (FIXED_LEN_BYTE_ARRAY(16) annotated UUID, as DuckDB and Spark write it) as a
 * FixedSizeBinary(16) and drops the annotation, so that the scored files held 16 anonymous bytes (a BLOB to
 * DuckDB, a list of byte values in CSV). The annotation is read from the file's footer with hyparquet, and
 * each such top-level column becomes a Utf8 column of the UUIDs' text before the job sees it: the same text
 * in CSV, the rejects file, Arrow and Parquet output, and one that every tool casts back to a UUID.
 */
import { asyncBufferFromFile, parquetMetadataAsync, parquetSchema } from 'hyparquet';
import {
  type Data,
  Field,
  makeData,
  RecordBatch,
  type Schema,
  Struct,
  Utf8,
} from '../../../src/vendor/apache-arrow.js';

/** Indices among `fields` of the file's top-level UUID columns. */
export async function uuidColumnsOf(path: string, fields: readonly Field[]): Promise<number[]> {
  const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
  const names = new Set(
    parquetSchema(metadata)
      .children.filter(({ element }) => element.logical_type?.type === 'UUID' && element.type_length === 16)
      .map(({ element }) => element.name),
  );
  return fields.flatMap((field, c) => (names.has(field.name) ? [c] : []));
}

/** The fields with each UUID column's type made Utf8. */
export function uuidTextFields(fields: readonly Field[], columns: readonly number[]): Field[] {
  return fields.map((field, c) =>
    columns.includes(c) ? new Field(field.name, new Utf8(), field.nullable, field.metadata) : field,
  );
}

/** The batch with each UUID column's bytes as text, in the schema of `uuidTextFields`. */
export function withUuidText(batch: RecordBatch, schema: Schema, columns: readonly number[]): RecordBatch {
  const children = batch.data.children.map((child, c) => (columns.includes(c) ? uuidText(child) : child));
  const struct = makeData({ type: new Struct(schema.fields), length: batch.numRows, nullCount: 0, children });
  return new RecordBatch(schema, struct);
}

const UUID_LENGTH = 36;
/** Where the canonical form puts a dash: before these bytes. */
const DASH_BEFORE = new Set([4, 6, 8, 10]);
const HEX = new TextEncoder().encode('0123456789abcdef');

/** A FixedSizeBinary(16) column's values as UUID text, nulls as nulls (of no bytes). */
function uuidText(data: Data): Data {
  const bytes = data.values as Uint8Array;
  const valueOffsets = new Int32Array(data.length + 1);
  const text = new Uint8Array(data.length * UUID_LENGTH);
  let at = 0;
  for (let row = 0; row < data.length; row++) {
    if (data.getValid(row))
      for (let b = 0; b < 16; b++) {
        if (DASH_BEFORE.has(b)) text[at++] = 0x2d;
        const byte = bytes[row * 16 + b]!;
        text[at++] = HEX[byte >> 4]!;
        text[at++] = HEX[byte & 15]!;
      }
    valueOffsets[row + 1] = at;
  }
  return makeData({
    type: new Utf8(),
    length: data.length,
    nullCount: data.nullCount,
    nullBitmap: nullBitsOf(data),
    valueOffsets,
    data: text.subarray(0, at),
  });
}

/** The validity bits from bit 0 (a slice's start at `data.offset`), or none without nulls. */
function nullBitsOf(data: Data): Uint8Array | undefined {
  if (data.nullCount === 0) return undefined;
  const bits = new Uint8Array(Math.ceil(data.length / 8));
  for (let i = 0; i < data.length; i++) if (data.getValid(i)) bits[i >> 3]! |= 1 << (i & 7);
  return bits;
}
