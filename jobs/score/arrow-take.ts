/**
 * The given rows of an input Arrow column, for Arrow output of a batch in which not every row was scored
 * (rejects, shards). Utf8 and fixed-width numeric columns are gathered from their buffers; building them
 * back through `vectorFromArray` meant a JS value and, for text, a TextEncoder call per cell, for every
 * column of nearly every batch of a file with a few bad rows. Other types take that generic path.
 */

import type { NumberArray } from '../../src/io/typed-columns.js';
import {
  type Data,
  DataType,
  type Float64,
  makeData,
  type Utf8,
  type Vector,
  vectorFromArray,
} from '../../src/vendor/apache-arrow.js';

export function takeRows(vector: Vector, rows: Int32Array): Data {
  const [data] = vector.data;
  if (vector.data.length === 1 && data !== undefined) {
    if (DataType.isUtf8(data.type)) return takeText(data as Data<Utf8>, rows);
    if ((DataType.isInt(data.type) || DataType.isFloat(data.type)) && data.stride === 1)
      return takeFixedWidth(data, rows);
  }
  return vectorFromArray(
    Array.from(rows, (row) => vector.get(row)),
    vector.type,
  ).data[0]!;
}

/** Validity bits of the taken rows (Arrow keeps a slice's bits at `data.offset`), or none without nulls. */
function takeValidity(data: Data, rows: Int32Array): { nullBitmap?: Uint8Array; nullCount: number } {
  if (data.nullCount === 0) return { nullCount: 0 };
  const source = data.nullBitmap!;
  const nullBitmap = new Uint8Array(Math.ceil(rows.length / 8));
  let nullCount = 0;
  rows.forEach((row, i) => {
    const bit = data.offset + row;
    if ((source[bit >> 3]! & (1 << (bit & 7))) === 0) nullCount++;
    else nullBitmap[i >> 3]! |= 1 << (i & 7);
  });
  return { nullBitmap, nullCount };
}

function takeFixedWidth(data: Data, rows: Int32Array): Data {
  // A slice's value buffer is already narrowed to the slice, so rows index it directly.
  const values = data.values as NumberArray;
  const taken = new (values.constructor as new (length: number) => NumberArray)(rows.length);
  rows.forEach((row, i) => {
    taken[i] = values[row]!;
  });
  // makeData builds by the runtime type: typed as Float64 only to pick the overload for (values, validity).
  return makeData({
    type: data.type as Float64,
    length: rows.length,
    data: taken as Float64Array,
    ...takeValidity(data, rows),
  });
}

function takeText(data: Data<Utf8>, rows: Int32Array): Data {
  const { valueOffsets: offsets, values } = data;
  const valueOffsets = new Int32Array(rows.length + 1);
  rows.forEach((row, i) => {
    valueOffsets[i + 1] = valueOffsets[i]! + offsets[row + 1]! - offsets[row]!;
  });
  const bytes = new Uint8Array(valueOffsets[rows.length]!);
  rows.forEach((row, i) => {
    bytes.set(values.subarray(offsets[row]!, offsets[row + 1]!), valueOffsets[i]!);
  });
  return makeData({
    type: data.type,
    length: rows.length,
    valueOffsets,
    data: bytes,
    ...takeValidity(data, rows),
  });
}
