/**
 * deploy/k8s/score-indexed-job.yaml run as a cluster would run it, without the cluster: the scoring
 * container's own command, arguments and environment (read from the YAML, `$(VAR)` expanded as the
 * kubelet does, /data on a temporary directory) in one process per index with JOB_COMPLETION_INDEX
 * 0 … N−1 (N = 3, OUTLAY_INPUT and OUTLAY_SHARDS set as an operator would), then the merge container's
 * command. The merged summary equals a single run's except for the `meta` fields docs/deploy.md lists,
 * and the merged scored and rejects files are the single run's, byte for byte: CSV input, Arrow input,
 * a CSV with quoted fields holding newlines, CRLFs and refused quotes, whose shard boundaries fall among
 * them, and Parquet written by DuckDB in two row groups, so that of three shards one reads none.
 * tini, the image's PID 1, only passes signals on, so the commands run without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { PACKAGE_ROOT } from '../../../../src/paths.js';

interface Container {
  command: string[];
  args?: string[];
  env: { name: string; value?: string }[];
}
interface JobDocument {
  kind: string;
  metadata: { name: string };
  spec: { completions?: number; template: { spec: { containers: Container[] } } };
}

const DEPLOY = join(PACKAGE_ROOT, 'deploy');
/** The image's commands, as deploy/Dockerfile installs them, for this checkout. */
const IMAGE_COMMANDS: Record<string, string> = {
  'outlay-run-shard': join(DEPLOY, 'run-shard.sh'),
  'outlay-run-merge': join(DEPLOY, 'run-merge.sh'),
};

let dir: string;
let jobs: Map<string, JobDocument>;

/** A CSV with a `note` column: quoted newlines and CRLFs, blank lines, and quotes csv-parse refuses. */
function quotedCsv(rows: string[]): string {
  const notes = [
    'plain',
    '"two\nlines"',
    '"with, comma"',
    '"a ""quote"""',
    '"crlf\r\ninside"',
    '',
    '"a\n\nb"',
  ];
  const records = rows.slice(1).map((row, i) => {
    // A quote inside an unquoted field; a quote that does not close its field (read on to the next one).
    const note = i === 50 ? '5" screen' : i === 120 ? '"abc"x' : notes[i % notes.length]!;
    return `${i % 37 === 0 ? '\r\n' : ''}${row},${note}`;
  });
  return `${[`${rows[0]},note`, ...records].join('\r\n')}\r\n`;
}

/** The same rows as an Arrow IPC file of 37-row record batches, every column Utf8 (nulls for empty). */
function arrowOf(rows: string[]): Uint8Array {
  const header = rows[0]!.split(',');
  const cells = rows.slice(1).map((row) => row.split(','));
  const batches = [];
  for (let start = 0; start < cells.length; start += 37) {
    const part = cells.slice(start, start + 37);
    const columns = header.map((name, c) => [
      name,
      vectorFromArray(
        part.map((cell) => (cell[c] === '' ? null : cell[c]!)),
        new Utf8(),
      ),
    ]);
    batches.push(...new Table(Object.fromEntries(columns)).batches);
  }
  return tableToIPC(new Table(batches), 'file');
}

/**
 * `rows` (header first) repeated to `count` data rows, as Parquet written by DuckDB: row groups of 2048
 * rows (its smallest), in input order, from one thread. Returns the row count of each row group.
 */
async function duckdbParquet(rows: string[], count: number, path: string): Promise<number[]> {
  const csv = `${path}.csv`;
  const data = Array.from({ length: count }, (_, i) => rows[1 + (i % (rows.length - 1))]!);
  await writeFile(csv, [rows[0]!, ...data, ''].join('\n'));
  const connection = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
  try {
    await connection.run(
      `COPY (SELECT * FROM read_csv('${csv}')) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`,
    );
    const groups = await connection.runAndReadAll(
      `SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${path}') ORDER BY 1`,
    );
    return groups.getRows().map((row) => Number(row[1]));
  } finally {
    connection.closeSync();
  }
}

