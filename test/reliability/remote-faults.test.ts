/**
 * `outlay score --engine remote` against Outlay's own server (`outlay serve`) behind a fault-injecting proxy
 * on loopback: 5xx answers, 429 storms with Retry-After, answers slower than the client timeout, connections
 * reset mid-answer, and the server killed and restarted mid-run. Every row must come out scored or rejected
 * with a reason (none lost), and every scored row must be identical to a fault-free run's.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, type FaultScenarioFigures, recordFigures } from '../../bench/reliability/figures.js';
import { type FaultPlan, startFaultProxy } from './support/fault-proxy.js';
import {
  createKeyWithCli,
  outcomeOf,
  remoteScoreArgs,
  runOutlay,
  spawnOutlay,
  writeSample,
} from './support/outlay-cli.js';
import { csvRecords, reconcile } from './support/score-outputs.js';
import { differingRows, scoredRowsById } from './support/scored-rows.js';
import { type ServeProcess, startServe } from './support/serve-process.js';

const ROWS = 500;
const BAD_ROWS = 5;
const SAMPLE_SEED = 8;
/** Long enough that a loaded machine's ordinary answers never time out; the slow fault exceeds it. */
const CLIENT_TIMEOUT_MS = 5_000;
const CONCURRENCY = 8;
/** A client that gives up too easily would "survive" by rejecting everything; most rows must still score. */
const MIN_SCORED_SHARE = 0.9;
const UNTHROTTLED_PER_MINUTE = 1_000_000_000;
/** A hang guard only, generous for a loaded machine. */
const SCENARIO_TIMEOUT_MS = 600_000;

interface Scenario {
  readonly name: string;
  readonly plan: Omit<FaultPlan, 'seed'>;
  /** Kill the server (SIGKILL) once the proxy has seen this many requests, then start it again. */
  readonly killAfterRequests?: number;
  readonly extraArgs?: readonly string[];
}

const ALL_FAULTS: Omit<FaultPlan, 'seed'> = {
  serverErrorShare: 0.1,
  slowShare: 0.01,
  slowMs: CLIENT_TIMEOUT_MS + 500,
  resetShare: 0.05,
  storms: { everyMs: 1_500, lastingMs: 300, retryAfterSeconds: 1 },
};

/** Faults the proxy alone injects; these scenarios share the server, so they run side by side. */
const PROXY_SCENARIOS: readonly Scenario[] = [
  { name: '10% of answers 5xx', plan: { serverErrorShare: ALL_FAULTS.serverErrorShare! } },
  { name: '429 storms with Retry-After', plan: { storms: ALL_FAULTS.storms! } },
  {
    name: 'answers slower than the client timeout',
    plan: { slowShare: ALL_FAULTS.slowShare!, slowMs: ALL_FAULTS.slowMs! },
  },
  { name: 'connections reset mid-answer', plan: { resetShare: ALL_FAULTS.resetShare! } },
];

/**
 * The outage lasts as long as `outlay serve` takes to start (seconds on a busy machine), longer than the
 * default retry budget (6 retries with jittered backoff from 250 ms, about 8 s on average and often less),
 * so the run gets the retries an operator would give a job expected to ride out a restart.
 */
const RESTART_SCENARIO: Scenario = {
  name: 'server killed and restarted mid-run, with all the faults above (--retries 10)',
  plan: ALL_FAULTS,
  killAfterRequests: ROWS / 4,
  extraArgs: ['--retries', '10'],
};

let dir: string;
let input: string;
let key: string;
let server: ServeProcess;
let reference: { rows: Map<string, string>; rejectedRows: Set<string>; scoredBytes: Buffer };
const figures: FaultScenarioFigures[] = [];

const scoreArgs = (apiUrl: string, outDir: string, extraArgs: readonly string[] = []) =>
  remoteScoreArgs({ input, outDir, apiUrl, apiKey: key, concurrency: CONCURRENCY }, [
    '--timeout',
    String(CLIENT_TIMEOUT_MS),
    '--log-level',
    'error',
    // Two rows per evaluate request (16 split over CONCURRENCY): enough requests for every fault to land.
    '--batch-rows',
    '16',
    ...extraArgs,
  ]);

