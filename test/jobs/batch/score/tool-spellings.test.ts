/**
 * Values as other tools write them, through the real binary: booleans as pandas (`True`), SQL and Excel
 * (`1`, `yes`, `Y`) write them, a ZIP stored as a number (CSV `2134`, a DuckDB BIGINT in Parquet), money as
 * a DECIMAL Parquet column; and a Windows-1252 file read without `--encoding`, whose rejects name the flag.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

let dir: string;
let model: string;

beforeAll(async () => {
  dir = await tempDir('spellings');
  model = await writeTestArtifact(dir);
});

async function duckdb(sql: string): Promise<void> {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  try {
    await connection.run(sql);
  } finally {
    connection.closeSync();
  }
}

const rowsOf = async (file: string): Promise<Record<string, string>[]> =>
  parse(await readFile(file), { columns: true });

describe('outlay score: booleans, ZIPs and money as other tools write them', () => {
  it('True/False, 1/0, yes/no, Y/N and a 4-digit ZIP → every row scored, homeowners as owners', async () => {
    const spellings = ['True', 'False', '1', '0', 'yes', 'no', 'Y', 'N', 'TRUE', 'false'];
    const lines = spellings.map((word, i) => `${i + 1},${word},2134,${50_000 + i * 1000}`);
    const input = join(dir, 'spellings.csv');
    await writeFile(input, `id,is_homeowner,zip,net_annual_income\n${lines.join('\n')}\n`);
    const out = join(dir, 'spellings');
    const run = await runCli(scoreArgs(input, out, model, '--format', 'parquet'));
    expect(run.code, run.stderr).toBe(0);
    const owners: { is_homeowner: boolean; state: string }[] = [];
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const read = await connection.runAndReadAll(
        `SELECT is_homeowner, state FROM '${join(out, 'spellings.scored.parquet')}' ORDER BY row_number`,
      );
      owners.push(...(read.getRowObjectsJS() as typeof owners));
    } finally {
      connection.closeSync();
    }
    expect(owners.map((row) => row.is_homeowner)).toEqual(spellings.map((_, i) => i % 2 === 0));
    // 2134 is 02134 (Boston, MA), not an unknown ZIP.
    expect(new Set(owners.map((row) => row.state))).toEqual(new Set(['MA']));
  });

  it('Parquet from DuckDB with a BIGINT ZIP and a DECIMAL(18,2) income → scored, ZIPs padded', async () => {
    const parquet = join(dir, 'bank.parquet');
    await duckdb(
      `COPY (SELECT * FROM (VALUES (2134::BIGINT, 52000.50::DECIMAL(18,2), 1::INTEGER), (10001::BIGINT, 61000.00::DECIMAL(18,2), 0::INTEGER), (601::BIGINT, 38000.25::DECIMAL(18,2), 1::INTEGER)) t(zip, net_annual_income, is_homeowner)) TO '${parquet}' (FORMAT parquet)`,
    );
    const out = join(dir, 'bank');
    const run = await runCli(scoreArgs(parquet, out, model, '--format', 'csv'));
    expect(run.code, run.stderr).toBe(0);
    const rows = await rowsOf(join(out, 'bank.scored.csv'));
    expect(rows.map((row) => [row.zip, row.net_annual_income, row.state])).toEqual([
      ['2134', '52000.5', 'MA'],
      ['10001', '61000', 'NY'],
      ['601', '38000.25', 'PR'],
    ]);
    // 2134 and 601 had their leading zeros restored; 10001 was whole.
    const summary = JSON.parse(await readFile(join(out, 'bank.summary.json'), 'utf8'));
    expect(summary.meta.zips_padded).toBe(2);
  });

  it('a Windows-1252 file without --encoding → its rejects name Windows-1252 and the flag that reads it', async () => {
    const input = join(dir, 'excel.csv');
    const text = 'name,zip,net_annual_income\nJos\xe9,10001,50000\nAnn,10001,50000\n';
    await writeFile(input, Buffer.from(text, 'latin1'));
    const out = join(dir, 'excel');
    const run = await runCli(scoreArgs(input, out, model));
    expect(run.code).toBe(3);
    const [reject] = await rowsOf(join(out, 'excel.rejects.csv'));
    expect(reject!.reject_reason).toContain('Windows-1252');
    expect(reject!.reject_reason).toContain('--encoding windows-1252');
  });
});
