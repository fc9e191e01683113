/**
 * The batch job in process, with the fake-model engine: real files in a temporary directory, CSV and Arrow
 * in and out, rejects with reasons, counts, column maps, shards, and job-level failures.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Bool,
  Float64,
  Int32,
  Table,
  tableFromArrays,
  tableFromIPC,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvRecord } from '../../../../jobs/batch/io/csv-encoding.js';
import { mergeSummaries } from '../../../../jobs/batch/report/summary.js';
import { parseSummary } from '../../../../jobs/batch/report/summary-json.js';
import { type MainThreadIo, runScoreJob, type ScoreJobOptions } from '../../../../jobs/batch/score/job.js';
import { DERIVED_COLUMNS, EXPLANATION_COLUMNS } from '../../../../jobs/batch/score/layout.js';
import { InProcessScorer } from '../../../../jobs/batch/score/local-scorer.js';
import { createEngine } from '../../../../src/engine/create-engine.js';
import { fakeGeo, fakeModel, fakeReference } from '../../../engine/fakes.js';
import { householdsCsv, scoreJobOptions, tempDir } from './helpers.js';

const engine = createEngine({ model: fakeModel(), geo: fakeGeo, reference: fakeReference('fake-1') });

const jobOptions = (input: string, outDir: string, overrides: Partial<ScoreJobOptions> = {}) =>
  scoreJobOptions(input, outDir, async (layout) => new InProcessScorer(engine, layout), {
    batchRows: 7,
    ...overrides,
  });

const readCsv = async (path: string) => parse(await readFile(path), { bom: true }) as string[][];

async function score(
  csv: string | Buffer,
  overrides: Partial<ScoreJobOptions> = {},
  fileName = 'households.csv',
) {
  const dir = await tempDir('job');
  const input = join(dir, fileName);
  await writeFile(input, csv);
  const outDir = join(dir, 'out');
  const result = await runScoreJob(jobOptions(input, outDir, overrides));
  return { dir, outDir, result };
}

describe('score job (in process, fake engine)', () => {
  it('unit: CSV with BOM, CRLF and quoted fields → scored rows in input order, numbered, with every derived column', async () => {
    const csv =
      '\uFEFFid,net_annual_income,zip,note\r\n1,50000,35203,"a, ""quoted""\r\nnote"\r\n2,60000,10001,plain\r\n';
    const { result } = await score(csv);
    const rows = await readCsv(result.files.scored);
    expect(rows[0]).toEqual([
      'row_number',
      'id',
      'net_annual_income',
      'zip',
      'note',
      ...DERIVED_COLUMNS,
      ...EXPLANATION_COLUMNS,
    ]);
    expect(rows.slice(1).map((r) => r.slice(0, 5))).toEqual([
      ['1', '1', '50000', '35203', 'a, "quoted"\r\nnote'],
      ['2', '2', '60000', '10001', 'plain'],
    ]);
    const direct = engine.household({ demographics: { net_annual_income: 50000, zip: '35203' } });
    if (!direct.ok) throw new Error('fixture invalid');
    expect(rows[1]![5]).toBe(String(direct.value.budget.food_home));
    expect(rows[1]!.slice(-11, -5)).toEqual([
      direct.value.score['Predicted Saving Ability'],
      direct.value.score.OUTLAY,
      direct.value.score.SAViNGS,
      'zip',
      'AL',
      '13820',
    ]);
    expect(result).toMatchObject({ rowsIn: 2, rowsScored: 2, rowsRejected: 0 });
  });

  it('scenario: bad cells and invalid values → rejects with row number, original fields and API-style paths; counts reconcile', async () => {
    const csv = [
      'id,age,net_annual_income,zip,savings,is_homeowner',
      '1,40,50000,35203,,true',
      '2,abc,50000,35203,,true',
      '3,40,"1,000",35203,,maybe',
      '4,40,50000,1234,,false',
      '5,40,50000,35203,-5,false',
      '6,40,50000',
      '7,5e4,50000,35203,,',
    ].join('\n');
    const { result } = await score(csv);
    // Row 4's ZIP 1234 is 01234 with its leading zero lost, as spreadsheets do: padded and scored.
    expect(result).toMatchObject({ rowsIn: 7, rowsScored: 2, rowsRejected: 5 });
    const rejects = await readCsv(result.files.rejects);
    expect(rejects[0]).toEqual([
      'row_number',
      'id',
      'age',
      'net_annual_income',
      'zip',
      'savings',
      'is_homeowner',
      'reject_reason',
    ]);
    const reasons = Object.fromEntries(rejects.slice(1).map((r) => [r[0], r.at(-1)]));
    expect(reasons['2']).toMatch(/^\/demographics\/age must be a number written with digits/);
    expect(reasons['3']).toMatch(
      /\/demographics\/net_annual_income must be a number.*; \/demographics\/is_homeowner must be one of: true, TRUE, True, 1, yes/,
    );
    expect(reasons['4']).toBeUndefined();
    expect(reasons['5']).toMatch(/^\/budget\/savings must be >= 0/);
    expect(reasons['6']).toBe('has 3 fields; the header has 6');
    expect(reasons['7']).toMatch(/^\/demographics\/age must be a number/);
    expect(rejects[1]!.slice(1, 7)).toEqual(['2', 'abc', '50000', '35203', '', 'true']);
    const summary = JSON.parse(await readFile(result.files.summary, 'utf8'));
    expect(summary.counts.rows_in).toBe(summary.counts.rows_scored + summary.counts.rows_rejected);
    expect(summary.counts).toMatchObject({ rows_in: 7, rows_scored: 2, rows_rejected: 5 });
  });

  it('unit: --map renames columns and reads Y/N booleans', async () => {
    const dir = await tempDir('map');
    const mapFile = join(dir, 'map.json');
    await writeFile(
      mapFile,
      JSON.stringify({
        columns: { NET: 'net_annual_income', POSTCODE: 'zip', OWNER: 'is_homeowner' },
        booleans: { true: ['Y'], false: ['N'] },
      }),
    );
    const mapped = await score('NET,POSTCODE,OWNER\n50000,35203,Y\n50000,35203,N\n', { mapFile });
    const plain = await score('net_annual_income,zip,is_homeowner\n50000,35203,true\n50000,35203,false\n');
    const derived = async (path: string) => (await readCsv(path)).slice(1).map((r) => r.slice(4));
    expect(await derived(mapped.result.files.scored)).toEqual(await derived(plain.result.files.scored));
    expect((await readCsv(mapped.result.files.scored))[0]!.slice(0, 4)).toEqual([
      'row_number',
      'NET',
      'POSTCODE',
      'OWNER',
    ]);
  });

  it('scenario: shards 1/3, 2/3, 3/3 hold consecutive rows, every row once: in shard order, the single run', async () => {
    const csv = householdsCsv(50, { badEvery: 9 });
    const whole = await score(csv);
    const rowsOf = async (path: string) => (await readCsv(path)).slice(1);
    const shards = await Promise.all([1, 2, 3].map((index) => score(csv, { shard: { index, count: 3 } })));
    const scored = (await Promise.all(shards.map((s) => rowsOf(s.result.files.scored)))).flat();
    const wholeScored = await rowsOf(whole.result.files.scored);
    for (const shard of shards) expect(shard.result.rowsIn).toBeGreaterThan(10);
    expect(shards.reduce((total, s) => total + s.result.rowsIn, 0)).toBe(50);
    // row_number is the whole input's: the shards' rows, numbers included, are the single run's.
    expect(scored).toEqual(wholeScored);
  });

  it('scenario: the merged summaries of 3 shards equal the single run count for count and quantile for quantile', async () => {
    const csv = householdsCsv(120, { badEvery: 11 });
    const groupBy = ['zip'];
    const summaryOf = async (run: Awaited<ReturnType<typeof score>>) =>
      parseSummary(await readFile(run.result.files.summary, 'utf8'), run.result.files.summary);
    const whole = await summaryOf(await score(csv, { groupBy }));
    const shards = await Promise.all(
      [1, 2, 3].map(async (index) => summaryOf(await score(csv, { groupBy, shard: { index, count: 3 } }))),
    );
    const merged = mergeSummaries(shards);
    // Meta differs by design (timings, merged_shards); every count and statistic must not.
    expect({ ...merged, meta: null }).toEqual({ ...whole, meta: null });
    expect(merged.counts.rows_in).toBe(120);
  });

  it('unit: --group-by naming a column twice breaks the summary down by it once, and the next column by its own values', async () => {
    const csv = householdsCsv(30);
    const run = await score(csv, { groupBy: ['zip', 'zip', 'age'] });
    const summary = parseSummary(await readFile(run.result.files.summary, 'utf8'), run.result.files.summary);
    expect(summary.group_by).toEqual(['zip', 'age']);
    const cohortsOf = (name: string) =>
      summary.dimensions.find((d) => d.name === name)!.cohorts.map((cohort) => cohort.value);
    const [header, ...scoredRows] = await readCsv(run.result.files.scored);
    const distinct = (column: string) =>
      [...new Set(scoredRows.map((row) => row[header!.indexOf(column)]!))].sort();
    expect(cohortsOf('zip').sort()).toEqual(distinct('zip'));
    expect(cohortsOf('age').sort()).toEqual(distinct('age'));
  });

  it('unit: Arrow in → Arrow out keeps input column types and adds typed derived columns; equals CSV output', async () => {
    const table = new Table({
      id: vectorFromArray(['a', 'b', 'c'], new Utf8()),
      net_annual_income: vectorFromArray([50000, 70000, 0], new Float64()),
      age: vectorFromArray([30, 40, 50], new Int32()),
      zip: vectorFromArray(['35203', '10001', '35203'], new Utf8()),
      is_homeowner: vectorFromArray([true, false, null], new Bool()),
    });
    const arrow = await score(Buffer.from(tableToIPC(table, 'file')), {}, 'households.arrow');
    expect(arrow.result).toMatchObject({ rowsScored: 2, rowsRejected: 1 });
    const out = tableFromIPC(await readFile(arrow.result.files.scored));
    expect(out.schema.fields.map((f) => f.name)).toEqual([
      'row_number',
      ...table.schema.fields.map((f) => f.name),
      ...DERIVED_COLUMNS,
      ...EXPLANATION_COLUMNS,
    ]);
    const typeOf = (name: string) => String(out.schema.fields.find((f) => f.name === name)!.type);
    expect(
      [
        'age',
        'budget_food_home',
        'outlay_score',
        'state',
        'outlay_index',
        'outlay_percentile',
        'reason_codes',
      ].map(typeOf),
    ).toEqual(['Int32', 'Int32', 'Float64', 'Utf8', 'Float64', 'Float64', 'Utf8']);
    const csv = await score(
      'id,net_annual_income,age,zip,is_homeowner\na,50000,30,35203,true\nb,70000,40,10001,false\nc,0,50,35203,\n',
    );
    const csvRows = (await readCsv(csv.result.files.scored)).slice(1);
    expect(out.numRows).toBe(2);
    const added = [...DERIVED_COLUMNS, ...EXPLANATION_COLUMNS];
    const arrowRows = [...out].map((row) => added.map((c) => String(row[c] ?? '')));
    const normalise = (value: string) => (/^-?[0-9.]+$/.test(value) ? String(Number(value)) : value);
    expect(arrowRows).toEqual(csvRows.map((r) => r.slice(6).map(normalise)));
    expect([...out].map((row) => row.row_number)).toEqual([1, 2]);
    expect(await readFile(arrow.result.files.rejects, 'utf8')).toContain(
      '/demographics/net_annual_income must be > 0',
    );
  });

  it('unit: CSV in → Arrow out: contract numbers and booleans typed (Y/N by the map), empty cells null, row_number first, model metadata', async () => {
    const dir = await tempDir('typed');
    const mapFile = join(dir, 'map.json');
    await writeFile(mapFile, JSON.stringify({ booleans: { true: ['Y'], false: ['N'] } }));
    const csv =
      'id,age,household_members,is_homeowner,net_annual_income,zip,savings,note\n' +
      'a,30,2,Y,50000.5,35203,,x\nb,,1,N,60000,10001,120,\nc,40,1,,0,35203,,\nd,,,,70000,10001,,\n';
    const { result } = await score(csv, { format: 'arrow', mapFile });
    const out = tableFromIPC(await readFile(result.files.scored));
    const typeOf = (name: string) => String(out.schema.fields.find((f) => f.name === name)!.type);
    const columns = [
      'row_number',
      'id',
      'age',
      'household_members',
      'is_homeowner',
      'net_annual_income',
      'savings',
      'note',
    ];
    expect(columns.map(typeOf)).toEqual([
      'Int32',
      'Utf8',
      'Int32',
      'Int32',
      'Bool',
      'Float64',
      'Float64',
      'Utf8',
    ]);
    expect(out.schema.fields[0]!.name).toBe('row_number');
    expect([...out].map((row) => columns.map((c) => row[c]))).toEqual([
      [1, 'a', 30, 2, true, 50000.5, null, 'x'],
      [2, 'b', null, 1, false, 60000, 120, null],
      [4, 'd', null, null, null, 70000, null, null],
    ]);
    expect(Object.fromEntries(out.schema.metadata)).toEqual({
      'outlay.model_version': engine.modelVersion,
      'outlay.price_year': String(engine.priceYear),
      'outlay.amounts_unit': 'budget_* and model_*: US dollars a year, whole dollars',
      'outlay.predicted_saving_ability_unit': 'US dollars a month, whole dollars',
    });
  });

  it('scenario: Arrow with nulls, non-ASCII text and sliced batches → CSV output byte-identical to the same rows as CSV', async () => {
    const n = 40;
    const rows = Array.from({ length: n }, (_, i) => ({
      id: i % 9 === 4 ? null : `h${i}-${['é', '家', 'a,b', '"q"'][i % 4]}`,
      net_annual_income: i % 13 === 5 ? null : 20_000 + 1_500 * i,
      age: i % 5 === 0 ? null : 20 + i,
      zip: ['35203', '10001', '94103'][i % 3]!,
      savings: i % 3 === 1 ? null : 100 * i,
      is_homeowner: i % 4 === 0 ? null : i % 2 === 0,
    }));
    const columns = Object.keys(rows[0]!) as (keyof (typeof rows)[number])[];
    const types = {
      id: new Utf8(),
      net_annual_income: new Float64(),
      age: new Int32(),
      zip: new Utf8(),
      savings: new Float64(),
      is_homeowner: new Bool(),
    } as const;
    // Each column's values and type agree by construction; the casts only spare a per-column generic.
    const table = new Table(
      Object.fromEntries(
        columns.map((c) => [c, vectorFromArray(rows.map((r) => r[c]) as never[], types[c] as never)]),
      ),
    );
    const csvText = [
      columns.join(','),
      ...rows.map((r) => csvRecord(columns.map((c) => (r[c] === null ? '' : String(r[c])))).trimEnd()),
    ].join('\n');
    // batchRows 7 cuts the Arrow batch into slices whose offsets do not start at 0.
    const arrow = await score(Buffer.from(tableToIPC(table, 'file')), { format: 'csv' }, 'households.arrow');
    const csv = await score(`${csvText}\n`);
    expect(arrow.result.rowsRejected).toBeGreaterThan(0);
    expect(arrow.result).toMatchObject({
      rowsScored: csv.result.rowsScored,
      rowsRejected: csv.result.rowsRejected,
    });
    expect(await readFile(arrow.result.files.scored, 'utf8')).toBe(
      await readFile(csv.result.files.scored, 'utf8'),
    );
    expect(await readFile(arrow.result.files.rejects, 'utf8')).toBe(
      await readFile(csv.result.files.rejects, 'utf8'),
    );
  });

  it('scenario: Arrow with a numeric zip column (a ZIP stored as a number) → read as ZIPs, 2134 padded to 02134', async () => {
    const table = tableFromArrays({
      net_annual_income: Float64Array.from([50000, 50000]),
      zip: Int32Array.from([35203, 2134]),
    });
    const dir = await tempDir('arrow-types');
    const input = join(dir, 'h.arrow');
    await writeFile(input, tableToIPC(table, 'stream'));
    const result = await runScoreJob(jobOptions(input, join(dir, 'out')));
    expect(result).toMatchObject({ rowsIn: 2, rowsScored: 2, rowsRejected: 0 });
  });

  it.each([
    ['empty file', '', /is empty: a CSV input needs a header row/],
    ['duplicate headers', 'zip,zip,net_annual_income\n1,2,3\n', /two columns named "zip"/],
    ['missing required column', 'zip\n35203\n', /no column for net_annual_income/],
    [
      'unbalanced quote in the header',
      'net_annual_income,"zip\n50000,35203\n',
      /the header field 2 \(from byte 18\) has a quoted field that is never closed/,
    ],
    [
      'Latin-1 bytes in the header',
      Buffer.from('net_annual_income,zip,nam\xe9\n50000,35203,Jos\n', 'latin1'),
      /the header is not valid UTF-8 \(byte 25\)/,
    ],
  ])('scenario: %s → job-level error and no output under a final name', async (_label, csv, message) => {
    const dir = await tempDir('bad');
    const input = join(dir, 'h.csv');
    await writeFile(input, csv);
    const outDir = join(dir, 'out');
    await expect(runScoreJob(jobOptions(input, outDir))).rejects.toThrow(message);
    const left = await readdir(outDir).catch(() => []);
    expect(left.filter((name) => !name.startsWith('.'))).toEqual([]);
    expect(left.filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('unit: header only → empty scored and rejects files with headers, zero counts', async () => {
    const { result } = await score('net_annual_income,zip\n');
    expect(result).toMatchObject({ rowsIn: 0, rowsScored: 0, rowsRejected: 0 });
    expect((await readCsv(result.files.scored)).length).toBe(1);
  });

  it('scenario: CSV input, Arrow input with CSV or Parquet output → the scorer is told the main thread scores only for Arrow read and not written as Parquet', async () => {
    const told: MainThreadIo[] = [];
    const startScorer: ScoreJobOptions['startScorer'] = async (layout, io) => {
      told.push(io);
      return new InProcessScorer(engine, layout);
    };
    const csv = 'net_annual_income,zip\n50000,35203\n';
    const table = new Table({
      net_annual_income: vectorFromArray([50000], new Float64()),
      zip: vectorFromArray(['35203'], new Utf8()),
    });
    const arrow = Buffer.from(tableToIPC(table, 'file'));
    await score(csv, { startScorer });
    await score(arrow, { startScorer, format: 'csv' }, 'households.arrow');
    await score(arrow, { startScorer, format: 'parquet' }, 'households.arrow');
    expect(told).toEqual([{ scores: false }, { scores: true }, { scores: false }]);
  });
});
