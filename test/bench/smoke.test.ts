/**
 * The benchmarks at smoke size, so they cannot rot: every figure runs end to end against the real binary
 * and writes a well-formed result, and the document renders. Speeds are never asserted here. The figures
 * start servers and score files for about a minute and a half of the suite's CPU, so they run when
 * OUTLAY_FULL_TESTS=1 (CI's first pass, README) and skip with that reason otherwise.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS_DOC, benchScript } from '../../bench/lib/paths.js';
import { FIGURES, readResult } from '../../bench/lib/result.js';
import { shippedNodeMajor } from '../../bench/lib/runtime.js';
import { FULL_TESTS } from '../support/full-tests.js';

const run = promisify(execFile);
const full = FULL_TESTS;
const valgrind = spawnSync('sh', ['-c', 'command -v valgrind callgrind_control']).status === 0;
let resultsDir: string;

beforeAll(async () => {
  resultsDir = await mkdtemp(join(tmpdir(), 'outlay-bench-smoke-'));
});
afterAll(() => rm(resultsDir, { recursive: true, force: true }));

describe.skipIf(!full)('benchmarks in --smoke mode (OUTLAY_FULL_TESTS=1; skipped otherwise)', () => {
  it.each(FIGURES)('%s runs and writes a well-formed result', { timeout: 180_000 }, async (figure) => {
    await run(process.execPath, [benchScript(figure), '--smoke', '--results', resultsDir]);
    const result = await readResult(resultsDir, figure);
    expect(result.figure).toBe(figure);
    expect(result.smoke).toBe(true);
    expect(result.measurements.length).toBeGreaterThan(0);
    for (const measurement of result.measurements) {
      expect(Number.isFinite(measurement.value), measurement.name).toBe(true);
      expect(measurement.value, measurement.name).toBeGreaterThanOrEqual(0);
    }
    expect(result.targets.length).toBeGreaterThan(0);
    for (const target of result.targets) expect(typeof target.met).toBe('boolean');
  });

  it.skipIf(!valgrind)(
    "the engine's instruction count (bench/stack/engine-instructions) runs under valgrind and names a function of the spending model (skipped when valgrind is not installed)",
    { timeout: 180_000 },
    async () => {
      const cwd = await mkdtemp(join(tmpdir(), 'outlay-bench-instructions-cwd-'));
      try {
        const { stdout } = await run(
          process.execPath,
          [benchScript('stack/engine-instructions'), '--smoke'],
          { cwd },
        );
        expect(stdout).toMatch(/^200 evaluations \(a\), \d+ instructions each$/m);
        // Which of the model's functions V8 keeps apart from its callers depends on inlining; any of them will do.
        expect(stdout).toMatch(/ src\/model\/spending-model\.js:/);
        // Nothing left behind in the caller's directory (V8's isolate log goes to the tool's scratch).
        expect(await readdir(cwd)).toEqual([]);
      } finally {
        await rm(cwd, { recursive: true, force: true });
      }
    },
  );

  it('run-all renders the short document from the results, beside them: targets, machine, how to reproduce, one table per figure', async () => {
    await run(process.execPath, [
      benchScript('run-all'),
      '--smoke',
      '--render-only',
      '--results',
      resultsDir,
    ]);
    const doc = await readFile(join(resultsDir, 'benchmarks.md'), 'utf8');
    expect(doc).toContain('## Machine');
    expect(doc).toContain(`| Node.js | ${process.version} |`);
    for (const figure of FIGURES) expect(doc).toMatch(new RegExp(`^\\| ${figure} \\|`, 'm'));
    expect(doc).toContain('## Reproduce');
    expect(doc).toContain('smoke run');
    expect(doc.split('\n').length).toBeLessThan(250);
  });

  it('run-all refuses to write the committed docs/benchmarks.md from a result of another Node major, naming it, and leaves the document as it was', async () => {
    const foreign = await mkdtemp(join(tmpdir(), 'outlay-bench-foreign-'));
    try {
      for (const figure of FIGURES) {
        const result = await readResult(resultsDir, figure);
        const node = figure === 'engine' ? 'v20.20.2' : `v${shippedNodeMajor()}.0.0`;
        await writeFile(join(foreign, `${figure}.json`), JSON.stringify({ ...result, node }));
      }
      const before = await readFile(BENCHMARKS_DOC, 'utf8');
      const refused = run(process.execPath, [benchScript('run-all'), '--render-only', '--results', foreign]);
      await expect(refused).rejects.toThrow(
        /engine: measured on Node v20\.20\.2, not on the image's Node \d+/,
      );
      expect(await readFile(BENCHMARKS_DOC, 'utf8')).toBe(before);
    } finally {
      await rm(foreign, { recursive: true, force: true });
    }
  });
});
