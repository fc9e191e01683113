/**
 * The applicant's loan in the file, through the real CLI (bin/outlay.js), locally and against `outlay
 * serve` on loopback: the scored file appends the lending columns, equal to the API's lender mode and
 * byte-identical between local and remote runs; the summary carries the lending section.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../../src/paths.js';
import { createKeyWithCli, remoteScoreArgs, runOutlay } from '../../../reliability/support/outlay-cli.js';
import { type ServeProcess, startServe } from '../../../reliability/support/serve-process.js';
import { tempDir } from './helpers.js';

const LENDING = ['loan_payment', 'lending_surplus', 'lending_index', 'lending_score', 'lending_reason_codes'];

let dir: string;
let key: string;
let server: ServeProcess;
let sampleHeader: string;
let sampleRows: string[];

beforeAll(async () => {
  dir = await tempDir('lending-cli');
  const keysFile = join(dir, 'keys.json');
  key = await createKeyWithCli(keysFile);
  server = await startServe({ keysFile, rateLimit: 1_000_000, logLevel: 'warn' });
  const lines = (await readFile(join(PACKAGE_ROOT, 'sample-data', 'households.csv'), 'utf8')).split('\n');
  sampleHeader = lines[0]!;
  // The shipped sample's first 24 households, all valid.
  sampleRows = lines.slice(1, 25);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The sample's rows with loan columns appended, cycling through `loans` (one CSV fragment per row). */
async function withLoans(name: string, columns: string, loans: readonly string[]): Promise<string> {
  const path = join(dir, `${name}.csv`);
  const rows = sampleRows.map((row, i) => `${row},${loans[i % loans.length]}`);
  await writeFile(path, `${sampleHeader},${columns}\n${rows.join('\n')}\n`);
  return path;
}

const read = async (outDir: string, name: string) => ({
  scored: await readFile(join(outDir, `${name}.scored.csv`), 'utf8'),
  rejects: await readFile(join(outDir, `${name}.rejects.csv`), 'utf8'),
  summary: JSON.parse(await readFile(join(outDir, `${name}.summary.json`), 'utf8')),
});

/** `outlay score` with the local engine on the main thread, into `outDir`. */
const scoreLocally = (input: string, outDir: string, ...extra: string[]) =>
  runOutlay(['score', input, '--out', outDir, '--workers', '0', '--no-progress', ...extra]);

async function scoreBoth(input: string, name: string, extra: readonly string[] = []) {
  const localDir = join(dir, `${name}-local`);
  const local = await scoreLocally(input, localDir, ...extra);
  const remoteDir = join(dir, `${name}-remote`);
  const remote = await runOutlay(
    remoteScoreArgs({ input, outDir: remoteDir, apiUrl: server.url, apiKey: key, concurrency: 2 }, extra),
  );
  return { local, remote, localFiles: await read(localDir, name), remoteFiles: await read(remoteDir, name) };
}

