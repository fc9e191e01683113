/**
 * The output lock's leftovers: a run killed inside the lock's creation leaves the file it writes the lock
 * from; the next run to take the lock removes it when its writer is gone, and only then.
 */
import { spawnSync } from 'node:child_process';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lockOutputs } from '../../../../jobs/batch/score/lock.js';
import { tempDir } from './helpers.js';

const logger = pino({ level: 'silent' });
/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;
const leftover = (host: string, pid: number) => `.out.lock.${host}.${pid}`;

async function lockBeside(files: Record<string, string>, aged: readonly string[] = []) {
  const dir = await tempDir('lock');
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const past = new Date(Date.now() - 120_000);
  for (const name of aged) await utimes(join(dir, name), past, past);
  const lock = await lockOutputs(dir, 'out', logger);
  const present = (await readdir(dir)).sort();
  await lock.release();
  return present;
}

describe('lockOutputs, files left by a run killed while creating its lock', () => {
  it('an empty file of a process of this host that has exited → removed', async () => {
    const dead = leftover(hostname(), deadPid());
    expect(await lockBeside({ [dead]: '' })).toEqual(['.out.lock']);
  });

  it('a file of a live process of this host (its lock creation under way) → kept', async () => {
    const live = leftover(hostname(), process.ppid);
    expect(await lockBeside({ [live]: '' })).toEqual(['.out.lock', live]);
  });

  it('a file of another host: kept while fresh, removed once past the 60 s staleness limit', async () => {
    const fresh = leftover('other-host.example', 4242);
    const old = leftover('other-host.example', 4343);
    expect(await lockBeside({ [fresh]: '', [old]: '' }, [old])).toEqual(['.out.lock', fresh]);
  });

  it('a file named by pid alone (earlier versions) whose content names an exited process of this host → removed', async () => {
    const pid = deadPid();
    const holder = { pid, host: hostname(), startedAt: new Date().toISOString() };
    expect(await lockBeside({ [`.out.lock.${pid}`]: `${JSON.stringify(holder)}\n` })).toEqual(['.out.lock']);
  });

  it('files of other output sets and names that are not a leftover → kept', async () => {
    const other = `.in.lock.${hostname()}.${deadPid()}`;
    const notPid = '.out.lock.notes';
    expect(await lockBeside({ [other]: '', [notPid]: '' })).toEqual([other, '.out.lock', notPid].sort());
  });
});
