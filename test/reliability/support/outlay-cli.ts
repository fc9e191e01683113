/**
 * The compiled `outlay` command as a user runs it (bin/outlay.js → dist/, built by `npm run build`, which
 * `npm test` runs first). Child processes let the suites kill, restart and read the exit code of the real
 * thing instead of an in-process imitation.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { OUTLAY_BIN } from '../../../bench/lib/paths.js';

export interface CliOutcome {
  /** Exit code, or null when a signal ended the process. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** A runaway child is killed after this long, so a suite always stops by itself. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

export function spawnOutlay(args: readonly string[], options: CliOptions = {}): ChildProcess {
  return spawn(process.execPath, [OUTLAY_BIN, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Collects a child's output and waits for it to end (or kills it at the timeout). */
export function outcomeOf(child: ChildProcess, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export function runOutlay(args: readonly string[], options: CliOptions = {}): Promise<CliOutcome> {
  return outcomeOf(spawnOutlay(args, options), options.timeoutMs);
}

/** The arguments of `outlay score --engine remote` on `input` into `outDir`, without a progress bar. */
export function remoteScoreArgs(
  run: { input: string; outDir: string; apiUrl: string; apiKey: string; concurrency: number },
  extraArgs: readonly string[] = [],
): string[] {
  return [
    'score',
    run.input,
    '--out',
    run.outDir,
    '--engine',
    'remote',
    '--api-url',
    run.apiUrl,
    '--api-key',
    run.apiKey,
    '--concurrency',
    String(run.concurrency),
    '--no-progress',
    ...extraArgs,
  ];
}

/** `outlay keys create`; returns the key it prints (once). */
export async function createKeyWithCli(
  keysFile: string,
  scopes = 'budgets,scores,models',
  extraArgs: readonly string[] = [],
): Promise<string> {
  const outcome = await runOutlay(['keys', 'create', '--scopes', scopes, '--keys', keysFile, ...extraArgs]);
  const key = outcome.stdout.trim();
  if (outcome.code !== 0 || key === '') {
    throw new Error(`outlay keys create failed (${outcome.code}): ${outcome.stderr}`);
  }
  return key;
}

/** Writes a generated households file with `outlay sample`; throws with its stderr if the command fails. */
export async function writeSample(
  out: string,
  sample: { rows: number; seed: number; badRows?: number },
): Promise<void> {
  const args = ['sample', '--rows', String(sample.rows), '--seed', String(sample.seed), '--out', out];
  if (sample.badRows !== undefined) args.push('--bad-rows', String(sample.badRows));
  const outcome = await runOutlay(args);
  if (outcome.code !== 0) throw new Error(`outlay sample failed (${outcome.code}): ${outcome.stderr}`);
}
