/**
 * Arrow IPC record batches of a sample. Column types cannot hold every bad value: the contract's integers
 * (age, household_members) are Int32, as the scored files' amounts, the other numeric columns Float64,
 * is_homeowner Bool, id and zip Utf8, and a cell of the wrong kind ("forty thousand", "maybe", age 34.5)
 * is written as null (documented in sample-data/README.md). Buffers are filled directly rather than through
 * apache-arrow's generic builders, which cost about 3 µs a row.
 */
import {
  Bool,
  type Data,
  Field,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Utf8,
} from '../vendor/apache-arrow.js';
import { SAMPLE_COLUMNS, type SampleColumn, type SampleRow } from './columns.js';

const INTEGER_COLUMNS: ReadonlySet<SampleColumn> = new Set(['age', 'household_members']);

const typeOf = (column: SampleColumn) => {
  if (column === 'id' || column === 'zip') return new Utf8();
  if (column === 'is_homeowner') return new Bool();
  return INTEGER_COLUMNS.has(column) ? new Int32() : new Float64();
};

export const SAMPLE_ARROW_SCHEMA = new Schema(SAMPLE_COLUMNS.map((c) => new Field(c, typeOf(c), true)));

/** Validity bitmap (bit set = present) and null count of one column. */
function validity(cells: readonly unknown[], present: (cell: unknown) => boolean) {
  const bitmap = new Uint8Array(Math.ceil(cells.length / 8));
  let nullCount = 0;
  for (let i = 0; i < cells.length; i++) {
    if (present(cells[i])) bitmap[i >> 3]! |= 1 << (i & 7);
    else nullCount++;
  }
  return { nullBitmap: nullCount > 0 ? bitmap : undefined, nullCount };
}

const isNumber = (cell: unknown): cell is number => typeof cell === 'number';
const isInt32 = (cell: unknown): cell is number => isNumber(cell) && (cell | 0) === cell;
const isBoolean = (cell: unknown): cell is boolean => typeof cell === 'boolean';
const isPresent = (cell: unknown) => cell !== null;

function float64Data(cells: readonly unknown[]): Data<Float64> {
  const values = new Float64Array(cells.length);
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (isNumber(cell)) values[i] = cell;
  }
  return makeData({ type: new Float64(), length: cells.length, data: values, ...validity(cells, isNumber) });
}

function int32Data(cells: readonly unknown[]): Data<Int32> {
  const values = new Int32Array(cells.length);
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (isInt32(cell)) values[i] = cell;
  }
  return makeData({ type: new Int32(), length: cells.length, data: values, ...validity(cells, isInt32) });
}

function boolData(cells: readonly unknown[]): Data<Bool> {
  const values = new Uint8Array(Math.ceil(cells.length / 8));
  for (let i = 0; i < cells.length; i++) if (cells[i] === true) values[i >> 3]! |= 1 << (i & 7);
  return makeData({ type: new Bool(), length: cells.length, data: values, ...validity(cells, isBoolean) });
}

/** Any non-null cell is written as its text (a Utf8 column holds every bad value). */
function utf8Data(cells: readonly unknown[]): Data<Utf8> {
  const texts = cells.map((cell) => (isPresent(cell) ? String(cell) : ''));
  const valueOffsets = new Int32Array(cells.length + 1);
  for (let i = 0; i < texts.length; i++)
    valueOffsets[i + 1] = valueOffsets[i]! + Buffer.byteLength(texts[i]!);
  const data = Buffer.from(texts.join(''));
  return makeData({
    type: new Utf8(),
    length: cells.length,
    data,
    valueOffsets,
    ...validity(cells, isPresent),
  });
}

function columnData(field: Field, cells: readonly unknown[]): Data {
  if (field.type instanceof Utf8) return utf8Data(cells);
  if (field.type instanceof Bool) return boolData(cells);
  if (field.type instanceof Int32) return int32Data(cells);
  return float64Data(cells);
}

export function* arrowBatches(batches: Iterable<SampleRow[]>): Generator<RecordBatch> {
  for (const batch of batches) {
    const children = SAMPLE_ARROW_SCHEMA.fields.map((field) =>
      columnData(
        field,
        batch.map((row) => row[field.name as SampleColumn]),
      ),
    );
    const struct = makeData({
      type: new Struct(SAMPLE_ARROW_SCHEMA.fields),
      length: batch.length,
      nullCount: 0,
      children,
    });
    yield new RecordBatch(SAMPLE_ARROW_SCHEMA, struct);
  }
}
