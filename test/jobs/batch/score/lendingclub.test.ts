/**
 * The worked example of docs/batch.md: the LendingClub file (a real lender-shaped file: gross income,
 * ZIP3, tenure as RENT/OWN/MORTGAGE, loan amount and term), its first 2,000 rows scored with the loan by
 * the documented command. The file is not committed (its README grants no licence to redistribute), so
 * the test needs the raw data directory.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../../src/paths.js';
import { runOutlay } from '../../../reliability/support/outlay-cli.js';
import { tempDir } from './helpers.js';

const SHARED = process.env.OUTLAY_SHARED_DIR;
const FILE = 'lendingclub/lendingclub_loanstats3a_2007_2011_subset.csv';

describe.skipIf(SHARED === undefined)('the LendingClub worked example (docs/batch.md)', () => {
  it('the first 2,000 rows, scored with --map sample-data/lendingclub-map.json --loan-rate 12% → every row scored, at ZIP3 level, take-home estimated, with the lending columns and the cut-off table', async () => {
    const dir = await tempDir('lendingclub');
    const lines = (await readFile(join(SHARED!, FILE), 'utf8')).split('\n');
    const input = join(dir, 'lendingclub.csv');
    await writeFile(input, `${lines.slice(0, 2001).join('\n')}\n`);
    const outDir = join(dir, 'out');
    await mkdir(outDir);
    const map = join(PACKAGE_ROOT, 'sample-data', 'lendingclub-map.json');
    const run = await runOutlay([
      'score',
      input,
      '--map',
      map,
      '--loan-rate',
      '12%',
      '--out',
      outDir,
      '--no-progress',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const scored = parse(await readFile(join(outDir, 'lendingclub.scored.csv'), 'utf8'), {
      columns: true,
    }) as Record<string, string>[];
    expect(scored).toHaveLength(2000);
    // A ZIP3 prefix of a state is scored at its state (zip3); one of a territory or of military mail
    // (006xx, 090xx) is outside the model's coverage, flagged so.
    expect(new Set(scored.map((row) => row.geo_level))).toEqual(new Set(['zip3', 'outside']));
    for (const row of scored.filter((r) => r.geo_level === 'outside'))
      expect(row.expense_flags).toContain('ZIP_OUTSIDE_COVERAGE');
    expect(scored.every((row) => row.expense_flags?.endsWith('TAKE_HOME_ESTIMATED'))).toBe(true);
    // Row 1: $5,000 over 36 months at 12 %: 5000 × 0.01 / (1 − 1.01^−36) = 166.07.
    expect(scored[0]!.loan_payment).toBe('166.07');
    expect(scored.every((row) => row.lending_index !== '')).toBe(true);
    const summary = JSON.parse(await readFile(join(outDir, 'lendingclub.summary.json'), 'utf8'));
    expect(summary.lending.overall.rows).toBe(2000);
  }, 300_000);
});

if (SHARED === undefined)
  describe('the LendingClub worked example', () => {
    it.skip('needs OUTLAY_SHARED_DIR (the raw data directory, with lendingclub/): the file is not committed', () => {});
  });
