/**
 * One run at a time per output set. A run creates `.<name>.lock` in its output directory exclusively
 * (O_EXCL) before it opens any output file, and removes it when it ends; a second run into the same
 * directory and name is refused at once, told who holds the lock. Two runs writing one set of temporary
 * files would otherwise publish one run's rows under the other's summary, or splice rows mid-line.
 *
 * A holder killed with -9 cannot remove its lock, so a lock is taken over, with a warning, when its holder
 * is a process of this host that no longer exists, or, for a holder on another host (e.g. a retried pod,
 * which cannot be asked), when it has not been refreshed for STALE_MS (the holder refreshes it every
 * REFRESH_MS). A live holder on this host is never taken over, however old its lock: a process paused by
 * SIGSTOP, a debugger or a suspended VM refreshes nothing, and resumes writing where it stopped.
 *
 * A run killed while creating its lock leaves the file it writes the lock from (`tryCreate`); the next run
 * to take the lock removes it once its writer is gone, by the same rules.
 *
 * A holder on another host can still lose its lock that way, so a run confirms it still holds its lock
 * right before publishing, and publishes nothing (LockLost) if it does not; it then leaves the files
 * and the lock of the output set alone, since they are the other run's.
 * Hand-written: the lock libraries on npm (proper-lockfile) do not record the holder the refusal must name.
 */
import { link, readdir, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';

const REFRESH_MS = 10_000;
const STALE_MS = 60_000;
const UNREADABLE_STALE_MS = 5_000;

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

export interface OutputLock {
  /** Throws LockLost unless the lock is still this run's. */
  confirm(): Promise<void>;
  /** Removes the lock if it is still this run's. */
  release(): Promise<void>;
}

/** The lock was taken over (or removed) while this run held it: nothing of this run may be published. */
export class LockLost extends Error {
  constructor(path: string, now: Holder | undefined) {
    super(
      `${path}: this run no longer holds the lock of its output set (${
        now === undefined ? 'the lock was removed' : `now held by ${describe(now)}`
      }), e.g. after being paused longer than the lock's ${STALE_MS / 1000} s staleness limit; nothing published`,
    );
  }
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
  await removeLeftovers(outDir, name);
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, REFRESH_MS);
  refresh.unref();
  const held = async () => sameHolder(await readHolder(path), holder);
  return {
    confirm: async () => {
      const now = await readHolder(path);
      if (!sameHolder(now, holder)) throw new LockLost(path, now);
    },
    release: async () => {
      clearInterval(refresh);
      if (await held()) await unlink(path).catch(() => undefined);
    },
  };
}

const sameHolder = (a: Holder | undefined, b: Holder) =>
  a !== undefined && a.pid === b.pid && a.host === b.host && a.startedAt === b.startedAt;

/**
 * Creates the lock with its content at once: written beside it, then hard-linked to its name (which fails
 * if the name exists). A holder paused or killed between creating the file and writing into it would
 * otherwise leave an empty lock, which names no one and cannot be checked for a live holder.
 */
async function tryCreate(path: string, holder: Holder): Promise<boolean> {
  const written = `${path}.${holder.host}.${holder.pid}`;
  await writeFile(written, `${JSON.stringify(holder)}\n`);
  try {
    await link(written, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(written).catch(() => undefined);
  }
}

/**
 * Removes what a run killed inside `tryCreate` left beside the lock: its `.<name>.lock.<host>.<pid>` file,
 * whose name says whose it is (it may be empty, killed before writing). A file of a live run, or of one on
 * another host refreshed within STALE_MS, is that run's own creation under way and stays.
 */
async function removeLeftovers(outDir: string, name: string): Promise<void> {
  const prefix = `.${name}.lock.`;
  for (const entry of await readdir(outDir)) {
    // `<pid>` alone: the name earlier versions wrote, whose holder only the content tells.
    const writer = entry.startsWith(prefix) ? /^(?:(.+)\.)?(\d+)$/.exec(entry.slice(prefix.length)) : null;
    if (writer === null) continue;
    const file = join(outDir, entry);
    const [, host, pid] = writer;
    const holder = host === undefined ? await readHolder(file) : { host, pid: Number(pid) };
    if (await isStale(file, holder)) await unlink(file).catch(() => undefined);
  }
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Holder;
  } catch {
    // Removed meanwhile, or not a lock this job wrote.
    return undefined;
  }
}

async function isStale(path: string, holder: Pick<Holder, 'host' | 'pid'> | undefined): Promise<boolean> {
  if (holder !== undefined && holder.host === hostname()) return !processExists(holder.pid);
  const modified = await stat(path).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  // A lock without a readable holder (not written by this job, or cut short by a full disk) names no one
  // to wait for: stale after a few seconds.
  return Date.now() - modified > (holder === undefined ? UNREADABLE_STALE_MS : STALE_MS);
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

const describe = (holder: Holder) =>
  `another run (pid ${holder.pid} on host ${holder.host}, started ${holder.startedAt})`;

function refusal(path: string, holder: Holder | undefined): string {
  const who = holder === undefined ? 'another run' : describe(holder);
  return `${path}: ${who} is writing this output set; wait for it to finish or choose another --out`;
}
