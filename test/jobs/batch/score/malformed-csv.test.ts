/**
 * `outlay score` through the real binary on a generated CSV with malformed records: each one is rejected
 * with its line and byte offset, and every other row is scored exactly as in the clean file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sizedForRun } from '../../../support/full-tests.js';
import { runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

/**
 * About 4 MB with OUTLAY_FULL_TESTS=1 (CI's first pass, README): the bad byte sits dozens of 64 KiB read
 * chunks in, far from where the stray quote is. About 1 MB in a maintainer's run: a dozen chunks in.
 */
const ROWS = sizedForRun(60_000, 15_000);
const QUOTE_LINE = 1001;
const BYTE_LINE = (ROWS * 5) / 6 + 1;

let dir: string;
let model: string;
let lines: Buffer[];

const startOf = (file: Buffer[], line: number) =>
  file.slice(0, line - 1).reduce((at, l) => at + l.length + 1, 0);
/** On the main thread: worker threads are not what these tests are about. */
const score = (input: string, out: string) => runCli(scoreArgs(input, out, model, '--workers', '0'));

beforeAll(async () => {
  dir = await tempDir('malformed');
  model = await writeTestArtifact(dir);
  const clean = join(dir, 'clean.csv');
  const sample = await runCli(['sample', '--rows', String(ROWS), '--out', clean]);
  expect(sample.code).toBe(0);
  lines = (await readFile(clean))
    .toString('latin1')
    .split('\n')
    .map((l) => Buffer.from(l, 'latin1'));
}, 120_000);

describe('outlay score: malformed CSV records (CLI)', () => {
  it(`contract: one stray quote and one Windows-1252 byte in ${ROWS.toLocaleString('en-US')} rows → two rejects naming line and byte, the rest scored as in the clean file`, async () => {
    const bad = [...lines];
    // A free-text value with unescaped quotes in the last column, and an é (0xE9 in Windows-1252) in a ZIP.
    bad[QUOTE_LINE - 1] = Buffer.concat([bad[QUOTE_LINE - 1]!, Buffer.from('John "JJ" Smith')]);
    const zipEnd = bad[BYTE_LINE - 1]!.toString('latin1').split(',').slice(0, 7).join(',').length;
    bad[BYTE_LINE - 1] = Buffer.concat([
      bad[BYTE_LINE - 1]!.subarray(0, zipEnd),
      Buffer.from([0xe9]),
      bad[BYTE_LINE - 1]!.subarray(zipEnd),
    ]);
    const input = join(dir, 'households.csv');
    await writeFile(input, Buffer.concat(bad.flatMap((l, i) => (i === 0 ? [l] : [Buffer.from('\n'), l]))));
    const [cleanRun, badRun] = [
      await score(join(dir, 'clean.csv'), join(dir, 'clean')),
      await score(input, join(dir, 'bad')),
    ];
    expect(cleanRun.code).toBe(0);
    expect(badRun.stderr).toBe('');
    expect(badRun.code).toBe(3);

    const rejects = (await readFile(join(dir, 'bad', 'households.rejects.csv'), 'utf8'))
      .trimEnd()
      .split('\n');
    expect(rejects).toHaveLength(3);
    const lastField = bad[QUOTE_LINE - 1]!.lastIndexOf(',') + 1;
    expect(rejects[1]).toMatch(
      new RegExp(
        `^${QUOTE_LINE - 1},,+line ${QUOTE_LINE}: field 12 \\(from byte ${startOf(bad, QUOTE_LINE) + lastField}\\) has a quote inside an unquoted field`,
      ),
    );
    expect(rejects[2]).toMatch(
      new RegExp(
        `^${BYTE_LINE - 1},,+"line ${BYTE_LINE}, byte ${startOf(bad, BYTE_LINE) + zipEnd} \\(record from byte ${startOf(bad, BYTE_LINE)}\\): not valid UTF-8`,
      ),
    );

    const cleanScored = (await readFile(join(dir, 'clean', 'clean.scored.csv'), 'utf8')).split('\n');
    const badScored = (await readFile(join(dir, 'bad', 'households.scored.csv'), 'utf8')).split('\n');
    expect(badScored).toEqual(cleanScored.filter((_, i) => i !== QUOTE_LINE - 1 && i !== BYTE_LINE - 1));
    const summary = JSON.parse(await readFile(join(dir, 'bad', 'households.summary.json'), 'utf8'));
    expect(summary.counts).toMatchObject({ rows_in: ROWS, rows_scored: ROWS - 2, rows_rejected: 2 });
  }, 600_000);

  it('contract: a quote never closed → one reject naming the lines it swallowed, which count as rejected rows: 3 of 5, exit 4 with the files published', async () => {
    const input = join(dir, 'unclosed.csv');
    const head = lines.slice(0, 6).map((l) => l.toString('latin1'));
    head[3] = head[3]!.replace(/,([^,]*)$/, ',"$1');
    await writeFile(input, `${head.join('\n')}\n`);
    const run = await score(input, join(dir, 'unclosed'));
    expect(run.code).toBe(4);
    const rejects = (await readFile(join(dir, 'unclosed', 'unclosed.rejects.csv'), 'utf8'))
      .trimEnd()
      .split('\n');
    expect(rejects).toHaveLength(2);
    expect(rejects[1]).toMatch(
      /^3,,+lines 4-6: field 12 \(from byte \d+\) has a quoted field that is never closed/,
    );
  }, 120_000);

  it('contract: a header that is not UTF-8 fails the run naming the byte', async () => {
    const input = join(dir, 'header.csv');
    await writeFile(input, Buffer.concat([Buffer.from('id,zip\xe9', 'latin1'), Buffer.from('\n1,10001\n')]));
    const run = await score(input, join(dir, 'header'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the header is not valid UTF-8 (byte 6)');
  });
});
