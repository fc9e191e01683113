/** Running the real `outlay` binary (compiled by `npm run build`) as the user would. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HotFunction, hottestFunctions, readProfiles } from './cpu-profile.js';
import { OUTLAY_BIN } from './paths.js';
import { type RunOptions, runChecked } from './process.js';

export function outlay(args: readonly string[], options?: RunOptions) {
  return runChecked(process.execPath, [OUTLAY_BIN, ...args], options);
}

export async function generateSample(rows: number, out: string, format: 'csv' | 'arrow'): Promise<void> {
  await outlay(['sample', '--rows', String(rows), '--out', out, '--format', format, '--seed', '7']);
}

/** Runs any node script under --cpu-prof (all threads) and summarises where the time went. */
export async function profileNodeScript(
  args: readonly string[],
  options?: RunOptions,
): Promise<HotFunction[]> {
  const dir = await mkdtemp(join(tmpdir(), 'outlay-bench-prof-'));
  try {
    await runChecked(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, ...args], options);
    return hottestFunctions(await readProfiles(dir));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function profileOutlay(args: readonly string[], options?: RunOptions): Promise<HotFunction[]> {
  return profileNodeScript([OUTLAY_BIN, ...args], options);
}

/** A scratch directory for one figure, always removed: 10 M-row inputs and outputs are gigabytes. */
export async function withScratch<T>(name: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), `outlay-bench-${name}-`));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
