/**
 * `--reference`, `--max-psi` and `outlay compare` through the real binary with the shipped model, on
 * 2,000 generated households (10 of them invalid): the sample against itself, against another seed,
 * against copies with take-home pay raised, against a run on another basis, and as four merged shards.
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../../../jobs/batch/report/comparison-schema.js';
import { EXIT_PSI_EXCEEDED, EXIT_REJECTS } from '../../../../jobs/batch/score/exit-codes.js';
import { runCli, tempDir } from '../score/helpers.js';
import { STABILITY_FIELD_NAMES } from './fixtures.js';

const ROWS = 2_000;
const BAD_ROWS = 10;

let dir: string;
/** The reference run: seed 1, scored whole. */
let reference: string;

/** Quiet, and on the main thread: worker threads are not what these tests compare. */
const quiet = ['--no-progress', '--log-level', 'warn', '--workers', '0'];
const summaryPath = (out: string, name: string) => join(dir, out, `${name}.summary.json`);
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
const comparisonIn = async (out: string, name: string): Promise<Comparison> =>
  (await readJson(summaryPath(out, name))).comparison;
const psiOf = (comparison: Comparison) =>
  Object.fromEntries(comparison.psi.map((field) => [field.field, field.psi]));

async function sample(name: string, seed: number): Promise<string> {
  const path = join(dir, `${name}.csv`);
  const run = await runCli([
    'sample',
    '--rows',
    String(ROWS),
    '--seed',
    String(seed),
    '--bad-rows',
    String(BAD_ROWS),
    '--out',
    path,
  ]);
  expect(run.code).toBe(0);
  return path;
}

/** A copy of `input` with every readable net_annual_income multiplied by `factor`. */
async function takeHomeTimes(input: string, factor: number, name: string): Promise<string> {
  const rows = parse(await readFile(input), { columns: true }) as Record<string, string>[];
  const raised = rows.map((row) => {
    const net = Number(row.net_annual_income);
    return row.net_annual_income === '' || Number.isNaN(net)
      ? row
      : { ...row, net_annual_income: String(Math.round(net * factor)) };
  });
  const path = join(dir, `${name}.csv`);
  await writeFile(path, stringify(raised, { header: true }));
  return path;
}

async function score(input: string, out: string, ...extra: string[]) {
  return runCli(['score', input, '--out', join(dir, out), ...quiet, ...extra]);
}

let seed1: string;

beforeAll(async () => {
  dir = await tempDir('reference');
  seed1 = await sample('households', 1);
  const run = await score(seed1, 'reference');
  expect(run.code).toBe(EXIT_REJECTS);
  reference = summaryPath('reference', 'households');
}, 120_000);

