/**
 * `outlay score --excel` through the real binary: the scored, rejects and columns files start with the
 * UTF-8 byte order mark; a `;` input gives `;` between fields and decimal commas, a `,` input the default
 * bytes after the mark; csv-parse reads the files back with the options the job's encoder names; shards
 * merge into the single run's files; Arrow and Parquet output refuse the flag in one line.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { csvReadOptions, excelDialect, readDecimal } from '../../../../jobs/batch/io/csv-encoding.js';
import { runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const FILES = ['scored.csv', 'rejects.csv', 'columns.csv'] as const;
/** The scored file's columns with a fraction. */
const DECIMAL_COLUMNS = [
  'outlay_score',
  'savings_score',
  'outlay_index',
  'savings_index',
  'outlay_percentile',
];

/** Six households, one with an unreadable age (a reject); notes holding `;`, `,` and a quote. */
const ROWS = [
  ['id', 'age', 'household_members', 'is_homeowner', 'net_annual_income', 'zip', 'mortgage_and_rent', 'note'],
  ['H1', '34', '2', 'false', '52000', '10001', '14000', '"a;b"'],
  ['H2', '51', '4', 'true', '98000', '94110', '', 'Smith, John'],
  ['H3', 'abc', '1', 'false', '30000', '60614', '', ''],
  ['H4', '67', '1', 'true', '24000', '35203', '9000', '"said ""hi"""'],
  ['H5', '29', '3', 'false', '41000', '73301', '21000', ''],
  ['H6', '45', '5', 'true', '150000', '02139', '', ''],
];

let dir: string;
let model: string;

beforeAll(async () => {
  dir = await tempDir('excel');
  model = await writeTestArtifact(dir);
});

async function score(name: string, separator: string, ...extra: string[]) {
  const input = join(dir, `${name}.csv`);
  await writeFile(input, `${ROWS.map((row) => row.join(separator)).join('\n')}\n`);
  const out = join(dir, `${name}-${extra.length === 0 ? 'plain' : 'excel'}`);
  const run = await runCli(scoreArgs(input, out, model, '--workers', '0', ...extra));
  const read = (file: string) => readFile(join(out, `${name}.${file}`));
  return { run, read };
}

const records = (bytes: Buffer, options: object = {}): Record<string, string>[] =>
  parse(bytes, { columns: true, ...options });

describe('outlay score --excel', () => {
  it('a `;` input → BOM, `;` and decimal commas in every CSV file; read back, the default run’s values', async () => {
    const plain = await score('semicolon', ';');
    const excel = await score('semicolon', ';', '--excel');
    expect(excel.run.code, excel.run.stderr).toBe(3);
    const dialect = excelDialect(';');
    for (const file of FILES) {
      const bytes = await excel.read(file);
      expect(bytes.subarray(0, 3).equals(BOM), file).toBe(true);
      expect(bytes.subarray(3).toString('utf8').split('\n')[0], file).toContain(';');
      expect(records(bytes, csvReadOptions(dialect)), file).toHaveLength(
        records(await plain.read(file)).length,
      );
    }
    const scored = records(await excel.read('scored.csv'), csvReadOptions(dialect));
    const expected = records(await plain.read('scored.csv'));
    expect(scored.map((row) => row.note)).toEqual(['a;b', 'Smith, John', 'said "hi"', '', '']);
    expect(scored[0]!.outlay_percentile).toMatch(/^[0-9]+,[0-9]$/);
    const normalised = scored.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([column, text]) => [
          column,
          DECIMAL_COLUMNS.includes(column) ? String(readDecimal(text, dialect)) : text,
        ]),
      ),
    );
    const plainNumbers = expected.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([column, text]) => [
          column,
          DECIMAL_COLUMNS.includes(column) ? String(Number(text)) : text,
        ]),
      ),
    );
    expect(normalised).toEqual(plainNumbers);
    const [reject] = records(await excel.read('rejects.csv'), csvReadOptions(dialect));
    expect(reject!.id).toBe('H3');
  });

  it('a `,` input → the default files byte for byte after the byte order mark', async () => {
    const plain = await score('comma', ',');
    const excel = await score('comma', ',', '--excel');
    expect(excel.run.code, excel.run.stderr).toBe(3);
    for (const file of FILES) {
      const bytes = await excel.read(file);
      expect(bytes.subarray(0, 3).equals(BOM), file).toBe(true);
      expect(bytes.subarray(3).equals(await plain.read(file)), file).toBe(true);
    }
  });

  it('two `;` shards with --excel merged with --rows → the single --excel run’s files byte for byte', async () => {
    const single = await score('shards', ';', '--excel');
    const summaries = [];
    for (const shard of ['1/2', '2/2']) {
      const out = join(dir, `shards-${shard.replace('/', '-')}`);
      const run = await runCli(
        scoreArgs(join(dir, 'shards.csv'), out, model, '--workers', '0', '--excel', '--shard', shard),
      );
      // The shard holding H3 exits 3 (a reject), the other 0.
      expect([0, 3], run.stderr).toContain(run.code);
      summaries.push(join(out, 'shards.summary.json'));
    }
    const merged = join(dir, 'shards-merged');
    const merge = await runCli(['merge', ...summaries, '--rows', '--out', merged]);
    expect(merge.code, merge.stderr).toBe(3);
    for (const file of ['scored.csv', 'rejects.csv'])
      expect((await readFile(join(merged, `shards.${file}`))).equals(await single.read(file)), file).toBe(
        true,
      );
  });

  it.each(['arrow', 'parquet'])('--excel --format %s → refused in one line, exit 1', async (format) => {
    const { run } = await score(`refused-${format}`, ',', '--excel', '--format', format);
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('outlay:'));
    expect(lines).toEqual([
      `outlay: --excel writes the scored file as CSV for Excel; ${format === 'arrow' ? 'Arrow' : 'Parquet'} output has no such form: give --format csv, or leave out --excel`,
    ]);
  });
});
