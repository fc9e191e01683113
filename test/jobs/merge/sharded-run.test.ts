/**
 * deploy/k8s/score-indexed-job.yaml run as a cluster would run it, without the cluster: the scoring
 * container's own command, arguments and environment (read from the YAML, `$(VAR)` expanded as the
 * kubelet does, /data on a temporary directory) in one process per index with JOB_COMPLETION_INDEX
 * 0 … N−1, then the merge container's command. The merged summary equals a single run's except for the
 * `meta` fields docs/deploy.md lists, and the shards' scored and rejects files, concatenated without
 * their repeated headers, hold the single run's rows byte for byte (grouped by shard, as documented).
 * tini, the image's PID 1, only passes signals on, so the commands run without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { PACKAGE_ROOT } from '../../../src/paths.js';

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
  const input = [...rows.slice(0, 300), rows[300]!.replace(/,[0-9]{5},/, ',123,'), ''].join('\n');
  await mkdir(join(dir, 'data', 'in'), { recursive: true });
  await writeFile(join(dir, 'data', 'in', 'households.csv'), input);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A container's environment as the kubelet builds it: `$(NAME)` of an earlier variable expanded. */
function environment(container: Container, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, ...extra };
  for (const { name, value } of container.env) {
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
): Promise<{ code: number | null; stderr: string }> {
  const [command, ...args] = commandLine(container);
  const child = spawn(command!, args, {
    env: environment(container, extra),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

/** A CSV's header and its rows in file order, the header of each further file left out. */
async function concatenated(files: string[]): Promise<{ header: string; rows: string[] }> {
  const texts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
  const lines = texts.map((text) => text.split('\n').filter((line) => line !== ''));
  for (const file of lines) expect(file[0]).toBe(lines[0]![0]);
  return { header: lines[0]![0]!, rows: lines.flatMap((file) => file.slice(1)) };
}

const META_DIFFERING = ['shard', 'merged_shards', 'started_at', 'finished_at', 'timings'];
const withoutRunMeta = (summary: { meta: Record<string, unknown> }) => ({
  ...summary,
  meta: Object.fromEntries(Object.entries(summary.meta).filter(([key]) => !META_DIFFERING.includes(key))),
});

describe('deploy/k8s/score-indexed-job.yaml, run as its pods would be', () => {
  it("its N shard pods, then its merge pod: the single run's summary and rows, byte for byte", async () => {
    const score = jobs.get('outlay-score')!;
    const scoreContainer = score.spec.template.spec.containers[0]!;
    const shards = score.spec.completions!;
    const shardRuns = await Promise.all(
      Array.from({ length: shards }, (_, index) =>
        run(scoreContainer, { JOB_COMPLETION_INDEX: String(index) }),
      ),
    );
    for (const shardRun of shardRuns) expect(shardRun.code, shardRun.stderr).toBe(0);
    const merge = await run(jobs.get('outlay-merge')!.spec.template.spec.containers[0]!, {});
    expect(merge.code, merge.stderr).toBe(0);

    const env = environment(scoreContainer, {});
    const single = spawnSync(
      join(dir, 'bin', 'outlay'),
      [
        'score',
        env.OUTLAY_INPUT!,
        '--out',
        join(dir, 'single'),
        '--no-progress',
        ...(scoreContainer.args ?? []),
      ],
      { encoding: 'utf8' },
    );
    expect(single.status, single.stderr).toBe(3);

    const runDir = env.OUTLAY_RUN_DIR!;
    const json = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
    const merged = await json(join(runDir, 'merged', 'households.summary.json'));
    expect(merged.meta.merged_shards).toBe(shards);
    expect(withoutRunMeta(merged)).toEqual(
      withoutRunMeta(await json(join(dir, 'single', 'households.summary.json'))),
    );

    for (const kind of ['scored', 'rejects']) {
      const shardFiles = Array.from({ length: shards }, (_, i) =>
        join(runDir, `shard-${i + 1}`, `households.${kind}.csv`),
      );
      const fromShards = await concatenated(shardFiles);
      const whole = await concatenated([join(dir, 'single', `households.${kind}.csv`)]);
      expect(fromShards.header).toBe(whole.header);
      expect([...fromShards.rows].sort()).toEqual([...whole.rows].sort());
    }
  });
});
