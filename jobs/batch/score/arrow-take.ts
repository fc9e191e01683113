/**
 * The given rows of an input Arrow column, for Arrow output of a batch in which not every row was scored
 * (rejects, shards): every type is gathered from its buffers, nested types (List, Map, FixedSizeList,
 * Struct, Union) by taking their children's rows the same way, dictionaries by their indices with the
 * dictionary itself kept. apache-arrow has no `take`; rebuilding a column through `vectorFromArray` from its
 * values emptied nested columns and lost precision and dictionaries, and cost a JS value per cell.
 *
 * Slices, as the source cuts large writer batches: validity and Bool bits are read at `data.offset + row`;
 * fixed-width values and value offsets are already narrowed to the slice; the children of a Struct or
 * FixedSizeList are sliced with it, those of a List or Map are indexed through the offsets.
 */

import { Data, DataType, type Union, type Vector } from '../../../src/vendor/apache-arrow.js';

export function takeRows(vector: Vector, rows: Int32Array): Data {
  if (vector.data.length !== 1) throw new Error(`a batch column has ${vector.data.length} chunks, not 1`);
  return takeData(vector.data[0]!, rows);
}

type Offsets = Int32Array | BigInt64Array;

function takeData(data: Data, rows: Int32Array): Data {
  const { type } = data;
  const { nullBitmap, nullCount } = takeValidity(data, rows);
  const n = rows.length;
  const make = (buffers: Parameters<typeof buffersOf>[0], children: Data[] = []) =>
    new Data(type, 0, n, nullCount, buffersOf(buffers, nullBitmap), children, data.dictionary);
  if (DataType.isUtf8View(type) || DataType.isBinaryView(type)) {
    const { views, bytes } = takeViews(data, rows);
    return new Data(type, 0, n, nullCount, buffersOf({ values: views }, nullBitmap), [], undefined, [bytes]);
  }
  if (data.variadicBuffers.length > 0)
    throw new Error(`Arrow output cannot yet keep a ${type} column for a batch with rejects or shards`);
  if (DataType.isNull(type)) return new Data(type, 0, n, n);
  if (DataType.isBool(type)) return make({ values: takeBits(data.values as Uint8Array, data.offset, rows) });
  if (DataType.isStruct(type))
    return make(
      {},
      data.children.map((child) => takeData(child, rows)),
    );
  if (DataType.isFixedSizeList(type)) {
    const size = type.listSize;
    const childRows = new Int32Array(n * size);
    rows.forEach((row, i) => {
      for (let j = 0; j < size; j++) childRows[i * size + j] = row * size + j;
    });
    return make({}, [takeData(data.children[0]!, childRows)]);
  }
  if (DataType.isUnion(type)) return takeUnion(data as Data<Union>, rows, make);
  if (data.valueOffsets !== undefined) {
    const source = data.valueOffsets as Offsets;
    const offsets = takeOffsets(source, rows);
    if (data.children.length === 0)
      return make({ offsets, values: takeBytes(data.values, source, offsets, rows) });
    return make({ offsets }, [takeData(data.children[0]!, childRowsOf(source, offsets, rows))]);
  }
  return make({ values: takeFixed(data.values, data.stride, rows) });
}

function buffersOf(
  buffers: { offsets?: Offsets; values?: ArrayLike<unknown>; typeIds?: Int8Array },
  nullBitmap: Uint8Array,
): ConstructorParameters<typeof Data>[4] {
  // Data's buffer order: value offsets, values, validity, type ids.
  return [buffers.offsets, buffers.values, nullBitmap, buffers.typeIds] as unknown as ConstructorParameters<
    typeof Data
  >[4];
}

/** Validity bits of the taken rows, or none without nulls. */
function takeValidity(data: Data, rows: Int32Array): { nullBitmap: Uint8Array; nullCount: number } {
  if (data.nullCount === 0 || data.nullBitmap === undefined || data.nullBitmap.length === 0)
    return { nullBitmap: new Uint8Array(0), nullCount: 0 };
  const nullBitmap = takeBits(data.nullBitmap, data.offset, rows);
  let valid = 0;
  for (let i = 0; i < rows.length; i++) valid += (nullBitmap[i >> 3]! >> (i & 7)) & 1;
  return { nullBitmap, nullCount: rows.length - valid };
}

function takeBits(bits: Uint8Array, offset: number, rows: Int32Array): Uint8Array {
  const taken = new Uint8Array(Math.ceil(rows.length / 8));
  rows.forEach((row, i) => {
    const bit = offset + row;
    if ((bits[bit >> 3]! & (1 << (bit & 7))) !== 0) taken[i >> 3]! |= 1 << (i & 7);
  });
  return taken;
}

