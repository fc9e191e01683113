/**
 * `outlay merge --rows` through the real binary on Arrow shards whose files carry a dictionary-encoded
 * column: each shard's file holds a dictionary of its own, which the merged file unifies, so that it reads
 * back as the single run's, byte for byte. What cannot be merged fails with one line naming the file and
 * the column, and no failure, nor a SIGTERM, leaves a temporary (`.partial`) file behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, open, readdir, readFile, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Dictionary,
  Field,
  Float64,
  Int32,
  List,
  makeData,
  RecordBatchFileWriter,
  Table,
  tableFromIPC,
  Utf8,
  Vector,
  vectorFromArray,
} from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, householdsCsv, runCli, scoreArgs, tempDir, writeTestArtifact } from '../score/helpers.js';

const BATCH_ROWS = 10;
/** The shards are scored on the main thread: worker threads are not what a merge is tested for. */
const MAIN_THREAD = ['--workers', '0'];
let dir: string;
let model: string;

beforeAll(async () => {
  dir = await tempDir('merge-dictionary');
  model = await writeTestArtifact(dir);
});

/** A batch of households (every 4th with a negative income: a reject) beside `extra` columns. */
function batchOf(from: number, extra: Record<string, Vector>) {
  return new Table({
    net_annual_income: vectorFromArray(
      Array.from({ length: BATCH_ROWS }, (_, i) => ((from + i) % 4 === 3 ? -5 : 40_000 + (from + i) * 100)),
      new Float64(),
    ),
    zip: vectorFromArray(
      Array.from({ length: BATCH_ROWS }, () => '10001'),
      new Utf8(),
    ),
    ...extra,
  }).batches[0]!;
}

/** A dictionary column of BATCH_ROWS rows: `indices` into `dictionary`, every 5th row null. */
function dictionaryColumn(type: Dictionary, dictionary: Vector, indices: (i: number) => number): Vector {
  const nulls = Uint8Array.of(0b11101111, 0b01);
  return new Vector([
    makeData({
      type,
      length: BATCH_ROWS,
      nullCount: 2,
      nullBitmap: nulls,
      data: Int32Array.from({ length: BATCH_ROWS }, (_, i) => indices(i)),
      dictionary,
    }),
  ]);
}

/** Three batches, one per shard of three, written as one Arrow IPC file. */
async function writeInput(name: string, columnOf: (batch: number) => Vector): Promise<string> {
  const writer = new RecordBatchFileWriter();
  for (let b = 0; b < 3; b++) writer.write(batchOf(b * BATCH_ROWS, { colour: columnOf(b) }));
  const path = join(dir, `${name}.arrow`);
  await writeFile(path, writer.finish().toUint8Array(true));
  return path;
}

/** `outlay score` of every shard of three, and their summaries. */
async function scoreShards(input: string, name: string): Promise<string[]> {
  const summaries = [];
  for (let shard = 1; shard <= 3; shard++) {
    const out = join(dir, `${name}-shard-${shard}`);
    const run = await runCli(
      scoreArgs(input, out, model, '--format', 'arrow', '--shard', `${shard}/3`, ...MAIN_THREAD),
    );
    expect(run.code, run.stderr).toBe(3);
    summaries.push(join(out, `${name}.summary.json`));
  }
  return summaries;
}

const partials = async (path: string) => (await readdir(path)).filter((file) => file.endsWith('.partial'));

