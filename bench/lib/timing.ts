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
  const [rounds] = interleavedRounds(count, [operation], options);
  return throughputOf(rounds!);
}

/**
 * `measureThroughput` of several operations whose rates are compared: every round runs each operation in
 * turn for `measureMs / rounds`, so a change in the machine's speed reaches all of them alike (this VM's
 * drifts by a third over minutes). `measureMs` is per operation.
 */
export function interleavedThroughput(
  count: number,
  operations: readonly ((index: number) => void)[],
  options: { warmupMs: number; measureMs: number; rounds: number },
): Throughput[] {
  return interleavedRounds(count, operations, options).map(throughputOf);
}

/** Each operation's rates round by round, [operation][round], the operations taking turns in every round. */
export function interleavedRounds(
  count: number,
  operations: readonly ((index: number) => void)[],
  options: { warmupMs: number; measureMs: number; rounds: number },
): Rate[][] {
  for (const operation of operations) runFor(count, operation, options.warmupMs);
  const rounds = operations.map((): Rate[] => []);
  for (let round = 0; round < options.rounds; round++) {
    operations.forEach((operation, o) => {
      rounds[o]!.push(runFor(count, operation, options.measureMs / options.rounds));
    });
  }
  return rounds;
}

function throughputOf(rounds: readonly Rate[]): Throughput {
  const callsPerCpuSecond = median(rounds.map((r) => r.perCpuSecond));
  return {
    callsPerCpuSecond,
    callsPerWallSecond: median(rounds.map((r) => r.perWallSecond)),
    nanosecondsPerCall: 1e9 / callsPerCpuSecond,
  };
}

interface Rate {
  readonly perCpuSecond: number;
  readonly perWallSecond: number;
}

/** Rates over whole passes lasting at least `ms` of wall time. */
function runFor(count: number, operation: (index: number) => void, ms: number): Rate {
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
