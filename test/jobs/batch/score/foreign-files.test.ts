/**
 * `outlay score` through the real binary on files written by other tools: Parquet written by DuckDB, an
 * Excel-style export (Windows-1252, `;`-separated, Title Case headers) and a gzip-compressed CSV each score
 * to the same values as the plain CSV; Parquet output is read back by DuckDB with its column types.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { householdsCsv, runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

const ROWS = 1_500;
const INPUT_COLUMNS = 10;

let dir: string;
let model: string;
let plainCsv: string;
/** Per row of the plain CSV run: the columns the job adds, and the rejected row numbers with reasons. */
let plain: { derived: string[][]; rejects: string[][] };

/** On the main thread: worker threads are not what these tests are about. */
const score = (input: string, out: string, ...extra: string[]) =>
  runCli(scoreArgs(input, out, model, '--workers', '0', ...extra));

/**
 * What a run wrote: its scored rows' numbers and added columns (after the row number and the input's
 * columns), and its rejects' row numbers and reasons.
 */
async function resultOf(out: string, name: string, inputColumns: number) {
  const scored: string[][] = parse(await readFile(join(out, `${name}.scored.csv`)));
  const rejects: string[][] = parse(await readFile(join(out, `${name}.rejects.csv`)));
  return {
    derived: scored.map((row) => [row[0]!, ...row.slice(1 + inputColumns)]),
    rejects: rejects.map((row) => [row[0]!, row.at(-1)!]),
  };
}

async function duckdb(sql: string) {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    connection.closeSync();
  }
}

beforeAll(async () => {
  dir = await tempDir('foreign');
  model = await writeTestArtifact(dir);
  plainCsv = join(dir, 'households.csv');
  await writeFile(plainCsv, householdsCsv(ROWS, { badEvery: 97 }));
  const run = await score(plainCsv, join(dir, 'plain'));
  expect(run.code).toBe(3);
  plain = await resultOf(join(dir, 'plain'), 'households', INPUT_COLUMNS);
}, 120_000);