let parquetGroups: number[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-sharded-run-'));
  const text = await readFile(join(DEPLOY, 'k8s', 'score-indexed-job.yaml'), 'utf8');
  const documents = parseAllDocuments(text).map((document) => document.toJS() as JobDocument);
  jobs = new Map(documents.filter((d) => d.kind === 'Job').map((d) => [d.metadata.name, d]));
  // The image's `outlay`: this checkout's binary.
  await mkdir(join(dir, 'bin'));
  await writeFile(
    join(dir, 'bin', 'outlay'),
    `#!/bin/sh\nexec "${process.execPath}" "${join(PACKAGE_ROOT, 'bin', 'outlay.js')}" "$@"\n`,
  );
  await chmod(join(dir, 'bin', 'outlay'), 0o755);
  // A 301-row input with one row the contract refuses, so that the rejects files are compared too.
  const rows = (await readFile(join(PACKAGE_ROOT, 'sample-data', 'households.csv'), 'utf8')).split('\n');
  const kept = [...rows.slice(0, 300), rows[300]!.replace(/,[0-9]{5},/, ',123,')];
  await mkdir(join(dir, 'data', 'in'), { recursive: true });
  await writeFile(join(dir, 'data', 'in', 'households.csv'), [...kept, ''].join('\n'));
  await writeFile(join(dir, 'data', 'in', 'quoted.csv'), quotedCsv(kept));
  await writeFile(join(dir, 'data', 'in', 'households.arrow'), arrowOf(kept));
  parquetGroups = await duckdbParquet(kept, 2348, join(dir, 'data', 'in', 'duckdb.parquet'));
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * A container's environment as the kubelet builds it: `$(NAME)` of an earlier variable expanded;
 * `extra` adds variables (the index), `set` replaces the manifest's values as an operator edits them.
 */
function environment(
  container: Container,
  extra: Record<string, string>,
  set: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, ...extra };
  for (const { name, value: manifestValue } of container.env) {
    const value = set[name] ?? manifestValue;
    if (value === undefined) continue;
    const expanded = value.replace(/\$\(([A-Z_]+)\)/g, (whole, ref: string) => env[ref] ?? whole);
    env[name] = expanded.replace(/^\/data(?=\/|$)/, join(dir, 'data'));
  }
  return env;
}

/** A container's command line without tini, the image's commands mapped to this checkout's scripts. */
function commandLine(container: Container): string[] {
  const [first, ...rest] =
    container.command[0] === '/usr/bin/tini' ? container.command.slice(2) : container.command;
  return ['sh', IMAGE_COMMANDS[first!] ?? first!, ...rest, ...(container.args ?? [])];
}

