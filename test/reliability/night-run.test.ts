/**
 * The overnight run under the faults a scheduled night brings, through the real binary (dist build) and real
 * files: overlapping runs, SIGTERM, standard input, resume and merge hazards, reject-rate exit codes.
 * No assertion is about time: "exits promptly" is "exits with its own code before a generous hang guard".
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  type CliRun,
  householdsCsv,
  modelArgs,
  runCli,
  tempDir,
  writeTestArtifact,
} from '../jobs/batch/score/helpers.js';

/**
 * The file the signalled runs read: long enough (in 64-row batches) that a signal sent once the first
 * checkpoint exists lands mid-run. A file cannot be held back as standard input can, so its length is what
 * keeps the run going.
 */
const ROWS = 12_000;
/**
 * The file of every other test. Runs that read it from standard input are held mid-run by the test, which
 * writes the second half only when it chooses; the rest need no particular length. Also the first file of
 * the merge test (seed 1, as `householdsCsv` defaults to).
 */
const SMALL_ROWS = 2_000;
const HANG_GUARD_MS = 120_000;
/** Several runs each, on a machine whose cores the suite shares: generous, never asserted. */
const SLOW = { timeout: 4 * HANG_GUARD_MS };

let dir: string;
let model: string;
/** ROWS rows: the signalled runs' input. */
let input: string;
let reference: Outputs;
/** SMALL_ROWS rows, in a folder of its own under the same file name (the merge test needs both). */
let small: string;
let smallCsv: string;
let smallReference: Outputs;
/**
 * The run that made `smallReference`, with `--max-reject-rate 0.01` (above the file's rate): its exit code and
 * log lines are what the reject-rate and log-line tests read.
 */
let smallReferenceRun: CliRun;

/**
 * `outlay score` with the test model. No worker thread (each costs a start-up of its own) except in the runs
 * a signal stops, where the worker pool's shutdown is part of what is tested, as in a night run's job.
 */
const cli =
  (workers: 0 | 1) =>
  (file: string, out: string, ...extra: string[]) => [
    'score',
    file,
    '--out',
    out,
    ...modelArgs(model),
    '--no-progress',
    '--workers',
    String(workers),
    '--batch-rows',
    '64',
    ...extra,
  ];
const args = cli(0);
const signalledArgs = cli(1);

interface Outputs {
  readonly scored: Buffer;
  readonly rejects: Buffer;
}

const outputsOf = async (out: string, name = 'households'): Promise<Outputs> => ({
  scored: await readFile(join(out, `${name}.scored.csv`)),
  rejects: await readFile(join(out, `${name}.rejects.csv`)),
});

/** Byte for byte (a deep `toEqual` of megabyte buffers takes minutes). */
const same = (a: Outputs, b: Outputs) => a.scored.equals(b.scored) && a.rejects.equals(b.rejects);

beforeAll(async () => {
  dir = await tempDir('night');
  model = await writeTestArtifact(dir);
  input = join(dir, 'households.csv');
  await writeFile(input, householdsCsv(ROWS, { badEvery: 997 }));
  small = join(dir, 'small', 'households.csv');
  smallCsv = householdsCsv(SMALL_ROWS, { badEvery: 997 });
  await mkdir(join(small, '..'));
  await writeFile(small, smallCsv);
  let large: CliRun;
  [large, smallReferenceRun] = await Promise.all([
    runCli(args(input, join(dir, 'reference'))),
    runCli(args(small, join(dir, 'small-reference'), '--max-reject-rate', '0.01')),
  ]);
  expect(large.code).toBe(3);
  expect(smallReferenceRun.code).toBe(3);
  reference = await outputsOf(join(dir, 'reference'));
  smallReference = await outputsOf(join(dir, 'small-reference'));
}, HANG_GUARD_MS);

interface Exit {
  readonly code: number | null;
  readonly stderr: string;
}

/** Starts the CLI; `exited` resolves with its code, or null if the hang guard had to kill it. */
function start(cliArgs: readonly string[]): { child: ChildProcess; exited: Promise<Exit> } {
  const child = spawn(process.execPath, [BIN, ...cliArgs], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
  const exited = new Promise<Exit>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stderr });
    }),
  );
  return { child, exited };
}

