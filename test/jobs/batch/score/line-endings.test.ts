/**
 * `outlay score` through the real binary on CSV files whose line endings are mixed: a carriage return
 * before a line feed ends the line, whichever ending the header has, and is never part of a value.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { householdsCsv, runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

const ROWS = 120;

let dir: string;
let model: string;

/** Header and rows of a generated file without quoted fields, with `last` moved to the end of each line. */
function lines(last: string): string[] {
  const plain = householdsCsv(ROWS)
    .replace(/"two\nlines"/g, 'two lines')
    .replace(/"said ""hi"", then left"/g, 'said hi');
  const rows = plain
    .trimEnd()
    .split('\n')
    .map((line) => line.split(','));
  const at = rows[0]!.indexOf(last);
  return rows.map((cells) => [...cells.filter((_, i) => i !== at), cells[at]].join(','));
}

/** Scores `text` as `<name>.csv`; returns the exit code and the scored and rejects files. */
async function score(name: string, text: string) {
  const input = join(dir, `${name}.csv`);
  await writeFile(input, text);
  const out = join(dir, name);
  // On the main thread: worker threads are not what line endings are about.
  const run = await runCli(scoreArgs(input, out, model, '--workers', '0'));
  return {
    code: run.code,
    scored: await readFile(join(out, `${name}.scored.csv`), 'utf8'),
    rejects: await readFile(join(out, `${name}.rejects.csv`), 'utf8'),
  };
}

beforeAll(async () => {
  dir = await tempDir('line-endings');
  model = await writeTestArtifact(dir);
});

describe('outlay score: mixed line endings (CLI)', () => {
  it.each([
    ['a numeric', 'net_annual_income'],
    ['a text', 'id'],
  ])(
    'scenario: CRLF rows in an LF file, %s last column → every row scored as in the LF file, no CR in a value',
    async (_, last) => {
      const file = lines(last);
      const lf = await score(`lf-${last}`, `${file.join('\n')}\n`);
      // Every other row from the middle on ends in CRLF, as when rows from a Windows export are appended.
      const mixedText = file
        .map((line, i) => `${line}${i > ROWS / 2 && i % 2 === 0 ? '\r\n' : '\n'}`)
        .join('');
      const mixed = await score(`mixed-${last}`, mixedText);
      expect(lf.code).toBe(0);
      expect(mixed.code).toBe(0);
      expect(mixed.scored).toBe(lf.scored);
      expect(mixed.scored).not.toContain('\r');
      expect(mixed.rejects.split('\n').filter(Boolean)).toHaveLength(1);
    },
  );

  it('scenario: a CRLF header over LF rows → every row read, as in the LF file', async () => {
    const file = lines('id');
    const lf = await score('lf-header', `${file.join('\n')}\n`);
    const mixed = await score('crlf-header', `${file[0]}\r\n${file.slice(1).join('\n')}\n`);
    expect(mixed.code).toBe(0);
    expect(mixed.scored).toBe(lf.scored);
    expect(mixed.scored.trimEnd().split('\n')).toHaveLength(ROWS + 1);
    expect(mixed.scored).not.toContain('\r');
  });
});