async function rejectedRowNumbers(outDir: string): Promise<Map<string, string>> {
  const records = await csvRecords(join(outDir, 'households.rejects.csv'));
  return new Map(records.map((record) => [record[0]!, record.at(-1)!]));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-reliability-remote-'));
  const keysFile = join(dir, 'keys.json');
  key = await createKeyWithCli(keysFile);
  input = join(dir, 'households.csv');
  await writeSample(input, { rows: ROWS, badRows: BAD_ROWS, seed: SAMPLE_SEED });
  server = await startServe({
    keysFile,
    rateLimit: UNTHROTTLED_PER_MINUTE,
    logLevel: 'warn',
    accessLog: false,
  });
  const outDir = join(dir, 'fault-free');
  const run = await runOutlay(scoreArgs(server.url, outDir));
  expect(run.code, run.stderr).toBe(3);
  reference = {
    rows: await scoredRowsById(join(outDir, 'households.scored.csv')),
    rejectedRows: new Set((await rejectedRowNumbers(outDir)).keys()),
    scoredBytes: await readFile(join(outDir, 'households.scored.csv')),
  };
}, SCENARIO_TIMEOUT_MS);

afterAll(async () => {
  await recordFigures('remote-faults', { scenarios: figures });
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function runScenario(scenario: Scenario, index: number): Promise<void> {
  const proxy = await startFaultProxy(server.url, { seed: 100 + index, ...scenario.plan });
  const outDir = join(dir, `scenario-${index}`);
  const started = performance.now();
  try {
    const child = spawnOutlay(scoreArgs(proxy.url, outDir, scenario.extraArgs));
    const finished = outcomeOf(child, SCENARIO_TIMEOUT_MS);
    let killed = 0;
    if (scenario.killAfterRequests !== undefined) {
      while (proxy.requests() < scenario.killAfterRequests && child.exitCode === null) await sleep(20);
      await server.kill();
      killed++;
      await sleep(300);
      await server.restart();
    }
    const outcome = await finished;
    const faults = proxy.faults();
    if (killed > 0) count(faults, 'server killed (SIGKILL) and restarted');

    expect(outcome.signal).toBeNull();
    expect([0, 3], outcome.stderr).toContain(outcome.code);
    const { counts, scoredRows, rejectRows } = await reconcile(outDir, 'households', 'csv');
    const rows = await scoredRowsById(join(outDir, 'households.scored.csv'));
    const faultRejects = [...(await rejectedRowNumbers(outDir))].filter(
      ([row]) => !reference.rejectedRows.has(row),
    );
    figures.push({
      name: scenario.name,
      rows: ROWS,
      scored: scoredRows,
      rejected: rejectRows,
      lost: ROWS - scoredRows - rejectRows,
      requests: proxy.requests(),
      faults,
      identicalToFaultFree: differingRows(rows, reference.rows).length === 0,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    });

    expect(counts.rows_in).toBe(ROWS);
    expect(scoredRows + rejectRows).toBe(ROWS);
    expect([scoredRows, rejectRows]).toEqual([counts.rows_scored, counts.rows_rejected]);
    expect(differingRows(rows, reference.rows)).toEqual([]);
    for (const [, reason] of faultRejects) expect(reason).toMatch(/remote/);
    expect(scoredRows).toBeGreaterThanOrEqual(MIN_SCORED_SHARE * reference.rows.size);
    if (faultRejects.length === 0) {
      expect(await readFile(join(outDir, 'households.scored.csv'))).toEqual(reference.scoredBytes);
    }
    expect(Object.keys(faults).length).toBeGreaterThan(0);
  } finally {
    await proxy.close();
  }
}

const EXPECTATION = 'every row scored or rejected with a reason, scored rows identical to a fault-free run';

describe.concurrent('outlay score --engine remote through a faulty proxy', () => {
  it.each(PROXY_SCENARIOS.map((scenario, index) => [scenario.name, scenario, index] as const))(
    `%s: ${EXPECTATION}`,
    (_name, scenario, index) => runScenario(scenario, index),
    SCENARIO_TIMEOUT_MS,
  );
});

describe('outlay score --engine remote through a server restart', () => {
  it(
    `${RESTART_SCENARIO.name}: ${EXPECTATION}`,
    () => runScenario(RESTART_SCENARIO, PROXY_SCENARIOS.length),
    SCENARIO_TIMEOUT_MS,
  );
});
