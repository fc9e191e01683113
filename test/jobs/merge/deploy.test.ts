import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { PACKAGE_ROOT } from '../../../src/paths.js';

const DEPLOY = join(PACKAGE_ROOT, 'deploy');
const RUN_SHARD = join(DEPLOY, 'run-shard.sh');

interface JobSpec {
  completionMode: string;
  completions: number;
  parallelism: number;
  template: { spec: { containers: { command: string[]; env: { name: string; value?: string }[] }[] } };
}

async function manifest(file: string): Promise<{ kind: string; spec: Record<string, unknown> }> {
  const documents = parseAllDocuments(await readFile(join(DEPLOY, 'k8s', file), 'utf8'));
  expect(documents).toHaveLength(1);
  expect(documents[0]!.errors).toEqual([]);
  return documents[0]!.toJS();
}

describe('Kubernetes manifests', () => {
  it.each([
    ['score-indexed-job.yaml', 'Job', (spec: Record<string, unknown>) => spec as unknown as JobSpec],
    [
      'score-cronjob.yaml',
      'CronJob',
      (spec: Record<string, unknown>) => (spec.jobTemplate as { spec: JobSpec }).spec,
    ],
  ])('%s parses as an Indexed %s whose shard count agrees everywhere', async (file, kind, jobSpecOf) => {
    const document = await manifest(file);
    expect(document.kind).toBe(kind);
    const job = jobSpecOf(document.spec);
    expect(job.completionMode).toBe('Indexed');
    const container = job.template.spec.containers[0]!;
    expect(container.command).toEqual(['outlay-run-shard']);
    const shards = container.env.find((e) => e.name === 'OUTLAY_SHARDS')?.value;
    expect([job.completions, job.parallelism]).toEqual([Number(shards), Number(shards)]);
  });
});

/** A stand-in `outlay` that logs its arguments and, for `score`, writes the shard summary and exits FAKE_SCORE_EXIT. */
const FAKE_OUTLAY = `#!/bin/sh
echo "$*" >> "$FAKE_LOG"
if [ "$1" = score ]; then
  mkdir -p "$4" && echo '{}' > "$4/households.summary.json"
  exit "\${FAKE_SCORE_EXIT:-0}"
fi
`;

describe('deploy/run-shard.sh', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-run-shard-'));
    await writeFile(join(dir, 'outlay'), FAKE_OUTLAY);
    await chmod(join(dir, 'outlay'), 0o755);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const runShard = (env: Record<string, string>, ...args: string[]) =>
    spawnSync('sh', [RUN_SHARD, ...args], {
      encoding: 'utf8',
      // A hang guard only: the script must finish, however loaded the machine.
      timeout: 120_000,
      env: {
        PATH: `${dir}:${process.env.PATH}`,
        FAKE_LOG: join(dir, 'calls.log'),
        OUTLAY_INPUT: '/in/households.csv',
        OUTLAY_RUN_DIR: join(dir, 'run'),
        OUTLAY_SHARDS: '2',
        OUTLAY_MERGE_POLL_SECONDS: '0.1',
        ...env,
      },
    });
  const calls = async () => (await readFile(join(dir, 'calls.log'), 'utf8')).trim().split('\n');

  it('when given a 0-based Kubernetes index, scores the 1-based shard into its own directory', async () => {
    const result = runShard({ JOB_COMPLETION_INDEX: '1' }, '--workers', '2');
    expect(result.status).toBe(0);
    expect(await calls()).toEqual([
      `score /in/households.csv --out ${dir}/run/shard-2 --shard 2/2 --resume --no-progress --workers 2`,
    ]);
  });

  it('when the shard finishes with rejects (exit 3), reports success to the scheduler; other failures pass through', () => {
    expect(runShard({ AWS_BATCH_JOB_ARRAY_INDEX: '1', FAKE_SCORE_EXIT: '3' }).status).toBe(0);
    expect(runShard({ AWS_BATCH_JOB_ARRAY_INDEX: '1', FAKE_SCORE_EXIT: '1' }).status).toBe(1);
  });

  it('for shard 1, merges once every shard summary exists', async () => {
    expect(runShard({ OUTLAY_SHARD_INDEX: '1' }).status).toBe(0);
    expect(runShard({ OUTLAY_SHARD_INDEX: '0' }).status).toBe(0);
    expect((await calls()).at(-1)).toBe(
      `merge ${dir}/run/shard-1/households.summary.json ${dir}/run/shard-2/households.summary.json --out ${dir}/run/merged --name households`,
    );
    expect((await readdir(join(dir, 'run'))).sort()).toEqual(['shard-1', 'shard-2']);
  });

  it('for shard 1 with OUTLAY_MERGE=0, only scores', async () => {
    expect(runShard({ OUTLAY_SHARD_INDEX: '0', OUTLAY_MERGE: '0' }).status).toBe(0);
    expect(await calls()).toHaveLength(1);
  });

  it('without a shard index, fails with a message naming the variables', () => {
    const result = runShard({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX or OUTLAY_SHARD_INDEX');
  });
});
