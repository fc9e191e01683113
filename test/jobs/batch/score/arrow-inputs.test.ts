/**
 * `outlay score` through the real binary on Arrow inputs: every pass-through type round-trips with rejects
 * and with shards; empty inputs give empty outputs; a stream that replaces dictionaries gives a valid file.
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Dictionary,
  Field,
  Int32,
  RecordBatchFileWriter,
  RecordBatchStreamWriter,
  Schema,
  Table,
  tableFromIPC,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellJson, zooColumns } from './arrow-zoo.js';
import { BIN, modelArgs, runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

const ROWS = 300;
let dir: string;
let model: string;

const score = (input: string, out: string, ...extra: string[]) =>
  runCli(scoreArgs(input, out, model, ...extra));
const readTable = async (path: string) => tableFromIPC(await readFile(path));

/** Households whose every 7th row lacks its required income (a reject), with the zoo beside. */
function zooHouseholds(): Table {
  return new Table({
    net_annual_income: vectorFromArray(
      Array.from({ length: ROWS }, (_, i) => (i % 7 === 6 ? null : 40_000 + i * 10)),
      new Int32(),
    ),
    zip: vectorFromArray(
      Array.from({ length: ROWS }, () => '10001'),
      new Utf8(),
    ),
    ...zooColumns(ROWS),
  });
}

beforeAll(async () => {
  dir = await tempDir('arrow-inputs');
  model = await writeTestArtifact(dir);
});