/** Waits for `path` to exist (or, `present` false, to be gone); fails if the process `exited` first. */
async function until(path: string, exited: Promise<Exit>, present = true): Promise<void> {
  let gone: Exit | undefined;
  exited.then((exit) => {
    gone = exit;
  });
  while (
    (await access(path).then(
      () => true,
      () => false,
    )) !== present
  ) {
    if (gone !== undefined) throw new Error(`exited (${gone.code}) before ${path} existed: ${gone.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const logLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Runs with --resume, and sends `signal` once its first checkpoint exists. */
async function interruptedResumeRun(out: string, file = input, signal: NodeJS.Signals = 'SIGTERM') {
  const run = start(signalledArgs(file, out, '--resume', '--checkpoint-every', '1'));
  await until(join(out, '.households.checkpoint.json'), run.exited);
  run.child.kill(signal);
  return run.exited;
}

describe('outlay score: overlapping runs', SLOW, () => {
  it('second run into the same output set → refused at once naming the holder, first run intact', async () => {
    const out = join(dir, 'overlap');
    const first = start(args('-', out));
    const csv = smallCsv;
    const half = csv.indexOf('\n', csv.length >> 1) + 1;
    first.child.stdin!.write(csv.slice(0, half));
    await until(join(out, '.stdin.lock'), first.exited);

    const stdinNamed = join(dir, 'stdin.csv');
    await writeFile(stdinNamed, csv);
    const second = await runCli(args(stdinNamed, out));
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`pid ${first.child.pid}`);

    first.child.stdin!.end(csv.slice(half));
    expect((await first.exited).code).toBe(3);
    expect(same(await outputsOf(out, 'stdin'), smallReference)).toBe(true);
    expect((await readdir(out)).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});

/**
 * A run paused (SIGSTOP) past the lock's 60 s staleness limit, with a second run started meanwhile. The
 * pause is not waited out: the lock's modification time is set back 68 s, which is all the pause changes.
 */
describe('outlay score: a paused run and its lock', SLOW, () => {
  const half = () => smallCsv.indexOf('\n', smallCsv.length >> 1) + 1;

  /** The first run, reading stdin, stopped halfway with its lock aged past the staleness limit. */
  async function pausedRun(out: string) {
    const first = start(args('-', out));
    first.child.stdin!.write(smallCsv.slice(0, half()));
    const lock = join(out, '.stdin.lock');
    await until(lock, first.exited);
    first.child.kill('SIGSTOP');
    const past = new Date(Date.now() - 68_000);
    await utimes(lock, past, past);
    return { first, lock };
  }

  /** Resumes the paused run and gives it the rest of its input. */
  function resume(first: ReturnType<typeof start>) {
    first.child.kill('SIGCONT');
    first.child.stdin!.end(smallCsv.slice(half()));
    return first.exited;
  }

  it('second run while the first is paused on this host → refused; the first publishes its own set', async () => {
    const out = join(dir, 'paused-here');
    const { first } = await pausedRun(out);
    // A different file of the same name: the same output set.
    await mkdir(join(dir, 'other'), { recursive: true });
    const stdinNamed = join(dir, 'other', 'stdin.csv');
    await writeFile(stdinNamed, householdsCsv(SMALL_ROWS / 2));
    const second = await runCli(args(stdinNamed, out));
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(second.stderr).not.toContain('taking over');

    expect((await resume(first)).code).toBe(3);
    expect(same(await outputsOf(out, 'stdin'), smallReference)).toBe(true);
    const summary = JSON.parse(await readFile(join(out, 'stdin.summary.json'), 'utf8'));
    const lines = (file: Buffer) => parse(file, { columns: true }).length;
    const files = await outputsOf(out, 'stdin');
    expect(summary.counts).toMatchObject({ rows_in: SMALL_ROWS, rows_scored: lines(files.scored) });
    expect(summary.counts.rows_rejected).toBe(lines(files.rejects));
  });

  it('lock taken over while paused (holder on another host) → exit 1, nothing of it published', async () => {
    const out = join(dir, 'paused-elsewhere');
    const { first, lock } = await pausedRun(out);
    // As a run on another host writes it: its liveness cannot be asked, only the lock's age.
    const holder = { pid: first.child.pid, host: 'another-host', startedAt: new Date(0).toISOString() };
    await writeFile(lock, `${JSON.stringify(holder)}\n`);
    const past = new Date(Date.now() - 68_000);
    await utimes(lock, past, past);
    const stdinNamed = join(dir, 'stdin.csv');
    await writeFile(stdinNamed, smallCsv);
    const second = await runCli(args(stdinNamed, out));
    expect(second.code).toBe(3);
    expect(second.stderr).toContain('taking over the lock');
    const published = await outputsOf(out, 'stdin');

    const paused = await resume(first);
    expect(paused.code).toBe(1);
    expect(paused.stderr).toContain('no longer holds the lock');
    expect(paused.stderr).toContain('nothing published');
    // The second run's set, byte for byte as it published it, and nothing else of either run left.
    expect(same(await outputsOf(out, 'stdin'), published)).toBe(true);
    expect(same(published, smallReference)).toBe(true);
    expect((await readdir(out)).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});

describe('outlay score: SIGTERM and SIGINT', SLOW, () => {
  it('SIGTERM during a --resume run → exit 143 with a log line; --resume then gives identical files', async () => {
    const out = join(dir, 'sigterm');
    const stopped = await interruptedResumeRun(out);
    expect(stopped.code).toBe(143);
    expect(stopped.stderr).toContain('interrupted by SIGTERM');
    expect(stopped.stderr).toContain('run again with --resume');
    expect((await readdir(out)).filter((name) => !name.startsWith('.'))).toEqual([]);

    const resumed = await runCli(args(input, out, '--resume'));
    expect(resumed.code).toBe(3);
    expect(same(await outputsOf(out), reference)).toBe(true);
  });

  it('SIGINT during a plain run → exit 130, a log line, and no files left (not even .partial)', async () => {
    const out = join(dir, 'sigint');
    const run = start(signalledArgs(input, out));
    await until(join(out, '.households.scored.csv.partial'), run.exited);
    run.child.kill('SIGINT');
    const stopped = await run.exited;
    expect(stopped.code).toBe(130);
    const end = logLines(stopped.stderr).at(-1)!;
    expect(end).toMatchObject({ exitCode: 130 });
    expect(end.msg).toContain('interrupted by SIGINT');
    expect(await readdir(out)).toEqual([]);
  });
});

describe('outlay score: a stop while standard input has no row to give', SLOW, () => {
  it.each([
    ['the main thread', args],
    ['a worker thread', signalledArgs],
  ])(
    'SIGTERM with the writer holding back the rest, on %s → exit 143 at once, nothing published',
    async (_, cli) => {
      const out = join(dir, `stdin-held-${cli === args ? 0 : 1}`);
      const run = start(cli('-', out));
      run.child.stdin!.write(smallCsv.slice(0, smallCsv.indexOf('\n', smallCsv.length >> 1) + 1));
      await until(join(out, '.stdin.scored.csv.partial'), run.exited);
      run.child.kill('SIGTERM');
      // The hang guard would give null: the stop must not wait for rows the writer never sends.
      const stopped = await run.exited;
      expect(stopped.code).toBe(143);
      expect(stopped.stderr).toContain('interrupted by SIGTERM');
      expect((await readdir(out)).filter((name) => !name.startsWith('.'))).toEqual([]);
      run.child.stdin!.destroy();
    },
  );
});

describe('outlay score: exit codes and log lines', SLOW, () => {
  it('--max-reject-rate below the file rate → exit 4 with outputs published; at or above → exit 3', async () => {
    // One reject in 997 rows: a rate of about 0.001.
    const over = await runCli(args(small, join(dir, 'rate-over'), '--max-reject-rate', '0.0005'));
    expect(over.code).toBe(4);
    expect(same(await outputsOf(join(dir, 'rate-over')), smallReference)).toBe(true);
    // The small file's reference run, with --max-reject-rate 0.01.
    expect(logLines(smallReferenceRun.stderr)[0]).toMatchObject({ maxRejectRate: 0.01 });
    expect(smallReferenceRun.code).toBe(3);
  });

  it('every run logs a start line (input, options, model, workers) and an end line (counts, exit code)', async () => {
    // The small file's reference run, exit 3.
    const lines = logLines(smallReferenceRun.stderr);
    expect(lines[0]).toMatchObject({
      msg: 'score job started',
      input: small,
      model,
      workers: 0,
      resume: false,
    });
    expect(lines.at(-1)).toMatchObject({ msg: 'score job finished', rowsIn: SMALL_ROWS, exitCode: 3 });
    expect(lines.at(-1)).toHaveProperty('durationMs');

    const missing = await runCli(args(join(dir, 'missing.csv'), join(dir, 'log-missing')));
    expect(missing.code).toBe(1);
    expect(logLines(missing.stderr).at(-1)).toMatchObject({ exitCode: 1 });
  });

  it('--max-reject-rate outside 0..1 → exit 1 naming the option', async () => {
    const run = await runCli(args(small, join(dir, 'rate-bad'), '--max-reject-rate', '5'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--max-reject-rate');
  });
});

describe('outlay score: standard input', SLOW, () => {
  it('score - reads CSV from stdin → the same scored and rejects files as the file', async () => {
    const out = join(dir, 'stdin');
    const run = await runCli(args('-', out), { input: smallCsv });
    expect(run.code).toBe(3);
    expect(same(await outputsOf(out, 'stdin'), smallReference)).toBe(true);
  });

  it('score - --resume → exit 1: stdin cannot be resumed', async () => {
    const run = await runCli(args('-', join(dir, 'stdin-resume'), '--resume'), { input: 'a,b\n1,2\n' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--resume needs an input file');
  });
});

describe('outlay score: resume hazards', SLOW, () => {
  it('plain run killed after an interrupted --resume run → a later --resume still finishes identical', async () => {
    const out = join(dir, 'plain-after-resume');
    expect((await interruptedResumeRun(out)).code).toBe(143);
    const plain = start(args(input, out));
    // The plain run has replaced the temporary files once the interrupted run's checkpoint is gone.
    await until(join(out, '.households.checkpoint.json'), plain.exited, false);
    plain.child.kill('SIGKILL');
    await plain.exited;

    const resumed = await runCli(args(input, out, '--resume'));
    expect(resumed.code).toBe(3);
    expect(same(await outputsOf(out), reference)).toBe(true);
  });

  it('input edited in place with size and mtime restored → not resumed: starts over on the new content', async () => {
    const edited = join(dir, 'edited', 'households.csv');
    const out = join(dir, 'edited-out');
    await mkdir(join(dir, 'edited'), { recursive: true });
    const original = await readFile(input, 'utf8');
    await writeFile(edited, original);
    expect((await interruptedResumeRun(out, edited)).code).toBe(143);

    const before = await stat(edited);
    await writeFile(edited, withFirstIncomeChanged(original));
    await utimes(edited, before.atime, before.mtime);

    const fresh = join(dir, 'edited-fresh');
    const [resumed] = await Promise.all([runCli(args(edited, out, '--resume')), runCli(args(edited, fresh))]);
    expect(resumed.code).toBe(3);
    expect(resumed.stderr).toContain('starting over');
    expect(same(await outputsOf(out), await outputsOf(fresh))).toBe(true);
    expect(same(await outputsOf(out), reference)).toBe(false);
  });
});

/** The same text, same length, with the first household's net income's last digit changed. */
function withFirstIncomeChanged(csv: string): string {
  const lines = csv.split('\n');
  const fields = lines[1]!.split(',');
  const income = fields[5]!;
  fields[5] = income.slice(0, -1) + String((Number(income.at(-1)) + 1) % 10);
  lines[1] = fields.join(',');
  return lines.join('\n');
}

describe('outlay merge: inputs by content', SLOW, () => {
  it('shards of two different files sharing a file name → merge refused naming the SHA-256', async () => {
    // The small file (seed 1) and another of its length and name.
    const first = small;
    const second = join(dir, 'second', 'households.csv');
    await mkdir(join(second, '..'), { recursive: true });
    await writeFile(second, householdsCsv(SMALL_ROWS, { badEvery: 997, seed: 7 }));
    const shard = async (file: string, index: number) => {
      const out = join(dir, `merge-${index}-${file.length}-${Math.random()}`);
      expect((await runCli(args(file, out, '--shard', `${index}/2`))).code).toBe(3);
      return join(out, 'households.summary.json');
    };
    const [one, twoOfSecond, twoOfFirst] = await Promise.all([
      shard(first, 1),
      shard(second, 2),
      shard(first, 2),
    ]);
    const mixed = await runCli(['merge', one!, twoOfSecond!, '--out', join(dir, 'merged-mixed')]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('SHA-256');
    const ok = await runCli(['merge', one!, twoOfFirst!, '--out', join(dir, 'merged-ok')]);
    // As the single run of the file would: finished with its rejects.
    expect(ok.code).toBe(3);
  });
});

describe('outlay score: rejects header', SLOW, () => {
  it('input columns row_number and reject_reason → the job columns are prefixed outlay_, no name twice', async () => {
    const file = join(dir, 'clash.csv');
    await writeFile(
      file,
      'row_number,age,net_annual_income,zip,reject_reason\n7,40,50000,10001,kept\n8,abc,50000,10001,kept too\n',
    );
    const out = join(dir, 'clash');
    expect((await runCli(args(file, out))).code).toBe(3);
    const rejects = (await readFile(join(out, 'clash.rejects.csv'), 'utf8')).split('\n');
    expect(rejects[0]).toBe(
      'outlay_row_number,row_number,age,net_annual_income,zip,reject_reason,outlay_reject_reason',
    );
    expect(rejects[1]).toMatch(/^2,8,abc,50000,10001,kept too,"\/demographics\/age /);
  });
});