/** What POST /v1.0/scores/generate?explain=true answers in `details.lending` for a row with its loan. */
async function apiLending(row: Record<string, string>, payment: number) {
  const demographics: Record<string, unknown> = {
    zip: row.zip,
    net_annual_income: Number(row.net_annual_income),
  };
  for (const field of ['age', 'gross_annual_income', 'household_members'])
    if (row[field] !== '') demographics[field] = Number(row[field]);
  if (row.is_homeowner !== '') demographics.is_homeowner = row.is_homeowner === 'true';
  const budget: Record<string, number> = {};
  for (const category of [
    'mortgage_and_rent',
    'vehicle_purchase_and_lease',
    'health_insurance',
    'other_debt_payments',
    'savings',
  ])
    if (row[category] !== '') budget[category] = Number(row[category]);
  const answer = await fetch(`${server.url}/v1.0/scores/generate?explain=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ demographics, budget, loan: { monthly_payment: payment } }),
  });
  return ((await answer.json()) as { details: { lending: Record<string, unknown> } }).details.lending;
}

describe('outlay score with the applicant’s loan in the file', () => {
  it('loan_monthly_payment → the lending columns appended after the explanation, equal to the API’s lender mode, local and remote byte-identical; an empty payment leaves them empty', async () => {
    const input = await withLoans('payment', 'loan_monthly_payment', ['250', '', '1200.50', '0']);
    const { local, remote, localFiles, remoteFiles } = await scoreBoth(input, 'payment');
    expect(local.code, local.stderr).toBe(0);
    expect(remote.code, remote.stderr).toBe(0);
    expect(remoteFiles.scored).toBe(localFiles.scored);
    const header = localFiles.scored.split('\n')[0]!.split(',');
    expect(header.slice(-LENDING.length)).toEqual(LENDING);
    expect(header.at(-LENDING.length - 1)).toBe('expense_flags');
    const rows = parse(localFiles.scored, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(24);
    expect(LENDING.map((column) => rows[1]![column])).toEqual(['', '', '', '', '']);
    for (const i of [0, 2, 3]) {
      const row = rows[i]!;
      const lending = await apiLending(row, Number(row.loan_monthly_payment));
      expect([row.lending_surplus, row.lending_index, row.lending_score]).toEqual([
        String(lending.surplus),
        (lending.index as number).toFixed(1),
        (lending.score as number).toFixed(1),
      ]);
      expect(row.lending_reason_codes).toBe(
        (lending.reasons as { code: string }[]).map(({ code }) => code).join(';'),
      );
    }
    // 250 a month stressed ×1.25 is 312.50: surplus = PSA − 312.50, halves away from zero.
    expect(Number(rows[0]!.lending_surplus)).toBe(
      Math.round(Number(rows[0]!.predicted_saving_ability) - 312.5),
    );
    const { lending } = localFiles.summary;
    expect(lending.overall.rows).toBe(18);
    expect(lending.thresholds).toEqual([0, 20, 40, 60, 70, 80, 90, 100]);
    expect(lending.overall.histogram.reduce((n: number, bin: { count: number }) => n + bin.count, 0)).toBe(
      18,
    );
    const report = await readFile(join(dir, 'payment-local', 'payment.report.html'), 'utf8');
    expect(report).toContain('Share of applicants at or above each lending index');
  }, 300_000);

  it('loan_amount, loan_term_months ("36" or "60 months") and loan_rate ("12%" or 0.07) → the annuity payment in loan_payment, local and remote byte-identical; a plain 12 as a rate is rejected naming the field', async () => {
    const input = await withLoans('amount', 'loan_amount,loan_term_months,loan_rate', [
      '10000,36,12%',
      ',,',
      '25000,60 months,0.07',
      '5000,36,12',
      '5000,,12%',
    ]);
    const { local, remote, localFiles, remoteFiles } = await scoreBoth(input, 'amount');
    expect(local.code, local.stderr).toBe(3);
    expect(remote.code, remote.stderr).toBe(3);
    expect(remoteFiles.scored).toBe(localFiles.scored);
    expect(remoteFiles.rejects).toBe(localFiles.rejects);
    const rows = parse(localFiles.scored, { columns: true }) as Record<string, string>[];
    // 10,000 at 1 % a month over 36 months: 10000 × 0.01 / (1 − 1.01^−36) = 332.143…
    expect(rows[0]!.loan_payment).toBe('332.14');
    // 25,000 at 7 %/12 over 60 months: 495.03.
    expect(rows[2]!.loan_payment).toBe('495.03');
    expect(rows[1]!.lending_index).toBe('');
    const rejects = parse(localFiles.rejects, { columns: true }) as Record<string, string>[];
    expect(rejects.map((row) => row.reject_reason?.split(' ')[0])).toEqual(
      expect.arrayContaining(['/loan/rate', '/loan/term_months']),
    );
    expect(rejects.find((row) => row.loan_rate === '12')?.reject_reason).toContain(
      'a plain number is read as a fraction',
    );
  }, 300_000);

  it('both a payment and an amount column, or an amount without a rate → the job stops naming what to give', async () => {
    const both = await withLoans('both', 'loan_monthly_payment,loan_amount', ['250,10000']);
    const bothRun = await scoreLocally(both, join(dir, 'both'));
    expect(bothRun.code).toBe(1);
    expect(bothRun.stderr).toContain('both as loan_monthly_payment and as loan_amount');
    const noRate = await withLoans('norate', 'loan_amount,loan_term_months', ['10000,36']);
    const noRateRun = await scoreLocally(noRate, join(dir, 'norate'));
    expect(noRateRun.code).toBe(1);
    expect(noRateRun.stderr).toContain('loan_rate (or --loan-rate)');
    const withRate = await scoreLocally(noRate, join(dir, 'norate-rate'), '--loan-rate', '12%');
    expect(withRate.code, withRate.stderr).toBe(0);
    const rows = parse(await readFile(join(dir, 'norate-rate', 'norate.scored.csv'), 'utf8'), {
      columns: true,
    });
    expect((rows as Record<string, string>[])[0]!.loan_payment).toBe('332.14');
  }, 120_000);
});

describe('outlay score with gross income only and ZIP3-only rows', () => {
  const rows = [
    '86001,60000,2,',
    '860xx,60000,2,',
    '860,90000,1,',
    '86001,60000,2,50000',
    '000xx,60000,2,',
    '86001,,2,',
    '860xx,60000,two,',
  ];
  const write = async () => {
    const path = join(dir, 'gross.csv');
    await writeFile(
      path,
      `zip,gross_annual_income,household_members,net_annual_income\n${rows.join('\n')}\n`,
    );
    return path;
  };

  it('locally: a gross-only row scores flagged TAKE_HOME_ESTIMATED; 860xx and 860 score at geo_level zip3 in AZ; an unassigned prefix and a row with neither income are rejected naming the field; a gross-only ZIP3 row with one bad cell names that cell alone', async () => {
    const input = await write();
    const run = await scoreLocally(input, join(dir, 'gross-local'));
    expect(run.code, run.stderr).toBe(3);
    const files = await read(join(dir, 'gross-local'), 'gross');
    const scored = parse(files.scored, { columns: true }) as Record<string, string>[];
    expect(scored.map((row) => [row.zip, row.geo_level, row.state, row.expense_flags])).toEqual([
      ['86001', 'zip', 'AZ', 'TAKE_HOME_ESTIMATED'],
      ['860xx', 'zip3', 'AZ', 'ZIP_UNKNOWN;TAKE_HOME_ESTIMATED'],
      ['860', 'zip3', 'AZ', 'ZIP_UNKNOWN;TAKE_HOME_ESTIMATED'],
      ['86001', 'zip', 'AZ', ''],
    ]);
    const rejects = parse(files.rejects, { columns: true }) as Record<string, string>[];
    expect(rejects.map((row) => row.reject_reason)).toEqual([
      '/demographics/zip 000 is not a 3-digit ZIP prefix USPS assigns',
      expect.stringContaining('/demographics/net_annual_income is required'),
      // Not also "net_annual_income is required" or a 5-digit ZIP's form: the row is checked as scored.
      expect.stringMatching(/^\/demographics\/household_members must be a number written with digits[^;]*$/),
    ]);
    expect(files.summary.expense_flags.TAKE_HOME_ESTIMATED).toBe(3);
  }, 120_000);

  it('remotely: the gross-only row equals the local run’s (the API estimates on request); ZIP3 rows are rejected saying the API takes 5-digit ZIPs', async () => {
    const input = await write();
    const outDir = join(dir, 'gross-remote');
    // Two of the file's three rows are ZIP3 rows, which a remote run rejects: above the default limit.
    const run = await runOutlay([
      ...remoteScoreArgs({ input, outDir, apiUrl: server.url, apiKey: key, concurrency: 2 }),
      '--max-reject-rate',
      '1',
    ]);
    expect(run.code, run.stderr).toBe(3);
    const remote = parse((await read(outDir, 'gross')).scored, { columns: true }) as Record<string, string>[];
    const local = parse((await read(join(dir, 'gross-local'), 'gross')).scored, { columns: true }) as Record<
      string,
      string
    >[];
    expect(remote).toEqual([local[0], local[3]]);
    const rejects = (await read(outDir, 'gross')).rejects;
    expect(rejects).toContain('scored by the local engine only');
  }, 120_000);

  it('the API: without the option a request with gross income alone stays a 400 naming net_annual_income; with "take_home": "estimate" it scores, details flag TAKE_HOME_ESTIMATED with the estimate and the gross', async () => {
    const demographics = { zip: '86001', gross_annual_income: 60000, household_members: 2 };
    const post = (body: unknown) =>
      fetch(`${server.url}/v1.0/scores/generate?explain=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(body),
      });
    const plain = await post({ demographics });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({
      message: 'Invalid request body',
      errors: [{ path: '/demographics/net_annual_income', message: 'is required' }],
    });
    const estimated = await post({ demographics, options: { take_home: 'estimate' } });
    expect(estimated.status).toBe(200);
    const { details } = (await estimated.json()) as { details: { flags: Record<string, unknown>[] } };
    const flag = details.flags.find((item) => item.code === 'TAKE_HOME_ESTIMATED');
    expect(flag).toMatchObject({ category: null, benchmark: 60000 });
    expect(flag!.stated).toBeGreaterThan(40000);
    expect(flag!.stated).toBeLessThan(60000);
  }, 60_000);
});
