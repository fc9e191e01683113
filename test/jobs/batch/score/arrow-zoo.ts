/**
 * A table of every Arrow type the batch job can be given as a pass-through column, nulls in each, for the
 * round-trip tests (rows taken for rejects and shards must come out exactly as they went in).
 */
import {
  Binary,
  BinaryView,
  Bool,
  DateDay,
  DateMillisecond,
  Decimal,
  Dictionary,
  Field,
  FixedSizeList,
  Float16,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  LargeUtf8,
  List,
  Map_,
  Struct,
  Table,
  TimestampMicrosecond,
  TimestampNanosecond,
  Uint8,
  Uint16,
  Uint32,
  Uint64,
  Utf8,
  Utf8View,
  type Vector,
  vectorFromArray,
} from 'apache-arrow';

const nullEvery = <T>(n: number, every: number, value: (i: number) => T): (T | null)[] =>
  Array.from({ length: n }, (_, i) => (i % every === every - 1 ? null : value(i)));

/** Row i's text: ASCII, accented and CJK, empty, CSV-quoted, distinct. */
const text = (i: number) => ['a', 'é家', '', 'x,"y"', `row ${i}`][i % 5]!;

const utf8List = () => new List(new Field('item', new Utf8(), true));
const int32List = () => new List(new Field('item', new Int32(), true));

/** Zoo columns of `n` rows, named by their type. */
export function zooColumns(n: number): Record<string, Vector> {
  return {
    int8: vectorFromArray(
      nullEvery(n, 3, (i) => (i % 256) - 128),
      new Int8(),
    ),
    int16: vectorFromArray(
      nullEvery(n, 4, (i) => i * 7 - 3000),
      new Int16(),
    ),
    int32: vectorFromArray(
      nullEvery(n, 5, (i) => i * 100_003 - 7),
      new Int32(),
    ),
    int64: vectorFromArray(
      nullEvery(n, 3, (i) => BigInt(i) * 9_007_199_254_740_993n),
      new Int64(),
    ),
    uint8: vectorFromArray(
      nullEvery(n, 4, (i) => i % 256),
      new Uint8(),
    ),
    uint16: vectorFromArray(
      nullEvery(n, 5, (i) => (i * 31) % 65536),
      new Uint16(),
    ),
    uint32: vectorFromArray(
      nullEvery(n, 3, (i) => 4_000_000_000 - i),
      new Uint32(),
    ),
    uint64: vectorFromArray(
      nullEvery(n, 4, (i) => 18_000_000_000_000_000_000n + BigInt(i)),
      new Uint64(),
    ),
    float16: vectorFromArray(
      nullEvery(n, 5, (i) => i / 4),
      new Float16(),
    ),
    float32: vectorFromArray(
      nullEvery(n, 3, (i) => i * 1.5),
      new Float32(),
    ),
    float64: vectorFromArray(
      nullEvery(n, 4, (i) => i / 3),
      new Float64(),
    ),
    utf8: vectorFromArray(nullEvery(n, 5, text), new Utf8()),
    large_utf8: vectorFromArray(nullEvery(n, 3, text), new LargeUtf8()),
    binary: vectorFromArray(
      nullEvery(n, 4, (i) => Uint8Array.of(i % 256, 0, 255)),
      new Binary(),
    ),
    bool: vectorFromArray(
      nullEvery(n, 3, (i) => i % 2 === 0),
      new Bool(),
    ),
    date_day: vectorFromArray(
      nullEvery(n, 4, (i) => new Date(Date.UTC(2020, 0, 1 + i))),
      new DateDay(),
    ),
    date_ms: vectorFromArray(
      nullEvery(n, 5, (i) => new Date(Date.UTC(2021, 5, 1, 0, 0, i))),
      new DateMillisecond(),
    ),
    timestamp_tz: vectorFromArray(
      nullEvery(n, 3, (i) => 1_700_000_000_000 + i),
      new TimestampMicrosecond('Europe/Paris'),
    ),
    timestamp_ns: vectorFromArray(
      nullEvery(n, 4, (i) => 1_700_000_000_000 + i * 3),
      new TimestampNanosecond('UTC'),
    ),
    decimal: vectorFromArray(
      nullEvery(n, 5, (i) => Uint32Array.of(i, 0, 0, i % 2 === 0 ? 0 : 0xffffffff)),
      new Decimal(2, 20, 128),
    ),
    list_utf8: vectorFromArray(
      nullEvery(n, 4, (i) => (i % 3 === 0 ? [] : ['x', null, text(i)].slice(0, 1 + (i % 3)))),
      utf8List(),
    ),
    list_int32: vectorFromArray(
      nullEvery(n, 3, (i) => [i, null, -i].slice(0, i % 4)),
      int32List(),
    ),
    fixed_list: vectorFromArray(
      nullEvery(n, 5, (i) => [i, i + 1]),
      new FixedSizeList(2, new Field('item', new Int32(), true)),
    ),
    struct: vectorFromArray(
      nullEvery(n, 4, (i) => ({ a: i % 3 === 0 ? null : i, b: text(i) })),
      new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), true)]),
    ),
    map: vectorFromArray(
      nullEvery(
        n,
        3,
        (i) =>
          new Map([
            [`k${i}`, i],
            ['z', i % 2 === 0 ? null : -i],
          ]),
      ),
      new Map_<Utf8, Int32>(
        new Field(
          'entries',
          new Struct<{ key: Utf8; value: Int32 }>([
            new Field('key', new Utf8(), false),
            new Field('value', new Int32(), true),
          ]),
          false,
        ),
      ),
    ),
    dictionary: vectorFromArray(
      nullEvery(n, 5, (i) => ['red', 'green', 'blue'][i % 3]!),
      new Dictionary(new Utf8(), new Int32()),
    ),
  };
}

/**
 * Utf8View and BinaryView columns of `n` rows: values past 12 bytes live in the views' data buffers,
 * shorter ones inside the views. Apart from the zoo: apache-arrow 21's IPC writer writes a sliced view
 * column from the wrong offset, so a file of such columns is written from whole batches.
 */
export function viewColumns(n: number): Record<string, Vector> {
  return {
    utf8_view: vectorFromArray(
      nullEvery(n, 3, (i) => (i % 2 === 0 ? text(i) : `${text(i)}, a value longer than twelve bytes`)),
      new Utf8View(),
    ),
    binary_view: vectorFromArray(
      nullEvery(n, 5, (i) => Uint8Array.from({ length: i % 30 }, (_, b) => (i + b) % 256)),
      new BinaryView(),
    ),
  };
}

export const zooTable = (n: number, extra: Record<string, Vector> = {}) =>
  new Table({ ...extra, ...zooColumns(n) });

/** A cell as comparable JSON text (bigints, nested vectors and rows, dates, binary). */
export function cellJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (ArrayBuffer.isView(v)) return Array.from(v as Uint8Array, (x) => String(x));
    if (v instanceof Map) return [...v.entries()];
    if (v !== null && typeof v === 'object' && typeof v.toJSON === 'function' && !(v instanceof Date))
      return v.toJSON();
    return v;
  });
}
