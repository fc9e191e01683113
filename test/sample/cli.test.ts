/** The `outlay sample` command through the real binary (bin/outlay.js runs dist/, built by `npm test`'s pretest). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { SAMPLE_COLUMNS } from '../../src/sample/columns.js';
import { parseCsv } from './rows.js';

const run = promisify(execFile);
const outlay = (...args: string[]) => run(process.execPath, [join(PACKAGE_ROOT, 'bin/outlay.js'), ...args]);
const dir = mkdtempSync(join(tmpdir(), 'outlay-sample-'));

describe('outlay sample (CLI)', () => {
  it('writes 100,000 rows, byte-identical across runs (issue 2 acceptance)', async () => {
    const [a, b] = [join(dir, 'a.csv'), join(dir, 'b.csv')];
    await outlay('sample', '--rows', '100000', '--out', a, '--seed', '1');
    await outlay('sample', '--rows', '100000', '--out', b, '--seed', '1');
    const text = readFileSync(a);
    expect(text.equals(readFileSync(b))).toBe(true);
    expect(parseCsv(text.toString())).toHaveLength(100_000);
  });

  it('writes an Arrow IPC file that apache-arrow reads with the documented schema, integers as Int32', async () => {
    const out = join(dir, 'h.arrow');
    await outlay('sample', '--rows', '20000', '--out', out, '--seed', '9', '--bad-rows', '12');
    const table = tableFromIPC(readFileSync(out));
    expect(table.numRows).toBe(20_000);
    expect(table.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(
      SAMPLE_COLUMNS.map((c) => `${c}:${documentedSampleType(c)}`),
    );
  });

  it('writes the same households as CSV and as Arrow', async () => {
    const [csv, arrow] = [join(dir, 'same.csv'), join(dir, 'same.arrow')];
    await outlay('sample', '--rows', '500', '--out', csv, '--seed', '4');
    await outlay('sample', '--rows', '500', '--out', arrow, '--seed', '4');
    const fromArrow = tableFromIPC(readFileSync(arrow))
      .toArray()
      .map((row) =>
        Object.fromEntries(SAMPLE_COLUMNS.map((c) => [c, row[c] === null ? '' : String(row[c])])),
      );
    expect(fromArrow).toEqual(parseCsv(readFileSync(csv, 'utf8')));
  });

  it('regenerates the committed sample-data files byte for byte', async () => {
    for (const file of ['households.csv', 'households.arrow']) {
      const out = join(dir, file);
      await outlay('sample', '--rows', '1000', '--seed', '2026', '--bad-rows', '10', '--out', out);
      expect(readFileSync(out).equals(readFileSync(join(PACKAGE_ROOT, 'sample-data', file))), file).toBe(
        true,
      );
    }
  });

  it('fails with exit code 1 and a message when --rows is missing', async () => {
    await expect(outlay('sample', '--out', join(dir, 'x.csv'))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('rows'),
    });
  });
});

function documentedSampleType(column: string): string {
  if (column === 'id' || column === 'zip') return 'Utf8';
  if (column === 'is_homeowner') return 'Bool';
  return column === 'age' || column === 'household_members' ? 'Int32' : 'Float64';
}
