/**
 * `outlay score` through the real binary (dist build) with a small synthetic model artifact: exit codes,
 * files, worker-count independence, and SIGKILL-then-resume giving byte-identical files.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CliRun,
  householdsCsv,
  killWhenCheckpointed,
  modelArgs,
  runCli,
  scoreArgs as scoreArgsOf,
  tempDir,
  writeTestArtifact,
} from './helpers.js';

let dir: string;
let model: string;
let input: string;
const ROWS = 6_000;

const scoreArgs = (out: string, ...extra: string[]) => scoreArgsOf(input, out, model, ...extra);
const outputsOf = async (out: string) => ({
  scored: await readFile(join(out, 'households.scored.csv')),
  rejects: await readFile(join(out, 'households.rejects.csv')),
});

/**
 * One uninterrupted run on one worker, shared: its exit code and files are the first test's subject, the
 * one-worker run of the thread comparison and the files every killed-and-resumed run must reproduce.
 */
const REFERENCE_ARGS = ['--workers', '1', '--batch-rows', '500'];
let reference: { out: string; run: CliRun; files: Awaited<ReturnType<typeof outputsOf>> };

beforeAll(async () => {
  dir = await tempDir('cli');
  model = await writeTestArtifact(dir);
  input = join(dir, 'households.csv');
  await writeFile(input, householdsCsv(ROWS, { badEvery: 997 }));
  const out = join(dir, 'out-3');
  const run = await runCli(scoreArgs(out, ...REFERENCE_ARGS));
  reference = { out, run, files: await outputsOf(out) };
});

describe('outlay score (CLI)', () => {
  it('contract: a file with rejects → exit 3, prints the four output paths, counts reconcile in the summary', async () => {
    const { out, run } = reference;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(3);
    for (const file of ['scored.csv', 'rejects.csv', 'summary.json', 'report.html'])
      expect(run.stdout).toContain(join(out, `households.${file}`));
    const summary = JSON.parse(await readFile(join(out, 'households.summary.json'), 'utf8'));
    expect(summary.counts).toMatchObject({ rows_in: ROWS, rows_rejected: Math.floor(ROWS / 997) });
    expect(summary.meta.model_version).toMatch(/^test-artifact-1\+[0-9a-f]{12}$/);
  });

  it('contract: every row valid → exit 0; unreadable input → exit 1 with the reason and no output files', async () => {
    const small = join(dir, 'small.csv');
    await writeFile(small, 'net_annual_income,zip\n50000,10001\n');
    const ok = await runCli([
      'score',
      small,
      '--out',
      join(dir, 'out-0'),
      ...modelArgs(model),
      '--no-progress',
    ]);
    expect(ok.code).toBe(0);
    const missing = await runCli([
      'score',
      join(dir, 'nope.csv'),
      '--out',
      join(dir, 'out-1'),
      ...modelArgs(model),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.csv/);
    expect(await readdir(join(dir, 'out-1')).catch(() => [])).toEqual([]);
  });

  it('contract: a batch file with --period monthly → exit 1, the option named, no output files', async () => {
    const out = join(dir, 'out-period');
    const run = await runCli(scoreArgs(out, '--period', 'monthly'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--period monthly applies to one-off requests/);
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  it('scenario: 1 and 3 workers and the main thread write byte-identical files', async () => {
    // The reference ran on 1 worker with these batches (REFERENCE_ARGS).
    const runs = [reference.files];
    for (const workers of ['0', '3']) {
      const out = join(dir, `out-w${workers}`);
      await runCli(scoreArgs(out, '--workers', workers, '--batch-rows', '500'));
      runs.push(await outputsOf(out));
    }
    for (const run of runs.slice(1)) {
      expect(run.scored.equals(runs[0]!.scored)).toBe(true);
      expect(run.rejects.equals(runs[0]!.rejects)).toBe(true);
    }
  });

  it('scenario: killed with SIGKILL at start-up, at its first checkpoint, a third and two thirds through, then resumed → files byte-identical to an uninterrupted run', async () => {
    const args = (out: string) =>
      scoreArgs(out, '--workers', '1', '--resume', '--checkpoint-every', '50', '--batch-rows', '256');
    // The shared uninterrupted run (its batches of 500 rows: the files do not depend on --batch-rows).
    const expected = reference.files;
    // Kill points are read from the run's own checkpoint (rows done), not from a clock, so they land in
    // the same places however loaded the machine is.
    for (const [trial, rowsDone] of [0, 1, ROWS / 3, (2 * ROWS) / 3].entries()) {
      const out = join(dir, `out-kill-${trial}`);
      await killWhenCheckpointed(args(out), join(out, '.households.checkpoint.json'), rowsDone);
      const visible = (await readdir(out).catch(() => [] as string[])).filter(
        (name) => !name.startsWith('.'),
      );
      // A killed run leaves only hidden temporary files, unless it had already finished.
      if (!visible.includes('households.summary.json')) expect(visible).toEqual([]);
      const resumed = await runCli(args(out));
      expect(resumed.code).toBe(3);
      const actual = await outputsOf(out);
      expect(actual.scored.equals(expected.scored)).toBe(true);
      expect(actual.rejects.equals(expected.rejects)).toBe(true);
      expect((await readdir(out)).filter((name) => name.startsWith('.'))).toEqual([]);
      const summary = JSON.parse(await readFile(join(out, 'households.summary.json'), 'utf8'));
      expect(summary.counts.rows_in).toBe(ROWS);
    }
  });
});