describe('outlay merge --rows: Arrow shards with a dictionary column (CLI)', () => {
  /** The summaries of the three shards of a file whose Utf8 dictionary grows in its last batch (a delta). */
  let colourShards: string[];
  let colourInput: string;

  beforeAll(async () => {
    const type = new Dictionary(new Utf8(), new Int32(), 0);
    const first = vectorFromArray(['red', 'green'], new Utf8());
    const grown = new Vector([...first.data, ...vectorFromArray(['blue'], new Utf8()).data]);
    colourInput = await writeInput('colours', (b) =>
      dictionaryColumn(type, b < 2 ? first : grown, (i) => (b < 2 ? i % 2 : (i + 1) % 3)),
    );
    colourShards = await scoreShards(colourInput, 'colours');
  });

  it("contract: a Utf8 dictionary that grows in the last batch → exit 3, the merged files are the single run's, byte for byte", async () => {
    const single = join(dir, 'colours-single');
    expect(
      (await runCli(scoreArgs(colourInput, single, model, '--format', 'arrow', ...MAIN_THREAD))).code,
    ).toBe(3);
    const out = join(dir, 'colours-merged');
    const merge = await runCli(['merge', ...colourShards, '--rows', '--out', out]);
    expect(merge.stderr).toBe('');
    expect(merge.code).toBe(3);
    const merged = tableFromIPC(await readFile(join(out, 'colours.scored.arrow')));
    expect(String(merged.getChild('colour')!.type)).toBe('Dictionary<Int32, Utf8>');
    expect(new Set(merged.getChild('colour')!)).toEqual(new Set(['red', 'green', 'blue', null]));
    for (const file of ['colours.scored.arrow', 'colours.rejects.csv'])
      expect((await readFile(join(out, file))).equals(await readFile(join(single, file))), file).toBe(true);
    expect(await partials(out)).toEqual([]);
  });

  it('contract: a dictionary of lists (whose values cannot be compared), or a truncated shard file → exit 1, one line naming the file and why, no file and no .partial left', async () => {
    const type = new Dictionary(new List(new Field('item', new Int32(), true)), new Int32(), 1);
    const lists = vectorFromArray([[1], [2, 3]], type.dictionary);
    const listInput = await writeInput('codes', () => dictionaryColumn(type, lists, (i) => i % 2));
    // The colour shards, the second one's scored file cut short.
    const truncated = [];
    for (let shard = 1; shard <= 3; shard++) {
      await cp(join(dir, `colours-shard-${shard}`), join(dir, `cut-shard-${shard}`), { recursive: true });
      truncated.push(join(dir, `cut-shard-${shard}`, 'colours.summary.json'));
    }
    const cutFile = join(dir, 'cut-shard-2', 'colours.scored.arrow');
    await truncate(cutFile, 100);
    const cases = [
      {
        summaries: await scoreShards(listInput, 'codes'),
        reason: `${join(dir, 'codes-shard-2', 'codes.scored.arrow')}: column "colour": a List<Int32> dictionary that differs between batches cannot be unified`,
      },
      { summaries: truncated, reason: `${cutFile}: not a readable Arrow IPC file` },
    ];
    for (const [i, { summaries, reason }] of cases.entries()) {
      const out = join(dir, `failed-merge-${i}`);
      const merge = await runCli(['merge', ...summaries, '--rows', '--out', out]);
      expect(merge.code).toBe(1);
      const lines = merge.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`merge --rows: ${reason}`);
      expect(await readdir(out)).toEqual([]);
    }
  });
});

describe('outlay merge --rows: stopped by SIGTERM (CLI)', () => {
  it('contract: SIGTERM while the rows are merged → exit 143, nothing published, no .partial left', async () => {
    const input = join(dir, 'households.csv');
    await writeFile(input, householdsCsv(40, { badEvery: 9 }));
    const summaries = [];
    for (let shard = 1; shard <= 2; shard++) {
      const out = join(dir, `csv-shard-${shard}`);
      const run = await runCli(scoreArgs(input, out, model, '--shard', `${shard}/2`, ...MAIN_THREAD));
      expect(run.code, run.stderr).toBe(3);
      summaries.push(join(out, 'households.summary.json'));
    }
    // Shard 2's scored file becomes a pipe that this test fills: the merge waits on it, deterministically
    // mid-way, until the test has sent its signal.
    const piped = join(dir, 'csv-shard-2', 'households.scored.csv');
    const content = await readFile(piped);
    await unlink(piped);
    expect(spawnSync('mkfifo', [piped]).status).toBe(0);
    const out = join(dir, 'stopped-merge');
    const merge = spawn(process.execPath, [BIN, 'merge', ...summaries, '--rows', '--out', out]);
    let stderr = '';
    merge.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    let closed = false;
    const exited = new Promise<number | null>((resolve) =>
      merge.on('close', (code) => {
        closed = true;
        resolve(code);
      }),
    );
    // Waits for the merge to get somewhere, or to end (then the expectations below say how).
    const until = async (reached: () => boolean) => {
      while (!reached() && !closed) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const pipe = await open(piped, 'w');
    const half = content.indexOf(10, content.length >> 1) + 1;
    await pipe.write(content.subarray(0, half));
    await until(() => existsSync(join(out, '.households.scored.csv.partial')));
    merge.kill('SIGTERM');
    await until(() => stderr.includes('stopping'));
    await pipe.write(content.subarray(half));
    await pipe.close();
    expect(await exited).toBe(143);
    expect(stderr).toContain('merge interrupted: nothing published');
    expect(await readdir(out)).toEqual([]);
  });
});
