/**
 * How a run ends, through the real binary: a run that scored nothing (or less than half its rows) fails
 * with exit 4 without any flag, `outlay merge` exits as the single run over the same rows would, and a
 * missing input file is one line on stderr, not a stack trace.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { householdsCsv, runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

let dir: string;
let model: string;

/** `outlay score` arguments on the main thread: worker threads are not what an exit code is about. */
const mainThreadArgs = (input: string, out: string, ...extra: string[]) =>
  scoreArgs(input, out, model, '--workers', '0', ...extra);

beforeAll(async () => {
  dir = await tempDir('outcome');
  model = await writeTestArtifact(dir);
});

/** Scores `csv` whole, then as two shards merged; returns both exit codes and the shard summaries. */
async function singleAndMerged(name: string, csv: string) {
  const input = join(dir, `${name}.csv`);
  await writeFile(input, csv);
  const single = await runCli(mainThreadArgs(input, join(dir, name, 'single')));
  const summaries = [];
  for (const shard of [1, 2]) {
    const out = join(dir, name, `shard-${shard}`);
    const run = await runCli(mainThreadArgs(input, out, '--shard', `${shard}/2`));
    expect(run.code, run.stderr).not.toBe(1);
    summaries.push(join(out, `${name}.summary.json`));
  }
  const merged = await runCli(['merge', ...summaries, '--out', join(dir, name, 'merged')]);
  return { input, single, merged, summaries };
}

describe('outlay score and merge: the exit code of a published run', () => {
  it('every row rejected: exit 4 without a flag, for the run and its merge; 3 with --max-reject-rate 1', async () => {
    const { input, single, merged, summaries } = await singleAndMerged(
      'all-bad',
      householdsCsv(40, { badEvery: 1 }),
    );
    expect(single.code, single.stderr).toBe(4);
    expect(single.stdout).toContain('40 rows in, 0 scored, 40 rejected');
    expect(merged.code, merged.stderr).toBe(4);
    const allowed = ['--max-reject-rate', '1'];
    expect((await runCli(mainThreadArgs(input, join(dir, 'all-bad', 'allowed'), ...allowed))).code).toBe(3);
    const out = join(dir, 'all-bad', 'merged-allowed');
    expect((await runCli(['merge', ...summaries, '--out', out, ...allowed])).code).toBe(3);
  });

  it('a few rows rejected, no flag → exit 3 for the run and its merge (was 0 for the merge)', async () => {
    const { single, merged } = await singleAndMerged('few-bad', householdsCsv(40, { badEvery: 9 }));
    expect(single.code).toBe(3);
    expect(merged.code).toBe(3);
    expect(merged.stdout).toContain('40 rows in, 36 scored, 4 rejected');
  });

  it('a missing input file → exit 1, one line naming it, no stack trace', async () => {
    const run = await runCli(mainThreadArgs(join(dir, 'nope.csv'), join(dir, 'nope')));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`outlay: input file ${join(dir, 'nope.csv')} does not exist\n`);
    expect(run.stderr).not.toMatch(/\n\s+at |node:/);
  });
});
