/**
 * Runs the reliability suites (test/reliability/) one file at a time, so the load figures are not shared
 * with other suites, and writes their figures to docs/reliability.md. Exits with the suites' status.
 *
 *   npm run build:bench && node dist/bench/reliability/report.js [--doc FILE]
 *
 * OUTLAY_RELIABILITY_LOAD_SECONDS sets the sustained load phase (60 s here unless set).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { describeMachine } from '../lib/machine.js';
import { FIGURES_DIR_ENV, type ReliabilityFigures, readFigures, SUITES } from './figures.js';
import { renderReliability } from './render.js';

const DEFAULT_LOAD_SECONDS = '60';
const VITEST = join(PACKAGE_ROOT, 'node_modules', 'vitest', 'vitest.mjs');

const { values } = parseArgs({
  options: { doc: { type: 'string', default: join(PACKAGE_ROOT, 'docs', 'reliability.md') } },
  strict: true,
});

const loadSeconds = process.env.OUTLAY_RELIABILITY_LOAD_SECONDS ?? DEFAULT_LOAD_SECONDS;
const figuresDir = await mkdtemp(join(tmpdir(), 'outlay-reliability-figures-'));
const started = performance.now();
const exitCode = await new Promise<number>((resolve, reject) => {
  const child = spawn(process.execPath, [VITEST, 'run', 'test/reliability', '--no-file-parallelism'], {
    cwd: PACKAGE_ROOT,
    // The report's figures come from the suite's full sizes (kills, fuzzed bodies).
    env: {
      ...process.env,
      [FIGURES_DIR_ENV]: figuresDir,
      OUTLAY_RELIABILITY_LOAD_SECONDS: loadSeconds,
      OUTLAY_FULL_TESTS: '1',
    },
    stdio: 'inherit',
  });
  child.once('error', reject);
  child.once('close', (code) => resolve(code ?? 1));
});
const wallSeconds = (performance.now() - started) / 1000;

const figures: { -readonly [S in keyof ReliabilityFigures]?: ReliabilityFigures[S] } = {};
for (const suite of SUITES) Object.assign(figures, { [suite]: await readFigures(figuresDir, suite) });
await rm(figuresDir, { recursive: true, force: true });

await writeFile(
  values.doc,
  renderReliability(
    {
      machine: describeMachine(),
      command: 'npm run reliability',
      passed: exitCode === 0,
      wallSeconds,
      loadSeconds: Number(loadSeconds),
    },
    figures,
  ),
);
process.stderr.write(`reliability: wrote ${values.doc} (suites ${exitCode === 0 ? 'passed' : 'failed'})\n`);
process.exitCode = exitCode;