describe('outlay score on files written by other tools (CLI)', () => {
  it('contract: Parquet written by DuckDB (typed columns, nulls) → the same scores and rejects as the plain CSV', async () => {
    const parquet = join(dir, 'duck.parquet');
    await duckdb(
      `COPY (SELECT * FROM read_csv('${plainCsv}', types={'id': 'VARCHAR', 'zip': 'VARCHAR'})) TO '${parquet}' (FORMAT parquet, ROW_GROUP_SIZE 500)`,
    );
    const out = join(dir, 'from-parquet');
    // On a worker thread, unlike the plain run: typed cells cross to the worker and score the same.
    const run = await runCli(scoreArgs(parquet, out, model, '--format', 'csv', '--workers', '1'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(3);
    expect(await resultOf(out, 'duck', INPUT_COLUMNS)).toEqual(plain);
  });

  it('contract: Excel export (Windows-1252, ";", Title Case and UPPER_CASE headers) with --encoding windows-1252 → the same scores, text decoded', async () => {
    const rows: string[][] = parse(await readFile(plainCsv));
    const titleCase = (name: string) =>
      name === 'net_annual_income'
        ? 'NET_ANNUAL_INCOME'
        : name
            .split('_')
            .map((word) => word[0]!.toUpperCase() + word.slice(1))
            .join(' ');
    const text = stringify(
      [[...rows[0]!.map(titleCase), 'Städt'], ...rows.slice(1).map((row) => [...row, 'Zürich €'])],
      {
        delimiter: ';',
        record_delimiter: 'windows',
        // Excel quotes a cell holding a line break (Alt+Enter's LF); csv-stringify would leave a bare LF
        // unquoted under a CRLF record delimiter, and a line feed ends a record whatever the header's ending.
        quoted_match: /\n/,
      },
    );
    const excel = join(dir, 'excel.csv');
    // ü is 0xFC in Windows-1252 as in Latin-1; € is 0x80 in Windows-1252 only.
    await writeFile(excel, Buffer.from(text.replaceAll('€', '\x80'), 'latin1'));
    const out = join(dir, 'from-excel');
    const run = await score(excel, out, '--encoding', 'windows-1252');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(3);
    expect(await resultOf(out, 'excel', INPUT_COLUMNS + 1)).toEqual(plain);
    const scored: string[][] = parse(await readFile(join(out, 'excel.scored.csv')));
    expect(scored[0]!.slice(0, INPUT_COLUMNS + 2)).toEqual([
      'row_number',
      ...rows[0]!.map(titleCase),
      'Städt',
    ]);
    expect(scored[1]![INPUT_COLUMNS + 1]).toBe('Zürich €');
  });

  it("contract: a gzip-compressed CSV (.csv.gz) with --compress gzip → the plain run's scored file, byte for byte once decompressed, named without .csv.gz", async () => {
    const gz = join(dir, 'households.csv.gz');
    await writeFile(gz, gzipSync(await readFile(plainCsv)));
    const out = join(dir, 'from-gzip');
    const run = await score(gz, out, '--compress', 'gzip');
    expect(run.code).toBe(3);
    expect(gunzipSync(await readFile(join(out, 'households.scored.csv.gz')))).toEqual(
      await readFile(join(dir, 'plain', 'households.scored.csv')),
    );
  });

  it('contract: Parquet output from Parquet input → DuckDB reads the input types back (BIGINT, BOOLEAN) and INTEGER/DOUBLE scores equal to the CSV run', async () => {
    const parquet = join(dir, 'typed.parquet');
    await duckdb(
      `COPY (SELECT * FROM read_csv('${plainCsv}', types={'id': 'VARCHAR', 'zip': 'VARCHAR'})) TO '${parquet}' (FORMAT parquet)`,
    );
    const out = join(dir, 'parquet-out');
    const run = await score(parquet, out, '--format', 'parquet');
    expect(run.code).toBe(3);
    const scoredPath = join(out, 'typed.scored.parquet');
    const types = Object.fromEntries(
      (await duckdb(`DESCRIBE SELECT * FROM '${scoredPath}'`)).map((row) => [
        row.column_name,
        row.column_type,
      ]),
    );
    expect(types).toMatchObject({
      net_annual_income: 'BIGINT',
      is_homeowner: 'BOOLEAN',
      zip: 'VARCHAR',
      budget_food_home: 'INTEGER',
      predicted_saving_ability: 'INTEGER',
      outlay_score: 'DOUBLE',
    });
    const scores = await duckdb(`SELECT outlay_score FROM '${scoredPath}'`);
    const column = plain.derived[0]!.indexOf('outlay_score');
    expect(scores.map((row) => String(row.outlay_score))).toEqual(
      plain.derived.slice(1).map((row) => String(Number(row[column]))),
    );
  });

  it('contract: Parquet output from CSV input → DuckDB reads INTEGER age, household_members and row_number, DOUBLE incomes, BOOLEAN is_homeowner, NULL for empty cells, and the model metadata', async () => {
    const out = join(dir, 'csv-to-parquet');
    const run = await score(plainCsv, out, '--format', 'parquet');
    expect(run.code).toBe(3);
    const scoredPath = join(out, 'households.scored.parquet');
    const described = await duckdb(`DESCRIBE SELECT * FROM '${scoredPath}'`);
    expect(described.slice(0, 1 + INPUT_COLUMNS).map((row) => [row.column_name, row.column_type])).toEqual([
      ['row_number', 'INTEGER'],
      ['id', 'VARCHAR'],
      ['age', 'INTEGER'],
      ['gross_annual_income', 'DOUBLE'],
      ['household_members', 'INTEGER'],
      ['is_homeowner', 'BOOLEAN'],
      ['net_annual_income', 'DOUBLE'],
      ['zip', 'VARCHAR'],
      ['mortgage_and_rent', 'DOUBLE'],
      ['savings', 'DOUBLE'],
      ['note', 'VARCHAR'],
    ]);
    const csvRows: string[][] = parse(await readFile(plainCsv), { from_line: 2 });
    const scoredCsv = new Map(csvRows.map((row, i) => [i + 1, row]));
    const parquetRows = await duckdb(
      `SELECT row_number, age, is_homeowner, savings, note FROM '${scoredPath}' ORDER BY row_number`,
    );
    expect(parquetRows.map((row) => row.row_number)).toEqual(
      plain.derived.slice(1).map((row) => Number(row[0])),
    );
    const expected = parquetRows.map(({ row_number }) => {
      const cells = scoredCsv.get(row_number as number)!;
      return {
        row_number,
        age: Number(cells[1]),
        is_homeowner: cells[4] === 'true',
        savings: cells[8] === '' ? null : Number(cells[8]),
        note: cells[9] === '' ? null : cells[9],
      };
    });
    expect(parquetRows).toEqual(expected);
    expect(parquetRows.filter((row) => row.savings === null).length).toBeGreaterThan(0);
    const metadata = Object.fromEntries(
      (
        await duckdb(
          `SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${scoredPath}')`,
        )
      ).map((row) => [row.key, row.value]),
    );
    expect(metadata).toMatchObject({
      'outlay.model_version': expect.stringMatching(/./),
      'outlay.price_year': expect.stringMatching(/^[0-9]{4}$/),
      'outlay.amounts_unit': 'budget_* and model_*: US dollars a year, whole dollars',
      'outlay.predicted_saving_ability_unit': 'US dollars a month, whole dollars',
    });
  });
});
