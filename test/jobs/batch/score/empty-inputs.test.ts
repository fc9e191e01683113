/**
 * `outlay score` through the real binary on inputs without rows: an empty night exits 0 with empty
 * outputs, whatever the columns' types (a List column included) and the input and output formats.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import * as parquet from 'parquet-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Field,
  Float64,
  List,
  Schema,
  Table,
  tableFromIPC,
  tableToIPC,
  Utf8,
} from '../../../../src/vendor/apache-arrow.js';
import { runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

let dir: string;
let model: string;

const schema = (...extra: Field[]) =>
  new Schema([
    new Field('id', new Utf8(), true),
    new Field('net_annual_income', new Float64(), true),
    new Field('zip', new Utf8(), true),
    ...extra,
  ]);

beforeAll(async () => {
  dir = await tempDir('empty-inputs');
  model = await writeTestArtifact(dir);
  const tags = new Field('tags', new List(new Field('item', new Utf8(), true)), true);
  await writeFile(join(dir, 'list.arrow'), tableToIPC(new Table(schema(tags)), 'file'));
  const wasm = parquet.Table.fromIPCStream(tableToIPC(new Table(schema()), 'stream'));
  await writeFile(join(dir, 'plain.parquet'), parquet.writeParquet(wasm));
});

describe('outlay score: inputs without rows (CLI)', () => {
  it.each([
    ['a 0-row Arrow file with a List column', 'list.arrow', 'arrow'],
    ['a 0-row Arrow file with a List column, Parquet output', 'list.arrow', 'parquet'],
    ['a 0-row Parquet file', 'plain.parquet', 'parquet'],
  ])(
    'scenario: %s → exit 0, a scored file of no rows, a rejects file of its header only',
    async (_, file, format) => {
      const name = file.replace(/\..*$/, '');
      const out = join(dir, `${name}-${format}`);
      const run = await runCli(scoreArgs(join(dir, file), out, model, '--format', format));
      expect(run.code, run.stderr).toBe(0);
      const summary = JSON.parse(await readFile(join(out, `${name}.summary.json`), 'utf8'));
      expect(summary.counts).toMatchObject({ rows_in: 0, rows_scored: 0, rows_rejected: 0 });
      expect(parse(await readFile(join(out, `${name}.rejects.csv`)), { columns: true })).toEqual([]);
      const scored = await readFile(join(out, `${name}.scored.${format}`));
      const table =
        format === 'arrow' ? tableFromIPC(scored) : tableFromIPC(parquet.readParquet(scored).intoIPCStream());
      expect(table.numRows).toBe(0);
      expect(table.schema.fields.map((field) => field.name)).toContain('id');
    },
  );
});
