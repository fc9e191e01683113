/**
 * Load generation with autocannon's CLI in a separate process, so the load generator never shares an event
 * loop with the server under test (on this 2-core machine they still share the CPUs). Every connection
 * sends its next request as soon as the previous one is answered (closed loop), which saturates the server;
 * paced load is open-loop.ts's.
 */
import { AUTOCANNON_BIN } from './paths.js';
import { runChecked } from './process.js';

export interface LoadSpec {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly durationSeconds: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  /** Responses that were not 2xx, plus connection errors and timeouts: a valid run has none. */
  readonly failures: number;
  /** autocannon's own CPU time, start-up included (undefined without GNU time to report it). */
  readonly loadGeneratorCpuMs: number | undefined;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** The headers every load sends: its bodies are JSON, plus the spec's own (the API key). */
export function requestHeadersOf(spec: LoadSpec): Record<string, string> {
  return { 'content-type': 'application/json', ...spec.headers };
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const headerArgs = Object.entries(requestHeadersOf(spec)).flatMap(([name, value]) => [
    '-H',
    `${name}=${value}`,
  ]);
  const args = [
    AUTOCANNON_BIN,
    '--json',
    '--connections',
    String(spec.connections),
    '--duration',
    String(spec.durationSeconds),
    '--method',
    'POST',
    ...headerArgs,
    '--body',
    spec.body,
    spec.url,
  ];
  const { stdout, cpuMs } = await runChecked(process.execPath, args);
  const json = JSON.parse(stdout) as AutocannonJson;
  return {
    requestsPerSecond: json.requests.average,
    p50Ms: json.latency.p50,
    p99Ms: json.latency.p99,
    requests: json.requests.total,
    failures: json.non2xx + json.errors + json.timeouts,
    loadGeneratorCpuMs: cpuMs,
  };
}
