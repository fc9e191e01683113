import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Timeouts are hang guards, not speed limits: no test asserts a duration. With both cores of the shared
    // 2-core machine held by busy loops and other suites (load average about 30), one CLI run of 6,000
    // rows took up to 50 s and the longest test, nine CLI runs killed and resumed, 274 s; the guards sit
    // well above that.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // vitest's default, one core less than the machine has, runs one file at a time on 2 cores, and CI
    // then took 851-897 s of its 15 minutes. Most test time is spent waiting on child processes and
    // servers, so every core runs a file.
    maxWorkers: availableParallelism(),
  },
});