describe('outlay score --reference (CLI, shipped model, 2,000 rows)', () => {
  it('scenario: the sample against itself gives PSI 0 for every field, no warning, no change', async () => {
    const run = await score(seed1, 'self', '--reference', reference, '--max-psi', '0');
    expect(run.code).toBe(EXIT_REJECTS);
    const comparison = await comparisonIn('self', 'households');
    expect(comparison.psi.map((field) => field.field)).toEqual(STABILITY_FIELD_NAMES);
    for (const field of comparison.psi)
      expect([field.field, field.psi, field.reading]).toEqual([field.field, 0, 'stable']);
    expect(comparison.warnings).toEqual([]);
    expect(comparison.reject_rate).toEqual({ name: 'rejected', reference: 0.005, current: 0.005, change: 0 });
    for (const change of [...comparison.reason_codes, ...comparison.expense_flags])
      expect(change.change).toBe(0);
    for (const m of comparison.cohort_medians) expect(m.current_median_psa).toBe(m.reference_median_psa);
  }, 60_000);

  it('scenario: another sample seed reads stable everywhere (every PSI under 0.10)', async () => {
    const run = await score(await sample('seed2', 2), 'seed2', '--reference', reference, '--max-psi', '0.25');
    expect(run.code).toBe(EXIT_REJECTS);
    const comparison = await comparisonIn('seed2', 'seed2');
    for (const field of comparison.psi) {
      expect(field.psi, field.field).toBeLessThan(0.1);
      expect(field.reading, field.field).toBe('stable');
    }
  }, 60_000);

  /**
   * Take-home ×1.3 moves log income by ln 1.3 = 0.26, a third of the sample's spread (σ = 0.85): PSI, a
   * symmetric divergence, is then about (0.26 / 0.85)² ≈ 0.10 however the bins are cut, so this reads
   * "watch"; ×1.5 (a shift of half a σ, ≈ 0.23 before binning noise) reads "shifted".
   */
  it('scenario: take-home ×1.3 → take-home and index read "watch", the other inputs 0; within --max-psi 0.25', async () => {
    const run = await score(
      await takeHomeTimes(seed1, 1.3, 'raised13'),
      'raised13',
      '--reference',
      reference,
      '--max-psi',
      '0.25',
    );
    expect(run.code).toBe(EXIT_REJECTS);
    const psi = psiOf(await comparisonIn('raised13', 'raised13'));
    expect(psi.take_home).toBeGreaterThan(0.1);
    expect(psi.index).toBeGreaterThan(0.1);
    for (const field of ['gross_income', 'age', 'household_size', 'tenure', 'state', 'geo_level'])
      expect(psi[field], field).toBe(0);
  }, 60_000);

  it(`scenario: take-home ×1.5 → take-home and index above 0.25; --max-psi 0.25 exits ${EXIT_PSI_EXCEEDED} with every file published and the comparison logged`, async () => {
    const run = await score(
      await takeHomeTimes(seed1, 1.5, 'raised15'),
      'raised15',
      '--reference',
      reference,
      '--max-psi',
      '0.25',
    );
    expect(run.code).toBe(EXIT_PSI_EXCEEDED);
    const comparison = await comparisonIn('raised15', 'raised15');
    const psi = psiOf(comparison);
    expect(psi.take_home).toBeGreaterThan(0.25);
    expect(psi.index).toBeGreaterThan(0.25);
    expect(comparison.psi.find((f) => f.field === 'index')!.reading).toBe('shifted');
    for (const file of ['scored.csv', 'rejects.csv', 'summary.json', 'report.html'])
      await access(join(dir, 'raised15', `raised15.${file}`));
    const log = run.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(log.find((line) => line.msg === 'compared with the reference run')?.psi.index).toBe(psi.index);
    expect(log.find((line) => line.exitCode === EXIT_PSI_EXCEEDED)).toMatchObject({
      indexPsi: psi.index,
      maxPsi: 0.25,
    });
    // outlay compare prints the summary's own comparison, as JSON and as text.
    const json = await runCli(['compare', reference, summaryPath('raised15', 'raised15'), '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(comparison);
    const text = await runCli(['compare', reference, summaryPath('raised15', 'raised15')]);
    expect(text.stdout).toMatch(
      new RegExp(`Take-home income\\s+input\\s+${psi.take_home!.toFixed(4)}\\s+shifted`),
    );
    expect(text.stdout).toMatch(new RegExp(`Index\\s+output\\s+${psi.index!.toFixed(4)}\\s+shifted`));
  }, 60_000);

  it('scenario: a reference scored on another basis is named in a warning, in the summary, the log and compare', async () => {
    const run = await runCli([
      'score',
      seed1,
      '--out',
      join(dir, 'benchmark'),
      '--no-progress',
      '--workers',
      '0',
      '--basis',
      'benchmark',
      '--reference',
      reference,
    ]);
    expect(run.code).toBe(EXIT_REJECTS);
    const comparison = await comparisonIn('benchmark', 'households');
    expect(comparison.warnings).toEqual([
      'The score basis differs: this run benchmark, the reference stated (--basis); the outputs may differ because of it, not because of the applicants.',
    ]);
    expect(run.stderr).toContain('The score basis differs');
    const text = await runCli(['compare', reference, summaryPath('benchmark', 'households')]);
    expect(text.stdout).toContain(
      'WARNING: The score basis differs: this run benchmark, the reference stated',
    );
    // The applicants are the same: every input field is unchanged.
    for (const field of comparison.psi.filter((f) => f.kind === 'input'))
      expect(field.psi, field.field).toBe(0);
  }, 60_000);

  it('scenario: four shards merged (with --reference, --max-psi) compare exactly as the single run does', async () => {
    const seed2 = summaryPath('seed2', 'seed2');
    const shards = await Promise.all(
      [1, 2, 3, 4].map((i) => score(seed1, `shard-${i}`, '--shard', `${i}/4`)),
    );
    for (const shard of shards) expect(shard.code).toBe(EXIT_REJECTS);
    const shardSummaries = [1, 2, 3, 4].map((i) => summaryPath(`shard-${i}`, 'households'));
    const merge = await runCli([
      'merge',
      ...shardSummaries,
      '--out',
      join(dir, 'merged'),
      '--reference',
      seed2,
      '--max-psi',
      '0',
    ]);
    expect(merge.code).toBe(EXIT_PSI_EXCEEDED);
    const merged = summaryPath('merged', 'households');
    const single = JSON.parse((await runCli(['compare', seed2, reference, '--json'])).stdout) as Comparison;
    const fromMerged = await comparisonIn('merged', 'households');
    const figures = ({ current, reference: _, ...rest }: Comparison) => ({ ...rest, rows: current.rows_in });
    expect(figures(fromMerged)).toEqual(figures(single));
    expect(fromMerged.current.merged_shards).toBe(4);
    // The merged run against the single one: the same population, PSI 0 everywhere.
    const self = JSON.parse((await runCli(['compare', reference, merged, '--json'])).stdout) as Comparison;
    expect(self.psi.every((field) => field.psi === 0)).toBe(true);
    const bins = async (path: string) => (await readJson(path)).bins;
    expect(await bins(merged)).toEqual(await bins(reference));
  }, 120_000);

  it('contract: --max-psi without --reference, and an unreadable reference, fail before scoring (exit 1)', async () => {
    const without = await score(seed1, 'bad', '--max-psi', '0.25');
    expect([without.code, without.stderr]).toEqual([
      1,
      'outlay: --max-psi needs --reference: the PSI is against a reference run\n',
    ]);
    const missing = await score(seed1, 'bad', '--reference', join(dir, 'none.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read ${join(dir, 'none.json')}`);
    await expect(access(join(dir, 'bad'))).rejects.toThrow();
  }, 60_000);
});
