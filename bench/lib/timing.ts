/**
 * Throughput of a synchronous operation over a fixed set of inputs: passes over all of them until a time
 * budget is spent, so that the JIT sees the real mix of inputs and the clocks are read once per pass.
 *
 * The rate per core is counted against this process's CPU time, which other processes competing for the
 * cores barely move; the wall-clock rate is kept beside it to show how much they did.
 */
import { median } from './stats.js';

export interface Throughput {
  /** Calls per CPU-second of this process (all its threads, so garbage collection is included). */
  readonly callsPerCpuSecond: number;
  readonly callsPerWallSecond: number;
  readonly nanosecondsPerCall: number;
}

export function measureThroughput(
  count: number,
  operation: (index: number) => void,
  options: { warmupMs: number; measureMs: number; rounds: number },
): Throughput {
  runFor(count, operation, options.warmupMs);
  const rounds = Array.from({ length: options.rounds }, () =>
    runFor(count, operation, options.measureMs / options.rounds),
  );
  const callsPerCpuSecond = median(rounds.map((r) => r.perCpuSecond));
  return {
    callsPerCpuSecond,
    callsPerWallSecond: median(rounds.map((r) => r.perWallSecond)),
    nanosecondsPerCall: 1e9 / callsPerCpuSecond,
  };
}

/**
 * CPU ns per call of each operation, round by round: every round runs each operation in turn for
 * `measureMs / rounds`, so a change in the machine's speed reaches all of them alike and a difference
 * between two operations is best taken round by round. Returns [operation][round].
 */
export function interleavedNanoseconds(
  count: number,
  operations: readonly ((index: number) => void)[],
  options: { warmupMs: number; measureMs: number; rounds: number },
): number[][] {
  for (const operation of operations) runFor(count, operation, options.warmupMs);
  const rounds = operations.map((): number[] => []);
  for (let round = 0; round < options.rounds; round++) {
    operations.forEach((operation, o) => {
      rounds[o]!.push(1e9 / runFor(count, operation, options.measureMs / options.rounds).perCpuSecond);
    });
  }
  return rounds;
}

/** Rates over whole passes lasting at least `ms` of wall time. */
function runFor(count: number, operation: (index: number) => void, ms: number) {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  let calls = 0;
  let elapsed = 0;
  do {
    for (let i = 0; i < count; i++) operation(i);
    calls += count;
    elapsed = performance.now() - started;
  } while (elapsed < ms);
  const cpu = process.cpuUsage(cpuStarted);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { perCpuSecond: (calls * 1000) / cpuMs, perWallSecond: (calls * 1000) / elapsed };
}
