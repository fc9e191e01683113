/**
 * `<name>.columns.csv` through the real binary: one row per column of the scored file, in its order, with
 * the types the Arrow writer gives them (read back from the Arrow file's own schema).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC } from '../../../../src/vendor/apache-arrow.js';
import { householdsCsv, runCli, scoreArgs, tempDir, writeTestArtifact } from './helpers.js';

let dir: string;
let model: string;

beforeAll(async () => {
  dir = await tempDir('columns');
  model = await writeTestArtifact(dir);
});

describe('outlay score: <name>.columns.csv', () => {
  it('lists every scored column in order, each with a type, a meaning, and the Arrow type the file has', async () => {
    const input = join(dir, 'households.csv');
    await writeFile(input, householdsCsv(20));
    const out = join(dir, 'out');
    const run = await runCli(scoreArgs(input, out, model, '--format', 'arrow'));
    expect(run.code, run.stderr).toBe(0);
    const rows: Record<string, string>[] = parse(await readFile(join(out, 'households.columns.csv')), {
      columns: true,
    });
    const schema = tableFromIPC(await readFile(join(out, 'households.scored.arrow'))).schema;
    expect(rows.map((row) => row.column)).toEqual(schema.fields.map((field) => field.name));
    for (const row of rows) expect(row.meaning, row.column).not.toBe('');
    const typeOf = new Map(schema.fields.map((field) => [field.name, String(field.type)]));
    for (const row of rows.filter((r) => !r.meaning!.startsWith('input column')))
      expect(typeOf.get(row.column!), row.column).toBe(row.type);
    const budget = rows.find((row) => row.column === 'budget_food_home')!;
    const modelled = rows.find((row) => row.column === 'model_food_home')!;
    expect(budget.meaning).toContain('the stated amount where the row gives one');
    expect(modelled.meaning).toContain('whatever the row states');
    expect(rows.find((row) => row.column === 'note')!.meaning).toBe('input column, passed through unused');
  });
});
