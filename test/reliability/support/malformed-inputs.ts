/**
 * Input files that real exports get wrong, each with what a correct job does with it: fail once with a
 * message naming the problem (and write nothing under a final name), or score what it can and reject the rest
 * with reasons. Built in memory from a few clean rows, so each case differs from a good file in one way.
 */
import {
  Bool,
  DateDay,
  Float64,
  Int32,
  Table,
  tableToIPC,
  Utf8,
  type Vector,
  vectorFromArray,
} from 'apache-arrow';

export type Expectation =
  | { readonly kind: 'job error'; readonly message: RegExp }
  | { readonly kind: 'rows'; readonly rowsIn: number; readonly rejected: number; readonly reason?: RegExp };

export interface InputCase {
  readonly name: string;
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly expect: Expectation;
}

const HEADER = ['id', 'age', 'household_members', 'is_homeowner', 'net_annual_income', 'zip', 'note'];
const ZIPS = ['30301', '10001', '94103', '60614', '77479', '35210'];
const MEGABYTE = 1 << 20;

function goodRow(i: number): string[] {
  return [
    `h${i}`,
    String(25 + (i % 50)),
    String(1 + (i % 5)),
    i % 2 === 0 ? 'true' : 'false',
    String(30_000 + 1_000 * i),
    ZIPS[i % ZIPS.length]!,
    'ok',
  ];
}

const line = (fields: readonly string[]) => `${fields.join(',')}\n`;
const csv = (rows: readonly string[][], header: readonly string[] = HEADER) =>
  [header, ...rows].map(line).join('');
const goodRows = (n: number) => Array.from({ length: n }, (_, i) => goodRow(i + 1));
const utf8 = (text: string) => Buffer.from(text, 'utf8');

const rowsCase = (
  name: string,
  fileName: string,
  bytes: Uint8Array,
  rowsIn: number,
  rejected: number,
  reason?: RegExp,
): InputCase => ({
  name,
  fileName,
  bytes,
  expect: { kind: 'rows', rowsIn, rejected, ...(reason === undefined ? {} : { reason }) },
});

const errorCase = (name: string, fileName: string, bytes: Uint8Array, message: RegExp): InputCase => ({
  name,
  fileName,
  bytes,
  expect: { kind: 'job error', message },
});

function arrowFile(columns: Record<string, Vector>): Uint8Array {
  return tableToIPC(new Table(columns), 'file');
}

/** Good columns for `n` rows, with any column replaced by a vector of another type. */
function arrowColumns(n: number, replace: Record<string, Vector> = {}): Record<string, Vector> {
  const rows = goodRows(n);
  const at = (c: number) => rows.map((row) => row[c]!);
  return {
    id: vectorFromArray(at(0), new Utf8()),
    age: vectorFromArray(at(1).map(Number), new Int32()),
    household_members: vectorFromArray(at(2).map(Number), new Int32()),
    is_homeowner: vectorFromArray(
      at(3).map((v) => v === 'true'),
      new Bool(),
    ),
    net_annual_income: vectorFromArray(at(4).map(Number), new Float64()),
    zip: vectorFromArray(at(5), new Utf8()),
    ...replace,
  };
}

