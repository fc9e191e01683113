/**
 * Throughput of a synchronous operation over a fixed set of inputs: passes over all of them until a time
 * budget is spent, so that the JIT sees the real mix of inputs and the clock is read once per pass.
 */
import { median } from './stats.js';

export interface Throughput {
  readonly callsPerSecond: number;
  readonly nanosecondsPerCall: number;
}

export function measureThroughput(
  count: number,
  operation: (index: number) => void,
  options: { warmupMs: number; measureMs: number; rounds: number },
): Throughput {
  runFor(count, operation, options.warmupMs);
  const rates: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    rates.push(runFor(count, operation, options.measureMs / options.rounds));
  }
  const callsPerSecond = median(rates);
  return { callsPerSecond, nanosecondsPerCall: 1e9 / callsPerSecond };
}

/** Calls per second over whole passes lasting at least `ms`. */
function runFor(count: number, operation: (index: number) => void, ms: number): number {
  const started = performance.now();
  let calls = 0;
  let elapsed = 0;
  do {
    for (let i = 0; i < count; i++) operation(i);
    calls += count;
    elapsed = performance.now() - started;
  } while (elapsed < ms);
  return (calls * 1000) / elapsed;
}
