/** Fixtures for the batch-job tests: temporary directories, a small synthetic model artifact, the real CLI. */
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { readCheckpoint } from '../../../../jobs/batch/score/checkpoint.js';
import type { ScoreJobOptions } from '../../../../jobs/batch/score/job.js';
import { DEFAULT_SCORING } from '../../../../jobs/batch/score/layout.js';
import { SPENDING_CATEGORY_COUNT } from '../../../../src/contract/categories.js';
import { HOUSEHOLD_TYPES } from '../../../../src/contract/schemas.js';
import {
  AREA_SLOTS,
  ARTIFACT_FORMAT,
  RANGE_PERCENTILES,
  RANGE_TENURE_SLOTS,
  REGION_SLOTS,
  TENURE_CLASSES,
} from '../../../../src/model/artifact.js';
import { COMPOSITION_LOGIT_LENGTH } from '../../../../src/model/composition.js';
import { loadSpendingModel } from '../../../../src/model/load.js';
import { PACKAGE_ROOT } from '../../../../src/paths.js';
import { fakeReference } from '../../../engine/fakes.js';

export const BIN = join(PACKAGE_ROOT, 'bin', 'outlay.js');

export const tempDir = (label: string) => mkdtemp(join(tmpdir(), `outlay-${label}-`));

/**
 * A valid artifact with simple tables (spending grows with income, factors 1), so CLI tests run whether or
 * not the shipped artifact has been built, and their expected files do not move when it is rebuilt.
 */
export async function writeTestArtifact(dir: string): Promise<string> {
  const n = SPENDING_CATEGORY_COUNT;
  const points = 12;
  const uMin = Math.log(5_000);
  const uStep = 0.35;
  const ones = (length: number) => Array.from({ length }, () => 1);
  const income = TENURE_CLASSES.flatMap((_, t) =>
    Array.from({ length: n }, (_, c) =>
      Array.from({ length: points }, (_, k) => Math.exp(uMin + k * uStep) * (0.02 + 0.001 * ((c + t) % 7))),
    ).flat(),
  );
  const artifact = {
    format: ARTIFACT_FORMAT,
    version: 'test-artifact-1',
    priceYear: 2024,
    build: { command: 'test', sources: {}, notes: [] },
    spendingCategories: n,
    incomeGrid: { uMin, uStep, points },
    income,
    ageMin: 15,
    ageMax: 120,
    age: ones(n * 106),
    sizeMax: 20,
    size: Array.from({ length: n * 20 }, (_, i) => 1 + 0.05 * (i % 20)),
    ageMarginal: ones(n * points),
    sizeMarginal: ones(n * points),
    ageSizeMarginal: ones(n * points),
    ownerLogit: [0, 0, 0, 0, 0, 0],
    mortgageLogit: [0, 0, 0, 0, 0, 0],
    ownerByIncome: Array.from({ length: points }, () => 0.5),
    mortgageByIncome: Array.from({ length: points }, () => 0.5),
    composition: ones(n * HOUSEHOLD_TYPES.length),
    compositionLogit: Array.from({ length: COMPOSITION_LOGIT_LENGTH }, () => 0),
    region: ones(n * REGION_SLOTS.length),
    area: ones(n * AREA_SLOTS.length),
    rppComponent: Array.from({ length: n }, () => 0),
    // Every profile spreads alike: p25, p50 and p75 at half, one and one and a half times the mean.
    distribution: {
      incomeGrid: { uMin, uStep: uStep * (points - 1), points: 2 },
      ratio: Array.from({ length: RANGE_TENURE_SLOTS.length * 2 * n }, () =>
        RANGE_PERCENTILES.map((p) => p / 50),
      ).flat(),
      peers: Array.from({ length: RANGE_TENURE_SLOTS.length * 2 }, () => 100),
    },
    rppElasticity: Array.from({ length: n }, () => 0.5),
  };
  const path = join(dir, 'test-model.json');
  await writeFile(path, JSON.stringify(artifact));
  const { version } = await loadSpendingModel(path);
  await writeFile(referencePathOf(path), JSON.stringify(fakeReference(version)));
  return path;
}

/** The score reference `writeTestArtifact` writes beside a test model (fakeReference, for its version). */
export const referencePathOf = (modelPath: string): string => modelPath.replace(/\.json$/, '.reference.json');

/** The CLI flags that score with a test model and its reference. */
export const modelArgs = (modelPath: string): string[] => [
  '--model',
  modelPath,
  '--score-reference',
  referencePathOf(modelPath),
];

/** `outlay score INPUT --out OUT` with a test model, quiet: no progress bar, warnings only; `extra` last. */
export const scoreArgs = (input: string, out: string, modelPath: string, ...extra: string[]): string[] => [
  'score',
  input,
  '--out',
  out,
  ...modelArgs(modelPath),
  '--no-progress',
  '--log-level',
  'warn',
  ...extra,
];

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...options.env },
      cwd: PACKAGE_ROOT,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

const ZIPS = ['10001', '94110', '35203', '60614', '73301', '02139', '99501', '33101', '00601', '12345'];

/** Deterministic households CSV (header + n rows); every `badEvery`-th row has an unreadable age. */
export function householdsCsv(n: number, options: { badEvery?: number; seed?: number } = {}): string {
  let state = options.seed ?? 1;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const lines = [
    'id,age,gross_annual_income,household_members,is_homeowner,net_annual_income,zip,mortgage_and_rent,savings,note',
  ];
  for (let i = 1; i <= n; i++) {
    const net = Math.round(15_000 + next() * 150_000);
    const bad = options.badEvery !== undefined && i % options.badEvery === 0;
    const age = bad ? 'abc' : String(18 + Math.floor(next() * 70));
    const rent = next() < 0.3 ? String(Math.round(net * 0.25)) : '';
    const savings = next() < 0.2 ? '0' : '';
    const note = i % 7 === 0 ? '"said ""hi"", then left"' : i % 11 === 0 ? '"two\nlines"' : '';
    lines.push(
      [
        `H${i}`,
        age,
        String(Math.round(net * 1.3)),
        String(1 + Math.floor(next() * 5)),
        next() < 0.5 ? 'true' : 'false',
        String(net),
        ZIPS[i % ZIPS.length],
        rent,
        savings,
        note,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Options for an in-process run of the score job with test defaults (silent log, no progress bar). */
export function scoreJobOptions(
  input: string,
  outDir: string,
  startScorer: ScoreJobOptions['startScorer'],
  overrides: Partial<ScoreJobOptions> = {},
): ScoreJobOptions {
  return {
    input,
    outDir,
    format: undefined,
    shard: null,
    groupBy: [],
    mapFile: undefined,
    resume: false,
    progressBar: false,
    batchRows: 64,
    scoreKey: 'OUTLAY',
    scoring: DEFAULT_SCORING,
    logger: pino({ level: 'silent' }),
    startScorer,
    ...overrides,
  };
}

/**
 * Runs the CLI and kills it with SIGKILL once its checkpoint records at least `rowsDone` rows (0: as soon
 * as it has started); resolves when it has exited, killed or finished first.
 */
export async function killWhenCheckpointed(args: readonly string[], checkpoint: string, rowsDone: number) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise((resolve) => child.on('spawn', resolve));
  while (child.exitCode === null && child.signalCode === null) {
    if (
      rowsDone === 0 ||
      ((await readCheckpoint(checkpoint, pino({ level: 'silent' })))?.rowsDone ?? -1) >= rowsDone
    ) {
      child.kill('SIGKILL');
      break;
    }
    await sleep(10);
  }
  await exited;
}
