import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default, one core less than the machine has, runs one file at a time on 2 cores, and CI
    // then took 851-897 s of its 15 minutes. Most test time is spent waiting on child processes and
    // servers, and no test asserts a speed (the load tests' latency limits are 1-2 s), so every core runs a file.
    maxWorkers: availableParallelism(),
  },
});
