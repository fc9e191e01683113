import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runMerge } from '../../../../jobs/batch/merge/merge-job.js';
import { type Summary, SummaryBuilder } from '../../../../jobs/batch/report/summary.js';
import { parseSummary, serializeSummary } from '../../../../jobs/batch/report/summary-json.js';
import { main } from '../../../../jobs/cli/main.js';
import { META, row, shardMeta } from '../report/fixtures.js';

const ROWS = [-300, -20, 0, 45, 45, 120, 800, 1500, 2200].map((psa, i) =>
  row({ psa, score: 50 + i * 5, savingsScore: 45 + i * 5, state: i % 2 === 0 ? 'CA' : 'TX' }),
);

/** Summaries of the rows split into `count` shards by row number, as `--shard I/N` splits them. */
function shardSummaries(count: number): Summary[] {
  return Array.from({ length: count }, (_, i) => {
    const builder = new SummaryBuilder({ groupBy: [] });
    ROWS.forEach((r, rowIndex) => {
      if (rowIndex % count === i) builder.addScored(r);
    });
    if (i === 0) builder.addRejected('/demographics/zip: is required');
    return builder.finish(shardMeta(i + 1, count));
  });
}

function singleRunSummary(): Summary {
  const builder = new SummaryBuilder({ groupBy: [] });
  for (const r of ROWS) builder.addScored(r);
  builder.addRejected('/demographics/zip: is required');
  return builder.finish(META);
}

describe('outlay merge', () => {
  let dir: string;
  let shardPaths: string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-merge-'));
    shardPaths = await Promise.all(
      shardSummaries(3).map(async (summary, i) => {
        const path = join(dir, `shard-${i + 1}.summary.json`);
        await writeFile(path, serializeSummary(summary));
        return path;
      }),
    );
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('when given every shard, writes <input name>.summary.json and .report.html equal to a single run', async () => {
    const out = join(dir, 'out');
    const result = await runMerge({ summaries: shardPaths, outDir: out });
    expect(result.summaryPath).toBe(join(out, 'households.summary.json'));
    const written = parseSummary(await readFile(result.summaryPath, 'utf8'), 'merged');
    const { meta: _merged, ...mergedData } = written;
    const { meta: _single, ...singleData } = singleRunSummary();
    expect(mergedData).toEqual(singleData);
    expect(await readFile(result.reportPath, 'utf8')).toContain('merged from 3 shard summaries');
    // Only the two final files: no temporary file left behind.
    expect((await readdir(out)).sort()).toEqual(['households.report.html', 'households.summary.json']);
  });

  it('when run from the command line with --name, exits as the single run would and prints where the files are', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const code = await main(['merge', ...shardPaths, '--out', join(dir, 'out'), '--name', 'nightly']);
    const { counts } = singleRunSummary();
    expect(code).toBe(counts.rows_rejected === 0 ? 0 : 3);
    expect(String(stdout.mock.calls.flat().join(''))).toContain(join(dir, 'out', 'nightly.report.html'));
  });

  it('when a shard is missing, exits 1 naming it and writes nothing', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await main(['merge', shardPaths[0]!, shardPaths[2]!, '--out', join(dir, 'out')]);
    expect(code).toBe(1);
    expect(stderr.mock.calls.flat().join('')).toContain('missing shard 2/3');
    await expect(readdir(join(dir, 'out'))).rejects.toThrow(/ENOENT/);
  });

  it('when a file is not a summary, exits 1 naming the file', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const bogus = join(dir, 'bogus.json');
    await writeFile(bogus, '{"rows": 3}');
    expect(await main(['merge', bogus, '--out', join(dir, 'out')])).toBe(1);
    expect(stderr.mock.calls.flat().join('')).toContain(`${bogus} is not an Outlay summary`);
  });

  it('when the output would overwrite one of the inputs, refuses', async () => {
    await expect(runMerge({ summaries: shardPaths, outDir: dir, name: 'shard-1' })).rejects.toThrow(
      /is one of the inputs/,
    );
  });
});