/** A multi-batch Arrow file or stream cut short, as a failed copy or a full disk leaves it. */
function truncatedArrow(format: 'file' | 'stream'): Uint8Array {
  const batches = Array.from({ length: 8 }, () => new Table(arrowColumns(500)));
  const whole = tableToIPC(
    batches.reduce((a, b) => a.concat(b)),
    format,
  );
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

export function malformedInputs(): InputCase[] {
  const good = goodRows(4);
  const oneMegabyte = 'x'.repeat(MEGABYTE);
  return [
    // A quote never closed runs to the end of the file: one reject naming the lines it took, not a job error.
    rowsCase(
      'CSV, unbalanced quote (never closed)',
      'households.csv',
      utf8(`${csv(good)}5,40,2,true,50000,"30301,open\n6,41,2,true,50000,10001,ok\n`),
      5,
      1,
      /quote/i,
    ),
    rowsCase(
      'CSV, unbalanced quote after 5,000 good rows (the rows before it scored)',
      'households.csv',
      utf8(`${csv(goodRows(5_000))}5001,40,2,true,50000,"30301,open\n`),
      5_001,
      1,
      /quote/i,
    ),
    rowsCase(
      'CSV, quote inside an unquoted field',
      'households.csv',
      utf8(`${csv(good)}5,40,2,true,50000,30"301,ok\n`),
      5,
      1,
      /quote/i,
    ),
    rowsCase(
      'CSV, ragged rows (too few and too many fields)',
      'households.csv',
      utf8(`${csv(good)}5,40,2\n6,41,2,true,50000,10001,ok,extra,extra\n`),
      6,
      2,
      /fields/,
    ),
    rowsCase(
      'CSV, embedded newlines (LF and CRLF) in quoted fields',
      'households.csv',
      utf8(
        csv([
          ...good,
          ['h5', '40', '2', 'true', '50000', '30301', '"two\nlines"'],
          ['h6', '40', '2', 'true', '50000', '30301', '"three\r\nline\nnote"'],
        ]),
      ),
      6,
      0,
    ),
    rowsCase(
      'CSV, UTF-8 BOM, CRLF line ends and blank lines',
      'households.csv',
      utf8(`\uFEFF${csv(good).replaceAll('\n', '\r\n')}\r\n\r\n`),
      4,
      0,
    ),
    rowsCase(
      'CSV, Latin-1 bytes (é as 0xE9)',
      'households.csv',
      Buffer.concat([utf8(csv(good)), Buffer.from('h5,40,2,true,50000,30301,caf\xe9\n', 'latin1')]),
      5,
      1,
      /UTF-8/,
    ),
    errorCase(
      'CSV, UTF-16 LE with BOM',
      'households.csv',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv(good), 'utf16le')]),
      /UTF-8/,
    ),
    errorCase('CSV, empty file', 'households.csv', new Uint8Array(0), /empty/),
    rowsCase('CSV, header only', 'households.csv', utf8(csv([])), 0, 0),
    errorCase(
      'CSV, duplicate header names',
      'households.csv',
      utf8(
        csv(
          good.map((row) => [...row, '10001']),
          [...HEADER, 'zip'],
        ),
      ),
      /zip/,
    ),
    errorCase(
      'CSV, required column missing',
      'households.csv',
      utf8(
        csv(
          good.map((row) => row.slice(0, 4)),
          HEADER.slice(0, 4),
        ),
      ),
      /net_annual_income|zip/,
    ),
    rowsCase(
      'CSV, 1 MB fields (a passed-through note, then a ZIP)',
      'households.csv',
      utf8(
        csv([
          ['h1', '40', '2', 'true', '50000', '30301', oneMegabyte],
          ['h2', '40', '2', 'true', '50000', oneMegabyte, 'ok'],
          goodRow(3),
        ]),
      ),
      3,
      1,
      /zip/,
    ),
    rowsCase(
      'CSV, NUL and control bytes in fields',
      'households.csv',
      utf8(csv([...good, ['h5\u0000', '40', '2', 'true', '50000', '3030\u0000', '\u0007\u001b']])),
      5,
      1,
      /zip/,
    ),
    // A ZIP stored as a number, as DuckDB, pandas or Excel write it: read as the ZIP it is.
    rowsCase(
      'Arrow, ZIP as Int32',
      'households.arrow',
      arrowFile(arrowColumns(4, { zip: vectorFromArray([30301, 10001, 94103, 60614], new Int32()) })),
      4,
      0,
    ),
    rowsCase(
      'Arrow, net income as Utf8 (some not numbers)',
      'households.arrow',
      arrowFile(
        arrowColumns(4, { net_annual_income: vectorFromArray(['50000', 'abc', '', '61000.5'], new Utf8()) }),
      ),
      4,
      2,
      /net_annual_income/,
    ),
    // 1 and 0 for a boolean, as SQL exports write it: read as true and false.
    rowsCase(
      'Arrow, is_homeowner as Float64',
      'households.arrow',
      arrowFile(arrowColumns(4, { is_homeowner: vectorFromArray([1, 0, 1, 0], new Float64()) })),
      4,
      0,
    ),
    errorCase(
      'Arrow, age as Date',
      'households.arrow',
      arrowFile(
        arrowColumns(4, {
          age: vectorFromArray([new Date(0), new Date(0), new Date(0), new Date(0)], new DateDay()),
        }),
      ),
      /age/,
    ),
    errorCase(
      'Arrow, truncated IPC file (60% of 8 batches)',
      'households.arrow',
      truncatedArrow('file'),
      /arrow/i,
    ),
    errorCase(
      'Arrow, truncated IPC stream (fails after rows were scored)',
      'households.arrow',
      truncatedArrow('stream'),
      /households\.arrow/,
    ),
    errorCase('Arrow, CSV text in an .arrow file', 'households.arrow', utf8(csv(good)), /arrow/i),
  ];
}
