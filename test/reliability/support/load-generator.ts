/**
 * HTTP load from autocannon's CLI in its own process, so the load generator never shares an event loop with
 * the server or the test runner. Reports what the load suite judges: throughput, latency percentiles, every
 * status received, errors and timeouts.
 */
import { spawn } from 'node:child_process';
import { AUTOCANNON_BIN } from '../../../bench/lib/paths.js';
import type { LoadPhaseFigures, Tally } from '../../../bench/reliability/figures.js';
import { outcomeOf } from './outlay-cli.js';

export interface LoadPhase {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly seconds: number;
  /** A request without an answer after this long counts as a timeout. */
  readonly timeoutSeconds: number;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number };
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

export async function runLoad(phase: LoadPhase): Promise<LoadPhaseFigures> {
  const headerArgs = Object.entries({ 'content-type': 'application/json', ...phase.headers }).flatMap(
    ([name, value]) => ['-H', `${name}=${value}`],
  );
  const args = [
    AUTOCANNON_BIN,
    '--json',
    '--connections',
    String(phase.connections),
    '--duration',
    String(phase.seconds),
    '--timeout',
    String(phase.timeoutSeconds),
    '--method',
    'POST',
    ...headerArgs,
    '--body',
    phase.body,
    phase.url,
  ];
  const outcome = await outcomeOf(
    spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }),
    (phase.seconds + 60) * 1000,
  );
  if (outcome.code !== 0) throw new Error(`autocannon failed (${outcome.code}): ${outcome.stderr}`);
  const json = JSON.parse(outcome.stdout) as AutocannonJson;
  const statuses: Tally = Object.fromEntries(
    Object.entries(json.statusCodeStats).map(([status, { count }]) => [status, count]),
  );
  return {
    connections: phase.connections,
    seconds: phase.seconds,
    requests: json.requests.total,
    requestsPerSecond: Math.round(json.requests.average),
    p50Ms: json.latency.p50,
    p90Ms: json.latency.p90,
    p99Ms: json.latency.p99,
    statuses,
    // autocannon counts timeouts among errors; they are reported apart.
    errors: json.errors - json.timeouts,
    timeouts: json.timeouts,
  };
}
