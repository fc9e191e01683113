/**
 * The scored file's explanation columns on 20,000 generated households with OUTLAY_FULL_TESTS=1 (CI's
 * first pass, README), 5,000 in a maintainer's run, through the real binary with the shipped model: the index ranks (no value covers more than 1 % of rows), more debt lowers it for every
 * row, and every row under break-even says why with codes from the published table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_REASONS } from '../../../../src/engine/reasons.js';
import { codeCell, docsTable } from '../../../engine/scores-doc.js';
import { sizedForRun } from '../../../support/full-tests.js';
import { runCli, tempDir } from './helpers.js';

const ROWS = sizedForRun(20_000, 5_000);
/** $500 a month of other debt payments, annual as the batch reads amounts. */
const EXTRA_DEBT = 6_000;

type Row = Record<string, string>;

let plain: Row[];
let indebted: Row[];

async function scored(dir: string, name: string, rows: Row[]): Promise<Row[]> {
  const input = join(dir, `${name}.csv`);
  await writeFile(input, stringify(rows, { header: true }));
  const run = await runCli([
    'score',
    input,
    '--out',
    join(dir, 'out'),
    '--no-progress',
    '--log-level',
    'warn',
    // On the main thread: worker threads are not what these tests are about.
    '--workers',
    '0',
  ]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return parse(await readFile(join(dir, 'out', `${name}.scored.csv`)), { columns: true }) as Row[];
}

beforeAll(async () => {
  const dir = await tempDir('explained');
  const sample = join(dir, 'sample.csv');
  const generated = await runCli(['sample', '--rows', String(ROWS), '--out', sample]);
  expect(generated.code).toBe(0);
  const rows = parse(await readFile(sample), { columns: true }) as Row[];
  const withDebt = rows.map((row) => ({
    ...row,
    other_debt_payments: String(Number(row.other_debt_payments || 0) + EXTRA_DEBT),
  }));
  [plain, indebted] = [await scored(dir, 'plain', rows), await scored(dir, 'indebted', withDebt)];
}, 300_000);

describe(`explanation columns on outlay sample --rows ${ROWS} (CLI, shipped model)`, () => {
  it('property: no single outlay_index value covers more than 1 % of the rows', () => {
    expect(plain).toHaveLength(ROWS);
    const counts = new Map<string, number>();
    for (const row of plain) counts.set(row.outlay_index!, (counts.get(row.outlay_index!) ?? 0) + 1);
    const largest = Math.max(...counts.values());
    expect(largest / ROWS).toBeLessThanOrEqual(0.01);
  });

  it('property: $500 a month more other_debt_payments lowers outlay_index for every row', () => {
    expect(indebted).toHaveLength(ROWS);
    const notLower = plain.filter(
      (row, i) => !(Number(indebted[i]!.outlay_index) < Number(row.outlay_index)),
    );
    expect(notLower.map((row) => row.id)).toEqual([]);
  });

  it('contract: every row under 80 has 1 to 4 reason codes, each in the docs/scores.md table', () => {
    const published = new Set(docsTable('Reason codes').map(codeCell));
    const under = plain.filter((row) => Number(row.outlay_index) < 80);
    expect(under.length).toBeGreaterThan(0);
    for (const row of under) {
      const codes = row.reason_codes!.split(';').filter((code) => code !== '');
      expect(codes.length, row.id).toBeGreaterThanOrEqual(1);
      expect(codes.length, row.id).toBeLessThanOrEqual(MAX_REASONS);
      for (const code of codes) expect(published.has(code), code).toBe(true);
    }
  });

  it('contract: outlay_score is outlay_index clamped to 0–100; the percentile is within 0–100', () => {
    for (const row of plain) {
      const index = Number(row.outlay_index);
      expect(Number(row.outlay_score)).toBe(Math.min(100, Math.max(0, index)));
      expect(Number(row.outlay_percentile)).toBeGreaterThanOrEqual(0);
      expect(Number(row.outlay_percentile)).toBeLessThanOrEqual(100);
    }
  });
});
