import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Timeouts are hang guards, not speed limits: no test asserts a duration. With both cores of a 2-core
    // machine held by busy loops and other work, the heaviest tests (100,000 generated rows, child-process
    // runs) took up to 2 minutes, so the guards sit well above that.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // vitest's default, one core less than the machine has, runs one file at a time on 2 cores, and CI
    // then took 851-897 s of its 15 minutes. Most test time is spent waiting on child processes and
    // servers, so every core runs a file.
    maxWorkers: availableParallelism(),
  },
});
