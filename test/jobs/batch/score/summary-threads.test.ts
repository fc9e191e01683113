/**
 * The summary does not depend on which thread scored a row. With --workers 0 the main thread scores every
 * row. With --workers 2 the worker pool deals the batches (the main thread scores until a worker has loaded
 * its engine, then when every worker has two batches waiting), so who scores what depends on timing; on
 * this input, counted once, the Parquet run's workers scored all 120 batches, the CSV run's main thread 100
 * of them and its workers the rest, and the Arrow run's main thread all of them before a worker was ready.
 * Through the real binary on real files, the two must write the same summary and report: a guard for any
 * change to how the job's work is dealt between threads (bench/NOTES.md lists those tried).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

/** 120 batches of 25 rows: enough for both workers and the main thread to take a share. */
const ROWS = 3_000;
const BATCH_ROWS = '25';

let dir: string;
let model: string;
let input: string;

beforeAll(async () => {
  dir = await tempDir('summary-threads');
  model = await writeTestArtifact(dir);
  input = join(dir, 'households.arrow');
  const sample = await runCli(['sample', '--rows', String(ROWS), '--bad-rows', '12', '--out', input]);
  expect(sample.code).toBe(0);
});

/** The run's times (start, finish, phase timings) are the only part that may differ between two runs. */
const withoutTimes = (text: string) =>
  text
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
    .replace(/"(engineReadyMs|scoringMs|totalMs)": \d+/g, '"$1": 0')
    .replace(/(Time: [^<]+<\/th><td>)[\d,]+ ms/g, '$1 0 ms');

async function summaryAndReport(format: string, workers: string) {
  const out = join(dir, `out-${format}-w${workers}`);
  const run = await runCli(
    scoreArgs(
      input,
      out,
      model,
      '--format',
      format,
      '--workers',
      workers,
      '--batch-rows',
      BATCH_ROWS,
      '--group-by',
      'household_members',
    ),
  );
  expect(run.stderr).toBe('');
  expect(run.code).toBe(3);
  const text = (file: string) => readFile(join(out, `households.${file}`), 'utf8').then(withoutTimes);
  return { summary: await text('summary.json'), report: await text('report.html') };
}

describe('outlay score summary (CLI)', () => {
  it.each(['arrow', 'parquet', 'csv'])(
    'scenario: Arrow input written as %s, scored on two workers and the main thread vs on the main thread alone → identical summary.json and report',
    async (format) => {
      const alone = await summaryAndReport(format, '0');
      const threads = await summaryAndReport(format, '2');
      const { counts } = JSON.parse(threads.summary);
      expect(counts.rows_in).toBe(ROWS);
      expect(counts.rows_rejected).toBeGreaterThan(0);
      expect(threads.summary).toBe(alone.summary);
      expect(threads.report).toBe(alone.report);
    },
  );
});
