/**
 * The input's columns in Arrow and Parquet output. An Arrow or Parquet input's typed columns pass through
 * as they are. A text column (every CSV column; an Arrow Utf8 column) that supplies a number or boolean
 * field is written in that field's type — Int32 for the contract's integers (`age`, `household_members`),
 * Float64 for the other numbers, Bool — holding the value the row was scored with (so `Y` under a column
 * map's booleans is `true`), null where the cell was empty. Other CSV columns stay Utf8, an empty cell
 * null: CSV cannot tell an empty text from a missing one.
 */

import {
  Bool,
  type Data,
  DataType,
  Field,
  Float64,
  Int32,
  makeData,
  Utf8,
} from '../../../src/vendor/apache-arrow.js';
import type { ContractField, RequestPlan } from '../io/column-mapping.js';
import { cellAt, type SourceBatch } from '../io/input-source.js';
import { scoredCellValue } from '../io/row-request.js';
import type { Cell } from '../io/typed-columns.js';
import { Utf8ColumnBuilder } from '../io/utf8-column.js';
import { takeRows } from './arrow-take.js';
import { cellText } from './encode.js';

/** How one input column is written: passed through, converted to its field's type, or as text. */
export type InputColumn =
  | { readonly how: 'passthrough'; readonly field: Field }
  | { readonly how: 'typed'; readonly field: Field; readonly contract: ContractField }
  | { readonly how: 'text'; readonly field: Field };

export function inputColumnsOf(
  header: readonly string[],
  plan: RequestPlan,
  inputFields: readonly Field[] | null,
): InputColumn[] {
  const contractOf = new Map(plan.bindings.map((binding) => [binding.column, binding.field]));
  return header.map((name, c): InputColumn => {
    const input = inputFields?.[c];
    if (input !== undefined && !DataType.isUtf8(input.type)) return { how: 'passthrough', field: input };
    const contract = contractOf.get(c);
    if (contract !== undefined && contract.kind !== 'text')
      return { how: 'typed', field: new Field(name, typeOfField(contract), true), contract };
    return input === undefined
      ? { how: 'text', field: new Field(name, new Utf8(), true) }
      : { how: 'passthrough', field: input };
  });
}

function typeOfField(contract: ContractField): DataType {
  if (contract.kind === 'boolean') return new Bool();
  return contract.integer ? new Int32() : new Float64();
}

/** Column `c` of the scored rows `rows` (indices into the source batch; `k` of them). */
export function inputColumnData(
  column: InputColumn,
  source: SourceBatch,
  c: number,
  rows: Int32Array,
  plan: RequestPlan,
): Data {
  if (column.how === 'passthrough') {
    const vector = source.arrow!.getChildAt(c)!;
    // A view column's rows are always taken: a slice of a batch still holds the whole batch's bytes.
    const whole = rows.length === source.length && vector.data[0]!.variadicBuffers.length === 0;
    return whole ? vector.data[0]! : takeRows(vector, rows);
  }
  const read = cellReader(source, c);
  if (column.how === 'text') {
    const text = new Utf8ColumnBuilder(rows.length);
    for (const row of rows) text.add(cellText(read(row)) || null);
    return makeData({ type: new Utf8(), ...text.finish() });
  }
  return typedData(column.field.type, rows, (row) => scoredCellValue(plan, column.contract, read(row)));
}

/**
 * The cells of column `c`. An Arrow batch's are read from its vectors: the typed buffers of `cells` were
 * handed to the worker that scored it.
 */
function cellReader(source: SourceBatch, c: number): (row: number) => Cell {
  const vector = source.arrow?.getChildAt(c);
  return vector === undefined || vector === null
    ? (row) => cellAt(source.cells, row, c)
    : (row) => vector.get(row) as Cell;
}

function typedData(dataType: DataType, rows: Int32Array, scoredValue: (row: number) => unknown): Data {
  const k = rows.length;
  const validity = new Uint8Array(Math.ceil(k / 8));
  const values = valuesFor(dataType, k);
  let nullCount = 0;
  for (let i = 0; i < k; i++) {
    const value = scoredValue(rows[i]!);
    if (value === undefined) {
      nullCount++;
      continue;
    }
    validity[i >> 3]! |= 1 << (i & 7);
    if (values instanceof Uint8Array) values[i >> 3]! |= value === true ? 1 << (i & 7) : 0;
    else values[i] = storable(value as number, values);
  }
  const nullBitmap = nullCount > 0 ? validity : undefined;
  return makeData({ type: dataType, length: k, nullCount, nullBitmap, data: values } as Parameters<
    typeof makeData
  >[0]);
}

/** The value buffer of `k` rows: bits for Bool, else one number each. */
function valuesFor(dataType: DataType, k: number): Int32Array | Float64Array | Uint8Array {
  if (DataType.isBool(dataType)) return new Uint8Array(Math.ceil(k / 8));
  return DataType.isInt(dataType) ? new Int32Array(k) : new Float64Array(k);
}

/** An Int32 column holds only whole numbers in range: anything else stops the job rather than wrap. */
function storable(value: number, values: Int32Array | Float64Array): number {
  if (values instanceof Int32Array && (value | 0) !== value)
    throw new Error(`${value} is not a whole number that fits the Int32 column`);
  return value;
}
