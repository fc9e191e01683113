import { spawn, spawnSync } from 'node:child_process';
import { access, chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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
    // An init as PID 1 passes SIGTERM on to the job: `command` replaces the image's entrypoint (tini).
    expect(container.command).toEqual(['/usr/bin/tini', '--', 'outlay-run-shard']);
    const shards = container.env.find((e) => e.name === 'OUTLAY_SHARDS')?.value;
    expect([job.completions, job.parallelism]).toEqual([Number(shards), Number(shards)]);
  });
});

/**
 * A stand-in `outlay` that logs its arguments and, for `score`, writes the shard summary and exits
 * FAKE_SCORE_EXIT; with FAKE_SCORE_PID it records its pid and waits for SIGTERM, then exits 143.
 */
const FAKE_OUTLAY = `#!/bin/sh
echo "$*" >> "$FAKE_LOG"
if [ "$1" = score ] && [ -n "\${FAKE_SCORE_PID:-}" ]; then
  trap 'echo TERM >> "$FAKE_LOG"; exit 143' TERM
  echo $$ > "$FAKE_SCORE_PID"
  while :; do sleep 0.05; done
fi
if [ "$1" = score ]; then
  mkdir -p "$4" && echo '{}' > "$4/households.summary.json"
  exit "\${FAKE_SCORE_EXIT:-0}"
fi
`;

async function until(path: string): Promise<void> {
  while (
    !(await access(path).then(
      () => true,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 20));
}

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

  const shardEnv = () => ({
    PATH: `${dir}:${process.env.PATH}`,
    FAKE_LOG: join(dir, 'calls.log'),
    OUTLAY_INPUT: '/in/households.csv',
    OUTLAY_RUN_DIR: join(dir, 'run'),
    OUTLAY_SHARDS: '2',
    OUTLAY_MERGE_POLL_SECONDS: '0.1',
  });
  const runShard = (env: Record<string, string>, ...args: string[]) =>
    spawnSync('sh', [RUN_SHARD, ...args], {
      encoding: 'utf8',
      // A hang guard only: the script must finish, however loaded the machine.
      timeout: 120_000,
      env: { ...shardEnv(), ...env },
    });
  const calls = async () => (await readFile(join(dir, 'calls.log'), 'utf8')).trim().split('\n');

  it('when given a 0-based Kubernetes index, scores the 1-based shard into its own directory', async () => {
    const result = runShard({ JOB_COMPLETION_INDEX: '1' }, '--workers', '2');
    expect(result.status).toBe(0);
    expect(await calls()).toEqual([
      `score /in/households.csv --out ${dir}/run/shard-2 --shard 2/2 --resume --no-progress --max-reject-rate 0.05 --workers 2`,
    ]);
  });

  it('passes OUTLAY_MAX_REJECT_RATE to the job, which decides between exit 3 and 4', async () => {
    expect(runShard({ OUTLAY_SHARD_INDEX: '1', OUTLAY_MAX_REJECT_RATE: '0.2' }).status).toBe(0);
    expect((await calls())[0]).toContain('--max-reject-rate 0.2');
  });

  it('exit 3 (rejects within the rate) → 0 for the scheduler; 4, 1 and 143 pass through', () => {
    for (const [code, status] of [
      ['3', 0],
      ['4', 4],
      ['1', 1],
      ['143', 143],
    ] as const) {
      expect(runShard({ AWS_BATCH_JOB_ARRAY_INDEX: '1', FAKE_SCORE_EXIT: code }).status).toBe(status);
    }
  });

  it.each([
    ['0', 'shard 1, which merges afterwards'],
    ['1', 'a scoring-only shard'],
  ])('SIGTERM to the script (%s: %s) → passed on to the job, exit 143, no merge', async (index) => {
    const pidFile = join(dir, 'pid');
    const shell = spawn('sh', [RUN_SHARD], {
      env: { ...shardEnv(), OUTLAY_SHARD_INDEX: index, FAKE_SCORE_PID: pidFile },
    });
    const exited = new Promise<number | null>((resolve) => shell.on('close', resolve));
    await until(pidFile);
    shell.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect((await calls()).filter((line) => line.startsWith('merge'))).toEqual([]);
    expect(await calls()).toContain('TERM');
  });

  it('shard 1 finishing with rejects within the rate (exit 3) still merges; a failure passes through', async () => {
    expect(runShard({ OUTLAY_SHARD_INDEX: '1' }).status).toBe(0);
    expect(runShard({ OUTLAY_SHARD_INDEX: '0', FAKE_SCORE_EXIT: '4' }).status).toBe(4);
    expect(runShard({ OUTLAY_SHARD_INDEX: '0', FAKE_SCORE_EXIT: '3' }).status).toBe(0);
    expect((await calls()).at(-1)).toMatch(/^merge /);
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
