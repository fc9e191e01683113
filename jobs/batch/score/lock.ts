/**
 * One run at a time per output set. A run creates `.<name>.lock` in its output directory exclusively
 * (O_EXCL) before it opens any output file, and removes it when it ends; a second run into the same
 * directory and name is refused at once, told who holds the lock. Two runs writing one set of temporary
 * files would otherwise publish one run's rows under the other's summary, or splice rows mid-line.
 *
 * A holder killed with -9 cannot remove its lock, so a lock is taken over, with a warning, when its holder
 * is a process of this host that no longer exists, or when it has not been refreshed for STALE_MS (the
 * holder refreshes it every REFRESH_MS; a holder on another host, e.g. a retried pod, cannot be asked).
 * Hand-written: the lock libraries on npm (proper-lockfile) do not record the holder the refusal must name.
 */
import { readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';

const REFRESH_MS = 10_000;
const STALE_MS = 60_000;
const UNWRITTEN_STALE_MS = 5_000;

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

export interface OutputLock {
  release(): Promise<void>;
}

export const lockPathOf = (outDir: string, name: string) => join(outDir, `.${name}.lock`);

/** Takes the lock of the output set `name` in `outDir`, or throws naming the run that holds it. */
export async function lockOutputs(outDir: string, name: string, logger: Logger): Promise<OutputLock> {
  const path = lockPathOf(outDir, name);
  const holder: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  if (!(await tryCreate(path, holder))) {
    const previous = await readHolder(path);
    if (!(await isStale(path, previous))) throw new Error(refusal(path, previous));
    logger.warn({ lock: path, holder: previous }, 'taking over the lock of a run that is gone');
    await unlink(path).catch(() => undefined);
    // Two runs finding the same stale lock at once: only one creates the new one.
    if (!(await tryCreate(path, holder))) throw new Error(refusal(path, await readHolder(path)));
  }
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, REFRESH_MS);
  refresh.unref();
  return {
    release: async () => {
      clearInterval(refresh);
      await unlink(path).catch(() => undefined);
    },
  };
}

async function tryCreate(path: string, holder: Holder): Promise<boolean> {
  try {
    await writeFile(path, `${JSON.stringify(holder)}\n`, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Holder;
  } catch {
    // Removed meanwhile, or not yet (or, its holder killed in between, never) written.
    return undefined;
  }
}

async function isStale(path: string, holder: Holder | undefined): Promise<boolean> {
  if (holder !== undefined && holder.host === hostname() && !processExists(holder.pid)) return true;
  const modified = await stat(path).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  // A holder writes its lock's content right after creating it: an empty lock older than a few seconds
  // is one whose holder was killed in between.
  return Date.now() - modified > (holder === undefined ? UNWRITTEN_STALE_MS : STALE_MS);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function refusal(path: string, holder: Holder | undefined): string {
  const who =
    holder === undefined
      ? 'another run'
      : `another run (pid ${holder.pid} on host ${holder.host}, started ${holder.startedAt})`;
  return `${path}: ${who} is writing this output set; wait for it to finish or choose another --out`;
}
