/**
 * `outlay score` through the real binary on CSV files with a stray quote: the lines a rejected record
 * swallows count toward the reject rate, and records spanning several lines are reported with their lines
 * (or, with --single-line-records, rejected).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { householdsCsv, runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

const ROWS = 2_000;

let dir: string;
let model: string;
/** A generated file's lines (no quotes, no line breaks in values), header first: line n is lines[n - 1]. */
let lines: string[];

beforeAll(async () => {
  dir = await tempDir('stray-quotes');
  model = await writeTestArtifact(dir);
  lines = householdsCsv(ROWS)
    .replace(/"two\nlines"/g, 'two lines')
    .replace(/"said ""hi"", then left"/g, 'said hi')
    .trimEnd()
    .split('\n');
});

async function score(name: string, fileLines: readonly string[], ...extra: string[]) {
  const input = join(dir, `${name}.csv`);
  await writeFile(input, `${fileLines.join('\n')}\n`);
  const out = join(dir, name);
  const run = await runCli([...scoreArgs(input, out, model, ...extra)]);
  const rejects = parse(await readFile(join(out, `${name}.rejects.csv`)).catch(() => ''), {
    columns: true,
  }) as { reject_reason: string }[];
  return { ...run, rejects };
}

/** Line `line` with a quote opening its id: `"H20,…` */
const opened = (line: number) => lines.map((text, i) => (i === line - 1 ? `"${text}` : text));

describe('outlay score: stray quotes (CLI)', () => {
  it('scenario: a quote never closed at line 21 of 2,001 → one reject, but --max-reject-rate 0.01 fails (exit 4)', async () => {
    const run = await score('unclosed', opened(21), '--max-reject-rate', '0.01');
    expect(run.code).toBe(4);
    expect(run.rejects).toHaveLength(1);
    expect(run.rejects[0]!.reject_reason).toContain('lines 21-2001');
    expect(run.stderr).toContain('reject rate above --max-reject-rate');
    const out = join(dir, 'unclosed');
    const summary = JSON.parse(await readFile(join(out, 'unclosed.summary.json'), 'utf8'));
    expect(summary.line_spans).toEqual({ multiline_records: 1, ranges: [[21, 2001]], swallowed_lines: 1980 });
    expect(await readFile(join(out, 'unclosed.report.html'), 'utf8')).toContain('lines 21–2001');
  });

  it('scenario: a quote opened at line 21 and closed five lines later → reported with lines 21-26 in the log; --single-line-records rejects it', async () => {
    const file = opened(21);
    file[25] = `${file[25]!.replace(/,/, '",')}`;
    const input = join(dir, 'folded.csv');
    await writeFile(input, `${file.join('\n')}\n`);
    const args = scoreArgs(input, join(dir, 'folded'), model);
    const run = await runCli(args.map((arg) => (arg === 'warn' ? 'info' : arg)));
    const warning = run.stderr.split('\n').find((line) => line.includes('spanned several lines'));
    expect(warning, run.stderr).toBeDefined();
    expect(JSON.parse(warning!)).toMatchObject({
      multilineRecords: 1,
      ranges: [[21, 26]],
      swallowedLines: 0,
    });

    const strict = await score('folded-strict', file, '--single-line-records');
    expect(strict.code).toBe(3);
    expect(strict.rejects).toHaveLength(1);
    expect(strict.rejects[0]!.reject_reason).toContain('lines 21-26');
  });
});
