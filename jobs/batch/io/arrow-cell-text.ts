/**
 * The text of an Arrow cell that is neither a number, a boolean nor text, as CSV output and the rejects
 * file write it, so that the file reads back: a nested value (List, FixedSizeList, Struct, Map) as JSON,
 * a date as ISO 8601 (`2024-03-01`), a timestamp as ISO 8601 to its unit's precision
 * (`2024-03-01T10:20:30.123456`, ending in `Z` when the column has a time zone, whose values are UTC
 * instants); a dictionary-encoded cell as its value would be. Inside JSON a date or timestamp is that
 * text as a string, bytes an array of numbers, a Decimal its exact number, NaN and infinities strings
 * (JSON has no such numbers), an Int64 its exact digits. Read from the column's buffers, not from
 * apache-arrow's values, which give timestamps as milliseconds in a double and lose the microseconds and
 * nanoseconds. */
import {
  type Data,
  DataType,
  DateUnit,
  type Decimal,
  type Field,
  type Timestamp,
  TimeUnit,
  util,
  Vector,
} from '../../../src/vendor/apache-arrow.js';

type TextAt = (data: Data, row: number) => string;

/** Reads cell `row` of a column of the type as text; undefined for a type whose values are written as they are. */
export function cellTextReader(vector: Vector): ((row: number) => string | null) | undefined {
  const data = vector.data[0]!;
  const text = textAtOf(data.type);
  if (text === undefined) return undefined;
  return (row) => (data.getValid(row) ? text(data, row) : null);
}

/** How a cell of the type is written as text, when not as its value; a dictionary as its values are. */
function textAtOf(type: DataType): TextAt | undefined {
  if (isNested(type)) return jsonAt;
  if (DataType.isDate(type) || DataType.isTimestamp(type)) return scalarTextAt;
  if (!DataType.isDictionary(type)) return undefined;
  const valueText = textAtOf(type.dictionary);
  return valueText && ((data, row) => dictionaryValue(data, row, valueText));
}

/** A dictionary cell's value, read from the dictionary chunk (each delta adds one) that holds it. */
function dictionaryValue(data: Data, row: number, text: TextAt): string {
  let index = Number(data.values[row]);
  for (const chunk of data.dictionary!.data) {
    if (index < chunk.length) return text(chunk, index);
    index -= chunk.length;
  }
  throw new Error(`a dictionary index ${data.values[row]} points past its dictionary`);
}

const isNested = (type: DataType) =>
  DataType.isList(type) ||
  DataType.isLargeList(type) ||
  DataType.isFixedSizeList(type) ||
  DataType.isStruct(type) ||
  DataType.isMap(type);

/** The cell as JSON text. */
function jsonAt(data: Data, row: number): string {
  if (!data.getValid(row)) return 'null';
  const { type } = data;
  if (DataType.isStruct(type)) return structJson(data, row);
  if (DataType.isMap(type)) return mapJson(data, row);
  if (DataType.isFixedSizeList(type)) return itemsJson(data.children[0]!, row * type.listSize, type.listSize);
  if (DataType.isList(type) || DataType.isLargeList(type)) {
    const start = Number(data.valueOffsets[row]);
    return itemsJson(data.children[0]!, start, Number(data.valueOffsets[row + 1]) - start);
  }
  if (DataType.isDate(type) || DataType.isTimestamp(type)) return JSON.stringify(scalarTextAt(data, row));
  if (DataType.isDictionary(type)) return dictionaryValue(data, row, jsonAt);
  return valueJson(vectorOf(data).get(row), type);
}

/** One Vector per Data of scalars, for apache-arrow's reading of its values. */
const vectors = new WeakMap<Data, Vector>();

function vectorOf(data: Data): Vector {
  const known = vectors.get(data);
  if (known !== undefined) return known;
  const vector = new Vector([data]);
  vectors.set(data, vector);
  return vector;
}

function itemsJson(child: Data, start: number, count: number): string {
  const items = Array.from({ length: count }, (_, j) => jsonAt(child, start + j));
  return `[${items.join(',')}]`;
}

/** A Struct's children are sliced with it: row `row` of each. */
function structJson(data: Data, row: number): string {
  const fields = (data.type as { children: Field[] }).children;
  const members = fields.map((field, k) => `${JSON.stringify(field.name)}:${jsonAt(data.children[k]!, row)}`);
  return `{${members.join(',')}}`;
}

/** A Map as a JSON object in its entries' order (a repeated key stays repeated); keys as text. */
function mapJson(data: Data, row: number): string {
  const entries = data.children[0]!;
  const [keys, values] = entries.children as [Data, Data];
  const members: string[] = [];
  for (let j = Number(data.valueOffsets[row]); j < Number(data.valueOffsets[row + 1]); j++) {
    const key = jsonAt(keys, j);
    members.push(`${key.startsWith('"') ? key : JSON.stringify(key)}:${jsonAt(values, j)}`);
  }
  return `{${members.join(',')}}`;
}

function valueJson(value: unknown, type: DataType): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
  if (DataType.isDecimal(type))
    return decimalText(util.bigNumToString(value as never), (type as Decimal).scale);
  if (value instanceof Uint8Array) return `[${value.join(',')}]`;
  return JSON.stringify(typeof value === 'object' ? String(value) : value);
}

/** An unscaled Decimal integer's digits with the point `scale` places from the right. */
function decimalText(digits: string, scale: number): string {
  if (scale <= 0) return digits + '0'.repeat(-scale);
  const negative = digits.startsWith('-');
  const magnitude = (negative ? digits.slice(1) : digits).padStart(scale + 1, '0');
  const point = magnitude.length - scale;
  return `${negative ? '-' : ''}${magnitude.slice(0, point)}.${magnitude.slice(point)}`;
}

const DAY_MS = 86_400_000;

/** A Date or Timestamp cell as ISO 8601 text. */
function scalarTextAt(data: Data, row: number): string {
  const { type } = data;
  if (DataType.isTimestamp(type)) {
    const { unit, timezone } = type as Timestamp;
    return isoTimestamp(BigInt(data.values[row] as bigint), unit, timezone !== null && timezone !== '');
  }
  const days = DataType.isDate(type) && type.unit === DateUnit.DAY;
  const ms = Number(data.values[row]) * (days ? DAY_MS : 1);
  const iso = isoOf(ms);
  if (iso === undefined) return String(data.values[row]);
  return ms % DAY_MS === 0 ? iso.slice(0, -14) : iso.slice(0, -1);
}

/** Digits after the second of each unit. */
const FRACTION_DIGITS: Record<TimeUnit, number> = {
  [TimeUnit.SECOND]: 0,
  [TimeUnit.MILLISECOND]: 3,
  [TimeUnit.MICROSECOND]: 6,
  [TimeUnit.NANOSECOND]: 9,
};

function isoTimestamp(value: bigint, unit: TimeUnit, utc: boolean): string {
  const digits = FRACTION_DIGITS[unit];
  const perSecond = 10n ** BigInt(digits);
  let seconds = value / perSecond;
  if (value % perSecond < 0n) seconds -= 1n;
  const iso = isoOf(Number(seconds) * 1000);
  if (iso === undefined) return String(value);
  const fraction = digits === 0 ? '' : `.${String(value - seconds * perSecond).padStart(digits, '0')}`;
  return `${iso.slice(0, -5)}${fraction}${utc ? 'Z' : ''}`;
}

/** `Date.toISOString` of `ms`, or undefined beyond the ±275,760 years a Date holds. */
function isoOf(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