function run(
  container: Container,
  extra: Record<string, string>,
  set: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const [command, ...args] = commandLine(container);
  const child = spawn(command!, args, {
    env: environment(container, extra, set),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

const META_DIFFERING = ['shard', 'merged_shards', 'started_at', 'finished_at', 'timings'];
const withoutRunMeta = (summary: { meta: Record<string, unknown> }) => ({
  ...summary,
  meta: Object.fromEntries(Object.entries(summary.meta).filter(([key]) => !META_DIFFERING.includes(key))),
});
const SHARDS = 3;

/** The manifest's `outlay score` arguments, its --workers value replaced by `workers` if given. */
function withWorkers(args: string[], workers: string | undefined): string[] {
  const at = args.indexOf('--workers');
  expect(at, 'the manifest sets --workers').toBeGreaterThanOrEqual(0);
  return args.map((arg, i) => (i === at + 1 && workers !== undefined ? workers : arg));
}

describe('deploy/k8s/score-indexed-job.yaml, run as its pods would be, N = 3', () => {
  // The first input runs the manifest's arguments as written (--workers 2). The others run on the main
  // thread (--workers 0): worker threads are not what they test (cli.test.ts shows the files do not depend
  // on them), and each of the 5 runs per input would start two, about 0.4 s of CPU apiece.
  const cases: { input: string; args: string[]; workers?: string; shardRows?: number[] }[] = [
    { input: 'households.csv', args: [] },
    // The manifest resumes a retried pod (--resume), which needs CSV output.
    { input: 'households.arrow', args: ['--format', 'csv'], workers: '0' },
    { input: 'quoted.csv', args: [], workers: '0' },
    // Row groups of 2048 and 300 rows: shard 1 reads the first, shard 3 the second, shard 2 none.
    { input: 'duckdb.parquet', args: ['--format', 'csv'], workers: '0', shardRows: [2048, 0, 300] },
  ];
  for (const { input, args, workers, shardRows } of cases) {
    it(`${input}: its shard pods, then its merge pod → the single run's scored and rejects files byte for byte, and its summary`, async () => {
      const set = { OUTLAY_INPUT: `/data/in/${input}`, OUTLAY_SHARDS: String(SHARDS) };
      const manifestContainer = jobs.get('outlay-score')!.spec.template.spec.containers[0]!;
      const scoreContainer = {
        ...manifestContainer,
        args: [...withWorkers(manifestContainer.args ?? [], workers), ...args],
      };
      const shardRuns = await Promise.all(
        Array.from({ length: SHARDS }, (_, index) =>
          run(scoreContainer, { JOB_COMPLETION_INDEX: String(index) }, set),
        ),
      );
      for (const shardRun of shardRuns) expect(shardRun.code, shardRun.stderr).toBe(0);
      const merge = await run(jobs.get('outlay-merge')!.spec.template.spec.containers[0]!, {}, set);
      expect(merge.code, merge.stderr).toBe(0);

      const env = environment(scoreContainer, {}, set);
      const name = input.replace(/\.[a-z]+$/, '');
      const single = spawnSync(
        join(dir, 'bin', 'outlay'),
        [
          'score',
          env.OUTLAY_INPUT!,
          '--out',
          join(dir, 'single', name),
          '--no-progress',
          // On the main thread: with the first input's pods on two workers, also a check that the
          // merged files do not depend on the threads.
          ...withWorkers(scoreContainer.args, '0'),
        ],
        { encoding: 'utf8' },
      );
      expect(single.status, single.stderr).toBe(3);

      const mergedDir = join(env.OUTLAY_RUN_DIR!, 'merged');
      const singleDir = join(dir, 'single', name);
      const json = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
      const merged = await json(join(mergedDir, `${name}.summary.json`));
      expect(merged.meta.merged_shards).toBe(SHARDS);
      expect(withoutRunMeta(merged)).toEqual(
        withoutRunMeta(await json(join(singleDir, `${name}.summary.json`))),
      );
      for (const file of [`${name}.scored.csv`, `${name}.rejects.csv`]) {
        const bytes = await readFile(join(mergedDir, file));
        expect(bytes.equals(await readFile(join(singleDir, file))), file).toBe(true);
      }
      // Each shard read its share of the rows: a third, or its whole row groups.
      const rowsIn = [];
      for (let shard = 1; shard <= SHARDS; shard++) {
        const summary = await json(join(env.OUTLAY_RUN_DIR!, `shard-${shard}`, `${name}.summary.json`));
        rowsIn.push(summary.counts.rows_in);
      }
      if (shardRows === undefined) for (const rows of rowsIn) expect(rows).toBeGreaterThan(50);
      if (shardRows === undefined) for (const rows of rowsIn) expect(rows).toBeLessThan(150);
      else expect({ groups: parquetGroups, rowsIn }).toEqual({ groups: [2048, 300], rowsIn: shardRows });
    });
  }
});

describe('outlay score --shard I/3 of an Arrow IPC file, then outlay merge --rows', () => {
  it("Arrow output: the merged file is the single run's, byte for byte", () => {
    const input = join(dir, 'data', 'in', 'households.arrow');
    const outlay = (...args: string[]) =>
      spawnSync(
        join(dir, 'bin', 'outlay'),
        [...args, '--workers', '0', '--no-progress', '--log-level', 'warn'],
        {
          encoding: 'utf8',
        },
      );
    expect(outlay('score', input, '--out', join(dir, 'arrow-single')).status).toBe(3);
    const summaries = [1, 2, 3].map((shard) => {
      const out = join(dir, `arrow-shard-${shard}`);
      expect(outlay('score', input, '--out', out, '--shard', `${shard}/3`).status).toBeLessThanOrEqual(3);
      return join(out, 'households.summary.json');
    });
    const merge = spawnSync(
      join(dir, 'bin', 'outlay'),
      ['merge', ...summaries, '--rows', '--out', join(dir, 'arrow-merged')],
      {
        encoding: 'utf8',
      },
    );
    // The single run's exit code: finished with rejects.
    expect(merge.status, merge.stderr).toBe(3);
    for (const file of ['households.scored.arrow', 'households.rejects.csv'])
      expect(
        readFileSync(join(dir, 'arrow-merged', file)).equals(readFileSync(join(dir, 'arrow-single', file))),
        file,
      ).toBe(true);
  });
});
