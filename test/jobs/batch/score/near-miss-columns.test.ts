/**
 * Near-miss columns through the real binary: a lender's `homeowner, household_size, rent` stop the job
 * naming the fields and the `--map` that uses them; declared pass-through they score, and the summary and
 * the report say how every input column was used.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

let dir: string;
let model: string;
let input: string;

beforeAll(async () => {
  dir = await tempDir('near-miss');
  model = await writeTestArtifact(dir);
  input = join(dir, 'lender.csv');
  await writeFile(
    input,
    'id,zip,net_annual_income,homeowner,household_size,rent\nA1,10001,52000,true,3,14400\n',
  );
});

describe('outlay score: near-miss columns', () => {
  it('homeowner, household_size, rent → exit 1 naming is_homeowner, household_members, mortgage_and_rent and the --map line', async () => {
    const run = await runCli(scoreArgs(input, join(dir, 'stopped'), model));
    expect(run.code).toBe(1);
    for (const named of [
      '"homeowner" (is_homeowner?)',
      '"household_size" (household_members?)',
      '"rent" (mortgage_and_rent?)',
      '{"columns":{"homeowner":"is_homeowner","household_size":"household_members","rent":"mortgage_and_rent"}}',
      '--pass-through homeowner,household_size,rent',
    ])
      expect(run.stderr).toContain(named);
  });

  it('declared --pass-through → scored; summary and report list every column and its use', async () => {
    const out = join(dir, 'passed');
    const run = await runCli(scoreArgs(input, out, model, '--pass-through', 'homeowner,household_size,rent'));
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'lender.summary.json'), 'utf8'));
    expect(summary.meta.columns).toEqual([
      { column: 'id', field: null, declared: false },
      { column: 'zip', field: 'zip', declared: false },
      { column: 'net_annual_income', field: 'net_annual_income', declared: false },
      { column: 'homeowner', field: null, declared: true },
      { column: 'household_size', field: null, declared: true },
      { column: 'rent', field: null, declared: true },
    ]);
    const report = await readFile(join(out, 'lender.report.html'), 'utf8');
    expect(report).toContain('<th scope="row">rent</th><td>passed through unused (--pass-through)</td>');
    expect(report).toContain('<th scope="row">zip</th><td>used as <code>zip</code></td>');
  });
});
