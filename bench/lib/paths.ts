import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/paths.js';

export const OUTLAY_BIN = join(PACKAGE_ROOT, 'bin', 'outlay.js');
/** Compiled benchmark scripts: they run as separate processes so that each figure starts from a cold heap. */
export const BENCH_DIST = join(PACKAGE_ROOT, 'dist', 'bench');
export const DEFAULT_RESULTS_DIR = join(PACKAGE_ROOT, 'bench', 'results');
export const BENCHMARKS_DOC = join(PACKAGE_ROOT, 'docs', 'benchmarks.md');
export const AUTOCANNON_BIN = join(PACKAGE_ROOT, 'node_modules', 'autocannon', 'autocannon.js');

export function benchScript(name: string): string {
  return join(BENCH_DIST, `${name}.js`);
}
