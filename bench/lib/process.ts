/**
 * Spawning the commands under measurement. Every measured command runs as its own process so that wall
 * time includes what a user waits for (startup, model load) and peak RSS is the process's own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

export interface RunOutcome {
  readonly wallMs: number;
  /** Kernel high-water mark of resident memory, bytes; includes every worker thread of the process. */
  readonly peakRssBytes: number;
  /**
   * User + system CPU time of all threads, when GNU time is there to report it: unlike wall time it hardly
   * moves when other processes compete for the cores.
   */
  readonly cpuMs: number | undefined;
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

// GNU time reports ru_maxrss from wait4(), exact even for a spike just before exit; polling VmHWM is the
// fallback for machines without it (the kernel keeps the high-water mark, so only the last poll interval
// can be missed).
const GNU_TIME = '/usr/bin/time';
const OUTPUT_KEPT = 64 * 1024;

export async function runMeasured(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunOutcome> {
  if (!existsSync(GNU_TIME)) return runPollingRss(command, args, options);
  const dir = await mkdtemp(join(tmpdir(), 'outlay-bench-time-'));
  const usageFile = join(dir, 'usage');
  try {
    const outcome = await run(GNU_TIME, ['-f', '%M %U %S', '-o', usageFile, command, ...args], options);
    // GNU time prefixes a "Command exited with non-zero status" line when the command fails.
    const lastLine = (await readFile(usageFile, 'utf8')).trim().split('\n').pop() ?? '';
    const [kib, user, system] = lastLine.split(' ').map(Number);
    return { ...outcome, peakRssBytes: kib! * 1024, cpuMs: (user! + system!) * 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function runPollingRss(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunOutcome> {
  let peakRssBytes = 0;
  const outcome = await run(command, args, options, (child) => {
    const timer = setInterval(async () => {
      const hwm = await readVmHwm(child.pid);
      if (hwm > peakRssBytes) peakRssBytes = hwm;
    }, 20);
    child.once('exit', () => clearInterval(timer));
  });
  return { ...outcome, peakRssBytes, cpuMs: undefined };
}

async function readVmHwm(pid: number | undefined): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
    return kib === undefined ? 0 : Number(kib) * 1024;
  } catch {
    return 0; // the process has exited between two polls
  }
}

function run(
  command: string,
  args: readonly string[],
  options: RunOptions,
  onSpawn?: (child: ChildProcess) => void,
): Promise<Omit<RunOutcome, 'peakRssBytes' | 'cpuMs'>> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < OUTPUT_KEPT) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < OUTPUT_KEPT) stderr += chunk;
    });
    onSpawn?.(child);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      resolve({ wallMs: performance.now() - started, exitCode: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/** Runs a command that must succeed; its output is part of the error so a failing figure says why. */
export async function runChecked(command: string, args: readonly string[], options: RunOptions = {}) {
  const outcome = await runMeasured(command, args, options);
  if (outcome.exitCode !== 0) {
    throw new Error(
      `${[command, ...args].join(' ')} exited with ${outcome.exitCode}\n${outcome.stderr}${outcome.stdout}`,
    );
  }
  return outcome;
}

// /proc/<pid>/stat counts CPU time in clock ticks, 100 per second on Linux.
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * User + system CPU time a running process has used so far, all threads (Linux). Sampled around a load
 * test, it gives the server's own CPU per request, which competing processes barely change.
 */
export async function processCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name, which may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * The scheduler's account of a process's main thread, which runs its event loop (/proc/<pid>/schedstat,
 * Linux): time it was runnable but waited for a CPU, and how many times it was put on one.
 */
export interface RunQueueWait {
  readonly waitMs: number;
  readonly timesScheduled: number;
}

async function mainThreadRunQueue(pid: number): Promise<RunQueueWait> {
  const [, waitNs, timesScheduled] = (await readFile(`/proc/${pid}/schedstat`, 'utf8'))
    .split(' ')
    .map(Number);
  return { waitMs: waitNs! / 1e6, timesScheduled: timesScheduled! };
}

/**
 * Runs `work` and returns its result with the CPU time, ms, that process `pid` used meanwhile, and how long
 * its event loop's thread waited for a CPU while it had work.
 */
export async function withCpuOf<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: number; runQueue: RunQueueWait }> {
  const [before, queueBefore] = await Promise.all([processCpuMs(pid), mainThreadRunQueue(pid)]);
  const result = await work();
  const [after, queueAfter] = await Promise.all([processCpuMs(pid), mainThreadRunQueue(pid)]);
  const runQueue = {
    waitMs: queueAfter.waitMs - queueBefore.waitMs,
    timesScheduled: queueAfter.timesScheduled - queueBefore.timesScheduled,
  };
  return { result, cpuMs: after - before, runQueue };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

export interface Service {
  readonly pid: number;
  readonly port: number;
  /** SIGTERM and wait, so a server run under --cpu-prof gets to write its profile. */
  stop(): Promise<void>;
}

/** Starts a long-running server process and resolves once its port accepts connections. */
export async function startService(
  command: string,
  args: readonly string[],
  port: number,
  options: RunOptions = {},
): Promise<Service> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < OUTPUT_KEPT) stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A hang guard, not a speed limit: on a busy machine a server's start-up can take well over a minute.
  const deadline = Date.now() + 300_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${[command, ...args].join(' ')} did not start listening on ${port}\n${stderr}`);
    }
    await sleep(50);
  }
  return {
    pid: child.pid!,
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
