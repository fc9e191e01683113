import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The files that replace a module (`vi.mock`): a module mock only takes effect where the module is first
 * loaded, so these run each in a fresh process.
 */
const MODULE_MOCKS = ['test/keys/key-index.test.ts', 'test/reliability/auth.test.ts'];

export default defineConfig({
  test: {
    // Timeouts are hang guards, not speed limits: no test asserts a duration. With both cores of the shared
    // 2-core machine held by busy loops and other suites (load average about 30), one CLI run of 6,000
    // rows took up to 50 s and the longest test, nine CLI runs killed and resumed, 274 s; the guards sit
    // well above that.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Two files per core. Much of a file's time is spent waiting on child processes, servers and timeouts
    // (remote-faults.test.ts waits out slow answers and a server restart), so a second file per core fills
    // those waits; and with busy processes beside the suite, more runnable processes get the suite a larger
    // share of the cores. On a 2-core machine npm test took 299 s quiet and 433 s beside two busy loops
    // with four files at a time, 343 s and 438 s with three, and 371 s and 659 s with two.
    maxWorkers: 2 * availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: MODULE_MOCKS,
          // Files share their worker's loaded modules instead of loading the engine, Fastify and Arrow
          // again each: a fresh process per file spent about a third of the suite's CPU importing (the
          // whole suite on a quiet 2-core machine: 711 s of CPU in 384 s isolated, 509 s in 279 s shared).
          // A test file leaves no state behind (servers closed, temporary directories its own).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'module-mocks', include: MODULE_MOCKS, isolate: true } },
    ],
  },
});
