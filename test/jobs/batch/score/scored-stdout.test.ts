/**
 * `outlay score --scored -` through the real binary: both spellings of the flag give the same Arrow IPC
 * stream, and a reader that closes standard output early (`… | head -c 100`) ends the job with exit 141,
 * one clear message and nothing published.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_BROKEN_PIPE } from '../../../../jobs/batch/score/exit-codes.js';
import { PACKAGE_ROOT } from '../../../../src/paths.js';
import { BIN, householdsCsv, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

// Scored rows are ~500 bytes in Arrow: the stream outgrows a pipe's buffer (64 KiB) many times over.
const ROWS = 3000;
let dir: string;
let model: string;
let input: string;

beforeAll(async () => {
  dir = await tempDir('scored-stdout');
  model = await writeTestArtifact(dir);
  input = join(dir, 'households.csv');
  await writeFile(input, householdsCsv(ROWS));
});

/** `outlay score` with the scored rows on standard output, `scored` spelling the flag. */
const stdoutArgs = (out: string, ...scored: string[]) => [
  BIN,
  // On the main thread: worker threads are not what the standard output is tested for.
  ...scoreArgs(input, out, model, ...scored, '--format', 'arrow', '--workers', '0'),
];

describe('outlay score --scored -', () => {
  it('contract: "--scored -" and "--scored=-" → the same Arrow IPC stream on stdout, exit 0', () => {
    const spaced = spawnSync(process.execPath, stdoutArgs(join(dir, 'spaced'), '--scored', '-'), {
      cwd: PACKAGE_ROOT,
      maxBuffer: 1 << 28,
    });
    const joined = spawnSync(process.execPath, stdoutArgs(join(dir, 'joined'), '--scored=-'), {
      cwd: PACKAGE_ROOT,
      maxBuffer: 1 << 28,
    });
    expect(spaced.stderr.toString()).toContain(`outlay score: ${ROWS} rows in, ${ROWS} scored`);
    expect(spaced.status).toBe(0);
    expect(joined.status).toBe(0);
    expect(tableFromIPC(spaced.stdout).numRows).toBe(ROWS);
    expect(Buffer.compare(spaced.stdout, joined.stdout)).toBe(0);
  });

  it('contract: a reader that closes stdout after the first bytes → exit 141, one message naming the broken pipe, no stack trace, nothing published', async () => {
    const out = join(dir, 'closed');
    const child = spawn(process.execPath, stdoutArgs(out, '--scored', '-'), {
      cwd: PACKAGE_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    // Like `head -c 100`: the first bytes are read, then the pipe is closed.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(EXIT_BROKEN_PIPE);
    expect(stderr).toContain(
      'outlay: standard output was closed by its reader before the scored stream ended (broken pipe)',
    );
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain('score job finished');
    expect(stderr).not.toContain('rows in,');
    expect((await readdir(out)).filter((name) => !name.startsWith('.'))).toEqual([]);
  });
});
