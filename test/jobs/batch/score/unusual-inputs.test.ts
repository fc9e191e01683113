/**
 * `outlay score` through the real binary on column types that tools write and the job once mangled:
 * Utf8View and BinaryView (Polars', DuckDB's and Arrow 15+'s strings), a Parquet UUID column (DuckDB,
 * Spark), and nested, date and timestamp columns in the rejects file, which must read back.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  DateDay,
  Dictionary,
  Field,
  Float64,
  Int32,
  List,
  Map_,
  makeData,
  Struct,
  Table,
  TimestampMicrosecond,
  TimestampNanosecond,
  tableFromIPC,
  tableToIPC,
  Utf8,
  Utf8View,
  Vector,
  vectorFromArray,
} from 'apache-arrow';
import { parse } from 'csv-parse/sync';
import * as parquet from 'parquet-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellJson, viewColumns } from './arrow-zoo.js';
import { runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

let dir: string;
let model: string;

beforeAll(async () => {
  dir = await tempDir('unusual-inputs');
  model = await writeTestArtifact(dir);
});

const score = (input: string, out: string, ...extra: string[]) =>
  runCli(scoreArgs(input, out, model, ...extra));

/** Every 4th row (1-based 4, 8, …) has a negative income: a reject. */
const income = (n: number, from: number) =>
  vectorFromArray(
    Array.from({ length: n }, (_, i) => ((from + i) % 4 === 3 ? -5 : 40_000 + (from + i) * 100)),
    new Float64(),
  );

const csvRows = async (path: string): Promise<Record<string, string>[]> =>
  parse(await readFile(path), { columns: true });

/** The scored rows of any output format as plain values, by column. */
async function scoredColumn(out: string, name: string, format: string, column: string): Promise<unknown[]> {
  const file = join(out, `${name}.scored.${format}`);
  if (format === 'csv') return (await csvRows(file)).map((row) => row[column]);
  const bytes = await readFile(file);
  const table =
    format === 'arrow' ? tableFromIPC(bytes) : tableFromIPC(parquet.readParquet(bytes).intoIPCStream());
  return [...table.getChild(column)!];
}

describe('outlay score: Utf8View and BinaryView inputs (CLI)', () => {
  const ROWS = 40;
  let input: string;
  let views: ReturnType<typeof viewColumns>;

  beforeAll(async () => {
    views = viewColumns(ROWS);
    // Two whole batches (not slices: apache-arrow's writer mis-writes a sliced view column).
    const batchOf = (from: number) =>
      new Table({
        net_annual_income: income(20, from),
        zip: vectorFromArray(
          Array.from({ length: 20 }, () => '10001'),
          new Utf8View(),
        ),
        ...Object.fromEntries(
          Object.entries(views).map(([name, vector]) => [
            name,
            vectorFromArray([...vector.slice(from, from + 20)], vector.type),
          ]),
        ),
      }).batches[0]!;
    input = join(dir, 'views.arrow');
    await writeFile(input, tableToIPC(new Table([batchOf(0), batchOf(20)]), 'file'));
  });

  it.each([
    ['arrow', []],
    ['parquet', []],
    ['csv', []],
    ['arrow', ['--shard', '2/2']],
  ])(
    'scenario: --format %s %j, a Utf8View zip and view columns beside → exit 3, every scored and rejected row with its values',
    async (format, extra) => {
      const out = join(dir, `views-${format}-${extra.length}`);
      const run = await score(input, out, '--format', format, '--batch-rows', '8', ...extra);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(3);
      const inShard = (row: number) => extra.length === 0 || row >= 20;
      const all = Array.from({ length: ROWS }, (_, row) => row).filter(inShard);
      const scored = all.filter((row) => row % 4 !== 3);
      const text = views.utf8_view!;
      const expectedText = (row: number) =>
        format === 'csv' ? (text.get(row) ?? '') : (text.get(row) as string | null);
      expect(await scoredColumn(out, 'views', format, 'utf8_view')).toEqual(scored.map(expectedText));
      if (format !== 'csv')
        expect((await scoredColumn(out, 'views', format, 'binary_view')).map(cellJson)).toEqual(
          scored.map((row) => cellJson(views.binary_view!.get(row))),
        );
      const rejects = await csvRows(join(out, 'views.rejects.csv'));
      expect(rejects.map((row) => [row.row_number, row.utf8_view])).toEqual(
        all.filter((row) => row % 4 === 3).map((row) => [String(row + 1), text.get(row) ?? '']),
      );
    },
  );
});