describe('outlay score: Arrow inputs (CLI)', () => {
  const runs = [
    { name: 'rejects in every batch', extra: [], chosen: (_row: number) => true },
    // The input's three batches of 100 rows: shard 2/3 reads the second, whole.
    { name: 'shard 2/3', extra: ['--shard', '2/3'], chosen: (row: number) => row >= 100 && row < 200 },
  ];
  for (const { name, extra, chosen } of runs) {
    it(`contract: every Arrow type round-trips unchanged to Arrow output, ${name}`, async () => {
      const input = join(dir, 'zoo.arrow');
      const table = zooHouseholds();
      const whole = table.batches[0]!;
      const batches = [0, 100, 200].map((start) => whole.slice(start, start + 100));
      await writeFile(input, tableToIPC(new Table(batches), 'file'));
      const out = join(dir, `zoo-${extra.length}`);
      const run = await score(input, out, '--format', 'arrow', '--batch-rows', '64', ...extra);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(3);
      const scored = await readTable(join(out, 'zoo.scored.arrow'));
      const rows = Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 7 !== 6 && chosen(i));
      expect(scored.numRows).toBe(rows.length);
      for (const field of table.schema.fields) {
        const outField = scored.schema.fields.find((f) => f.name === field.name)!;
        expect(String(outField.type), field.name).toBe(String(field.type));
        expect([...scored.getChild(field.name)!].map(cellJson), field.name).toEqual(
          rows.map((row) => cellJson(table.getChild(field.name)!.get(row))),
        );
      }
    });
  }

  it('contract: a 0-row file, a file and a stream without record batches → exit 0, outputs with only the header or schema', async () => {
    const schema = new Schema([
      new Field('net_annual_income', new Int32(), true),
      new Field('zip', new Utf8(), true),
    ]);
    const inputs = {
      zero: tableToIPC(new Table(schema), 'file'),
      nofile: new RecordBatchFileWriter().reset(undefined, schema).finish().toUint8Array(true),
      nostream: new RecordBatchStreamWriter().reset(undefined, schema).finish().toUint8Array(true),
    };
    for (const [name, bytes] of Object.entries(inputs)) {
      await writeFile(join(dir, `${name}.arrow`), bytes);
      for (const format of ['arrow', 'csv']) {
        const out = join(dir, `${name}-${format}`);
        // No batch to score: no worker thread to start either.
        const run = await score(join(dir, `${name}.arrow`), out, '--format', format, '--workers', '0');
        expect(run.stderr, name).toBe('');
        expect(run.code, name).toBe(0);
        if (format === 'csv') {
          const text = await readFile(join(out, `${name}.scored.csv`), 'utf8');
          expect(text.split('\n')).toHaveLength(2);
          expect(text.startsWith('row_number,net_annual_income,zip,budget_')).toBe(true);
        } else {
          const scored = await readTable(join(out, `${name}.scored.arrow`));
          expect(scored.numRows).toBe(0);
          expect(scored.schema.fields[0]!.name).toBe('row_number');
        }
        const rejects = await readFile(join(out, `${name}.rejects.csv`), 'utf8');
        expect(rejects).toBe('row_number,net_annual_income,zip,reject_reason\n');
      }
    }
  });

  it('contract: a stream that replaces a dictionary → an Arrow file whose dictionary column reads back value for value', async () => {
    const type = () => new Dictionary(new Utf8(), new Int32(), 7);
    const batchOf = (colours: (string | null)[]) =>
      new Table({
        net_annual_income: vectorFromArray(
          colours.map((_, i) => (i === 1 ? null : 50_000 + i)),
          new Int32(),
        ),
        zip: vectorFromArray(
          colours.map(() => '10001'),
          new Utf8(),
        ),
        colour: vectorFromArray(colours, type()),
      }).batches[0]!;
    const batches = [
      batchOf(['red', 'green', null, 'red']),
      batchOf(['blue', 'red', 'blue', 'violet']),
      batchOf(['green', 'green', 'amber', null]),
    ];
    const writer = new RecordBatchStreamWriter();
    for (const batch of batches) writer.write(batch);
    const input = join(dir, 'replaced.arrows');
    await writeFile(input, writer.finish().toUint8Array(true));
    const colours = batches.flatMap((batch) => [...batch.getChild('colour')!]);
    const out = join(dir, 'replaced');
    const run = await score(input, out, '--format', 'arrow');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(3);
    const scored = await readTable(join(out, 'replaced.scored.arrow'));
    const rows = colours.map((colour, i) => ({ colour, i })).filter(({ i }) => i % 4 !== 1);
    expect(String(scored.schema.fields[3]!.type)).toBe('Dictionary<Int32, Utf8>');
    expect([...scored.getChild('colour')!]).toEqual(rows.map(({ colour }) => colour));
    // A stream has no footer to find a shard's batches by.
    const sharded = await score(input, join(dir, 'replaced-shard'), '--shard', '1/2', '--workers', '0');
    expect(sharded.code).toBe(1);
    expect(sharded.stderr).toContain('is an Arrow IPC stream: --shard needs the IPC file format');
  });

  it('contract: an Arrow IPC stream on stdin with --scored=- → the scored rows as an Arrow IPC stream on stdout, nothing else there, the other files in --out', async () => {
    const table = zooHouseholds();
    const out = join(dir, 'piped');
    const run = spawnSync(
      process.execPath,
      [
        BIN,
        'score',
        '-',
        '--input-format',
        'arrow',
        '--scored=-',
        '--out',
        out,
        ...modelArgs(model),
        '--no-progress',
      ],
      { input: Buffer.from(tableToIPC(table, 'stream')), maxBuffer: 1 << 28 },
    );
    expect(run.status).toBe(3);
    const scored = tableFromIPC(run.stdout);
    expect(scored.numRows).toBe(ROWS - Math.floor(ROWS / 7));
    expect(scored.schema.fields[0]!.name).toBe('row_number');
    expect([...scored.getChild('row_number')!].slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 8]);
    expect(scored.schema.metadata.get('outlay.model_version')).toBeTruthy();
    expect(run.stderr.toString()).toContain('score job finished');
    const rejects = await readFile(join(out, 'stdin.rejects.csv'), 'utf8');
    expect(rejects.split('\n').filter(Boolean)).toHaveLength(1 + Math.floor(ROWS / 7));
    await expect(readFile(join(out, 'stdin.summary.json'), 'utf8')).resolves.toContain('"rows_in"');
  });
});
