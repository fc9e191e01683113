/**
 * `outlay budget|model` through the real binary (run `npm run build` first; `npm test` does), and
 * `runOneOff` in-process for the score operation, whose command belongs to the batch job.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runOneOff } from '../../src/cli/one-off.js';
import type { BudgetResponse } from '../../src/contract/schemas.js';
import { amountsForPeriod } from '../../src/engine/period.js';
import { DEFAULT_MODEL_PATH } from '../../src/model/load.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { loadEngine } from '../../src/runtime/load-engine.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'outlay.js');
const artifactBuilt = existsSync(DEFAULT_MODEL_PATH);
const request = {
  demographics: { zip: '35210', net_annual_income: 42_000, household_members: 3 },
  budget: { savings: 3_000 },
};

function outlay(args: string[], input?: string) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    input: input ?? '',
    encoding: 'utf8',
    cwd: PACKAGE_ROOT,
  });
  return {
    code: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    body: () => JSON.parse(run.stdout) as unknown,
  };
}

describe('outlay budget|model (binary), input problems', () => {
  it('answers malformed JSON with exit code 2 and the 400 body, path "" and the parser reason', () => {
    const run = outlay(['budget', '--json', '{"demographics":']);
    expect(run.code).toBe(2);
    expect(run.body()).toEqual({
      message: 'Invalid request body',
      errors: [{ path: '', message: expect.stringMatching(/^is not valid JSON: .+/) }],
    });
  });

  it('refuses --json together with a file (exit code 1, message on stderr)', () => {
    const run = outlay(['model', 'request.json', '--json', '{}']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/either with --json or as a file/);
  });

  it('reports an unreadable file with exit code 1', () => {
    const run = outlay(['budget', join(tmpdir(), 'outlay-no-such-file.json')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot read/);
  });

  it('rejects an unknown period (usage error, exit code 1)', () => {
    expect(outlay(['budget', '--json', '{}', '--period', 'fortnightly']).code).toBe(1);
  });
});

describe.skipIf(!existsSync(DEFAULT_MODEL_PATH))('outlay (binary), error messages', () => {
  it('prints a failing command\'s error once prefixed with "outlay: ", exit code 1', () => {
    const run = outlay([
      'score',
      '--json',
      JSON.stringify(request),
      '--score-key',
      'Predicted Saving Ability',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^outlay: invalid score key "Predicted Saving Ability"/);
    expect(run.stderr).not.toMatch(/outlay: outlay:/);
  });
});

describe.skipIf(!artifactBuilt)('outlay budget|model (binary) on the shipped artifact', async () => {
  const engine = artifactBuilt ? await loadEngine() : undefined;
  const expected = (operation: 'budget' | 'model') => {
    const result = engine![operation](request);
    if (!result.ok) throw new Error('the sample request must be valid');
    return result.value;
  };
  const file = join(mkdtempSync(join(tmpdir(), 'outlay-cli-')), 'request.json');
  writeFileSync(file, JSON.stringify(request));

  it.each([
    ['--json', ['budget', '--json', JSON.stringify(request)], undefined],
    ['a file', ['budget', file], undefined],
    ['stdin as "-"', ['budget', '-'], JSON.stringify(request)],
    ['piped stdin', ['budget'], JSON.stringify(request)],
  ])('prints exactly the library budget body from %s, exit code 0', (_source, args, input) => {
    const run = outlay(args, input);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${JSON.stringify(expected('budget'))}\n`);
  });

  it('prints the model body, ignoring the request budget', () => {
    const run = outlay(['model', '--json', JSON.stringify(request)]);
    expect(run.code).toBe(0);
    expect(run.body()).toEqual(expected('model'));
  });

  it('converts amounts with --period monthly (budget still sums to the income / 12 = 3,500)', () => {
    const run = outlay(['budget', '--json', JSON.stringify(request), '--period', 'monthly']);
    const { budget } = run.body() as { budget: Record<string, number> };
    expect(budget).toEqual(amountsForPeriod((expected('budget') as BudgetResponse).budget, 'monthly'));
    expect(Object.values(budget).reduce((a, b) => a + b, 0)).toBe(3_500);
  });

  it('answers an invalid request with exit code 2 and the 400 body naming the field', () => {
    const run = outlay(['budget', '--json', '{"demographics":{"zip":35210,"net_annual_income":"50000"}}']);
    expect(run.code).toBe(2);
    expect(run.body()).toEqual({
      message: 'Invalid request body',
      errors: expect.arrayContaining([
        { path: '/demographics/zip', message: 'must be string' },
        { path: '/demographics/net_annual_income', message: 'must be number' },
      ]),
    });
  });
});

describe.skipIf(!artifactBuilt)('runOneOff score (for the batch command to dispatch to)', () => {
  const printed: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    printed.length = 0;
  });
  const capture = () =>
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk));
      return true;
    });

  it('prints the score body with the configured key, in contract order, exit code 0', async () => {
    capture();
    const code = await runOneOff(
      'score',
      { json: JSON.stringify(request) },
      { period: 'annual', scoreKey: 'LEGACY' },
    );
    expect(code).toBe(0);
    expect(Object.keys(JSON.parse(printed.join('')))).toEqual([
      'Predicted Saving Ability',
      'LEGACY',
      'SAViNGS',
    ]);
  });

  it('returns 2 with the 400 body for an invalid request', async () => {
    capture();
    const code = await runOneOff(
      'score',
      { json: '{"demographics":{}}' },
      { period: 'annual', scoreKey: 'OUTLAY' },
    );
    expect(code).toBe(2);
    expect(JSON.parse(printed.join(''))).toMatchObject({ message: 'Invalid request body' });
  });
});

describe.skipIf(!artifactBuilt)('outlay score --explain (binary) on the shipped artifact', async () => {
  const engine = artifactBuilt ? await loadEngine() : undefined;
  const loanRequest = { ...request, loan: { monthly_payment: 300 } };

  it('prints the score with its details, as the library explains it, exit code 0', () => {
    const run = outlay(['score', '--json', JSON.stringify(loanRequest), '--explain']);
    expect(run.code).toBe(0);
    const explained = engine!.explainedScore(loanRequest);
    if (!explained.ok) throw new Error('the sample request must be valid');
    expect(run.stdout).toBe(`${JSON.stringify(explained.value)}\n`);
    expect(Object.keys(run.body() as object)).toEqual([
      'Predicted Saving Ability',
      'OUTLAY',
      'SAViNGS',
      'LENDiNG',
      'details',
    ]);
  });

  it('without --explain: the score body with LENDiNG, as the API answers a loan', () => {
    const run = outlay(['score', '--json', JSON.stringify(loanRequest)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${JSON.stringify((engine!.score(loanRequest) as { value: object }).value)}\n`);
    expect(Object.keys(run.body() as object)).toContain('LENDiNG');
  });

  it("the body's own options: read as the API reads them (options.basis benchmark without --basis)", () => {
    const onBenchmark = { ...request, options: { basis: 'benchmark' } };
    const run = outlay(['score', '--json', JSON.stringify(onBenchmark), '--explain']);
    expect(run.code).toBe(0);
    expect((run.body() as { details: { basis: string } }).details.basis).toBe('benchmark');
    expect(run.stdout).toBe(
      `${JSON.stringify((engine!.explainedScore(onBenchmark) as { value: object }).value)}\n`,
    );
  });

  it('refuses --explain for a batch file (exit code 1, message on stderr)', () => {
    const run = outlay(['score', join(PACKAGE_ROOT, 'no-such-input.csv'), '--explain']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--explain applies to one-off requests/);
  });
});

describe.skipIf(!artifactBuilt)('outlay model --ranges (binary) on the shipped artifact', async () => {
  const engine = artifactBuilt ? await loadEngine() : undefined;

  it('prints the model with ranges and peers, as the engine answers ?ranges=true, exit code 0', () => {
    const run = outlay(['model', '--json', JSON.stringify(request), '--ranges']);
    expect(run.code).toBe(0);
    const answer = engine!.modelRanges(request);
    if (!answer.ok) throw new Error('the sample request must be valid');
    expect(run.stdout).toBe(`${JSON.stringify(answer.value)}\n`);
    expect(Object.keys(run.body() as object)).toEqual(['model', 'ranges', 'peers']);
  });

  it('with --period monthly: the monthly model, each percentile divided by 12 and rounded', () => {
    const run = outlay(['model', '--json', JSON.stringify(request), '--ranges', '--period', 'monthly']);
    const annual = engine!.modelRanges(request);
    if (!annual.ok) throw new Error('the sample request must be valid');
    const monthly = run.body() as typeof annual.value;
    expect(monthly.model).toEqual(amountsForPeriod(annual.value.model, 'monthly'));
    expect(monthly.ranges.food_home).toEqual({
      p25: Math.round(annual.value.ranges.food_home!.p25 / 12),
      p50: Math.round(annual.value.ranges.food_home!.p50 / 12),
      p75: Math.round(annual.value.ranges.food_home!.p75 / 12),
    });
    expect(monthly.peers).toBe(annual.value.peers);
  });

  it('without --ranges: the plain model body', () => {
    const run = outlay(['model', '--json', JSON.stringify(request)]);
    expect(run.stdout).toBe(`${JSON.stringify((engine!.model(request) as { value: object }).value)}\n`);
  });
});