describe('outlay score: a Parquet UUID column (CLI)', () => {
  const uuid = (i: number) => `${String(i).padStart(8, '0')}-1b4e-4f2a-9c3d-0123456789ab`;
  let input: string;

  beforeAll(async () => {
    input = join(dir, 'uuids.parquet');
    const connection = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
    try {
      await connection.run(
        `COPY (SELECT (40000 + i * 100 - CASE WHEN i % 4 = 3 THEN 50000 ELSE 0 END)::DOUBLE AS net_annual_income,
           '10001' AS zip, CASE WHEN i = 5 THEN NULL ELSE lpad(i::VARCHAR, 8, '0') || '-1b4e-4f2a-9c3d-0123456789ab' END::UUID AS customer_id
         FROM range(12) t(i)) TO '${input}' (FORMAT parquet)`,
      );
    } finally {
      connection.closeSync();
    }
  });

  it.each(['csv', 'arrow', 'parquet'])(
    'scenario: --format %s → the UUIDs as their canonical text, in the scored and the rejects files',
    async (format) => {
      const out = join(dir, `uuids-${format}`);
      const run = await score(input, out, '--format', format);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(3);
      const rows = Array.from({ length: 12 }, (_, i) => i);
      const expected = (i: number) => (i === 5 ? (format === 'csv' ? '' : null) : uuid(i));
      expect(await scoredColumn(out, 'uuids', format, 'customer_id')).toEqual(
        rows.filter((i) => i % 4 !== 3).map(expected),
      );
      const rejects = await csvRows(join(out, 'uuids.rejects.csv'));
      expect(rejects.map((row) => row.customer_id)).toEqual([3, 7, 11].map(uuid));
    },
  );

  it('contract: the scored Parquet file has the column as text, which DuckDB casts back to the UUIDs', async () => {
    const path = join(dir, 'uuids-parquet', 'uuids.scored.parquet');
    const connection = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
    try {
      const read = await connection.runAndReadAll(
        `SELECT typeof(customer_id), customer_id::UUID::VARCHAR FROM '${path}' WHERE customer_id IS NOT NULL LIMIT 1`,
      );
      expect(read.getRows()).toEqual([['VARCHAR', uuid(0)]]);
    } finally {
      connection.closeSync();
    }
  });
});

/** A 4-row timestamp column, null but for the last row's raw `value` in the type's unit. */
const lastOnly = (type: TimestampMicrosecond | TimestampNanosecond, value: bigint) =>
  new Vector([
    makeData({
      type,
      length: 4,
      nullCount: 3,
      nullBitmap: Uint8Array.of(0b1000),
      data: BigInt64Array.of(0n, 0n, 0n, value),
    }),
  ]);

describe('outlay score: nested, date and timestamp cells in the rejects file (CLI)', () => {
  it('contract: the rejects file reads back with csv-parse; nested cells JSON.parse to the values, dates and timestamps are ISO 8601', async () => {
    const n = 4;
    const entries = new Field(
      'entries',
      new Struct([new Field('key', new Utf8(), false), new Field('value', new Float64(), true)]),
      false,
    );
    const table = new Table({
      net_annual_income: income(n, 0),
      zip: vectorFromArray(['10001', '10001', '10001', '10001'], new Utf8()),
      tags: vectorFromArray(
        [['a'], null, ['x,y', '"q"'], ['b', null, 'c,"d"']],
        new List(new Field('item', new Utf8(), true)),
      ),
      address: vectorFromArray(
        [null, null, null, { street: '1 Main St, "Apt" 2', unit: 7 }],
        new Struct([new Field('street', new Utf8(), true), new Field('unit', new Float64(), true)]),
      ),
      limits: vectorFromArray(
        [
          null,
          null,
          null,
          new Map([
            ['rent', 1200.5],
            ['car', null],
          ]),
        ],
        new Map_<Utf8, Float64>(entries),
      ),
      born: vectorFromArray([null, null, null, new Date(Date.UTC(1969, 6, 20))], new DateDay()),
      visited: vectorFromArray(
        [null, null, null, new Date(Date.UTC(2024, 1, 29))],
        new Dictionary(new DateDay(), new Int32()),
      ),
      seen: lastOnly(new TimestampMicrosecond('UTC'), 1_709_288_430_123_456n),
      logged: lastOnly(new TimestampNanosecond(), -1n),
    });
    const input = join(dir, 'nested.arrow');
    await writeFile(input, tableToIPC(table, 'file'));
    const out = join(dir, 'nested');
    const run = await score(input, out, '--format', 'csv');
    expect(run.code, run.stderr).toBe(3);
    const [reject] = await csvRows(join(out, 'nested.rejects.csv'));
    expect(reject!.row_number).toBe('4');
    expect(JSON.parse(reject!.tags!)).toEqual(['b', null, 'c,"d"']);
    expect(JSON.parse(reject!.address!)).toEqual({ street: '1 Main St, "Apt" 2', unit: 7 });
    expect(JSON.parse(reject!.limits!)).toEqual({ rent: 1200.5, car: null });
    expect(reject!.born).toBe('1969-07-20');
    expect(reject!.visited).toBe('2024-02-29');
    expect(reject!.seen).toBe('2024-03-01T10:20:30.123456Z');
    // One nanosecond before the epoch, in a column without a time zone (a wall-clock time).
    expect(reject!.logged).toBe('1969-12-31T23:59:59.999999999');
    const scored = await csvRows(join(out, 'nested.scored.csv'));
    expect(scored.map((row) => row.tags)).toEqual(['["a"]', '', '["x,y","\\"q\\""]']);
    expect(await readdir(out)).not.toContainEqual(expect.stringMatching(/\.partial$/));
  });
});