type Values = ArrayLike<number | bigint> & {
  constructor: new (length: number) => Values;
  [i: number]: number | bigint;
};

function takeFixed(values: unknown, stride: number, rows: Int32Array): Values {
  const source = values as Values;
  const taken = new source.constructor(rows.length * stride);
  rows.forEach((row, i) => {
    for (let j = 0; j < stride; j++) taken[i * stride + j] = source[row * stride + j]!;
  });
  return taken;
}

/** New offsets for the taken rows of a variable-width column, and the total they cover. */
function takeOffsets(source: Offsets, rows: Int32Array): Offsets {
  const wide = source instanceof BigInt64Array;
  const offsets = wide ? new BigInt64Array(rows.length + 1) : new Int32Array(rows.length + 1);
  let end = 0;
  rows.forEach((row, i) => {
    end += Number(source[row + 1]!) - Number(source[row]!);
    offsets[i + 1] = wide ? BigInt(end) : end;
  });
  return offsets;
}

/** The bytes of the taken rows, one copy per row. */
function takeBytes(values: unknown, source: Offsets, offsets: Offsets, rows: Int32Array): Uint8Array {
  const bytes = values as Uint8Array;
  const taken = new Uint8Array(Number(offsets[rows.length]!));
  rows.forEach((row, i) => {
    taken.set(bytes.subarray(Number(source[row]!), Number(source[row + 1]!)), Number(offsets[i]!));
  });
  return taken;
}

/** The child rows a List or Map's taken rows cover, in order. */
function childRowsOf(source: Offsets, offsets: Offsets, rows: Int32Array): Int32Array {
  const childRows = new Int32Array(Number(offsets[rows.length]!));
  let at = 0;
  for (const row of rows)
    for (let v = Number(source[row]!); v < Number(source[row + 1]!); v++) childRows[at++] = v;
  return childRows;
}

/** A sparse union takes the same rows of every child; a dense one the rows its offsets point to. */
function takeUnion(
  data: Data<Union>,
  rows: Int32Array,
  make: (buffers: { offsets?: Int32Array; typeIds: Int8Array }, children: Data[]) => Data,
): Data {
  const typeIds = Int8Array.from(rows, (row) => data.typeIds[row]!);
  if (data.valueOffsets === undefined)
    return make(
      { typeIds },
      data.children.map((child) => takeData(child, rows)),
    );
  const childOf = new Map(Array.from(data.type.typeIds, (id, c) => [id, c]));
  const childRows: number[][] = data.children.map(() => []);
  const offsets = new Int32Array(rows.length);
  rows.forEach((row, i) => {
    const picked = childRows[childOf.get(data.typeIds[row]!)!]!;
    offsets[i] = picked.length;
    picked.push(data.valueOffsets[row]!);
  });
  const children = data.children.map((child, c) => takeData(child, Int32Array.from(childRows[c]!)));
  return make({ offsets, typeIds }, children);
}

/** Bytes of a view (Utf8View, BinaryView) and, up to this many, held in the view itself. */
const VIEW_BYTES = 16;
const INLINE_BYTES = 12;

/**
 * The taken rows' views, those of values longer than INLINE_BYTES pointing into one new buffer that
 * holds their bytes alone (not the source's buffers whole, which may hold a whole batch's text). A view:
 * int32 length, then the bytes inline, or a 4-byte prefix, int32 buffer index and int32 offset.
 */
function takeViews(data: Data, rows: Int32Array): { views: Uint8Array; bytes: Uint8Array } {
  const source = data.values as Uint8Array;
  const sourceView = new DataView(source.buffer, source.byteOffset, source.byteLength);
  const views = new Uint8Array(rows.length * VIEW_BYTES);
  const viewOf = new DataView(views.buffer);
  let total = 0;
  for (const row of rows) {
    const length = sourceView.getInt32(row * VIEW_BYTES, true);
    if (length > INLINE_BYTES && data.getValid(row)) total += length;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  rows.forEach((row, i) => {
    // A null's view is left zero: its content means nothing.
    if (!data.getValid(row)) return;
    views.set(source.subarray(row * VIEW_BYTES, (row + 1) * VIEW_BYTES), i * VIEW_BYTES);
    const length = sourceView.getInt32(row * VIEW_BYTES, true);
    if (length <= INLINE_BYTES) return;
    const buffer = data.variadicBuffers[sourceView.getInt32(row * VIEW_BYTES + 8, true)]!;
    const offset = sourceView.getInt32(row * VIEW_BYTES + 12, true);
    bytes.set(buffer.subarray(offset, offset + length), at);
    viewOf.setInt32(i * VIEW_BYTES + 8, 0, true);
    viewOf.setInt32(i * VIEW_BYTES + 12, at, true);
    at += length;
  });
  return { views, bytes };
}
