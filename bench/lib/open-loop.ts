/** The API figure's paced load: bench/stack/open-loop-load.ts in its own process (why not autocannon: there). */
import type { LoadSpec } from './autocannon.js';
import { benchScript } from './paths.js';
import { runChecked } from './process.js';

export interface OpenLoopSpec extends LoadSpec {
  /** Requests due per second, evenly spaced, over all connections. */
  readonly requestsPerSecond: number;
}

export interface OpenLoopResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  /** Latencies from the moment each request was due, not from when it could be sent. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** How late the generator itself sent its requests (p99): its share of the latencies above. */
  readonly sendLagP99Ms: number;
  /** p99 from when each request was sent: the server's and the network's part, the generator's left out. */
  readonly p99FromSendMs: number;
  /** Answers other than 200 and failed requests: a valid run has none. */
  readonly failures: number;
}

export async function runOpenLoop(spec: OpenLoopSpec): Promise<OpenLoopResult> {
  const { stdout } = await runChecked(process.execPath, [
    benchScript('stack/open-loop-load'),
    JSON.stringify(spec),
  ]);
  return JSON.parse(stdout) as OpenLoopResult;
}
