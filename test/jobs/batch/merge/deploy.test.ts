import { spawn, spawnSync } from 'node:child_process';
import { access, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { PACKAGE_ROOT } from '../../../../src/paths.js';

const DEPLOY = join(PACKAGE_ROOT, 'deploy');
const RUN_SHARD = join(DEPLOY, 'run-shard.sh');
const RUN_MERGE = join(DEPLOY, 'run-merge.sh');

interface Container {
  command: string[];
  env: { name: string; value?: string }[];
}
interface JobSpec {
  completionMode?: string;
  completions?: number;
  parallelism?: number;
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  template: { spec: { initContainers?: Container[]; containers: Container[] } };
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  spec: JobSpec & { jobTemplate?: { spec: JobSpec } };
}

async function manifests(file: string): Promise<Manifest[]> {
  const documents = parseAllDocuments(await readFile(join(DEPLOY, 'k8s', file), 'utf8'));
  for (const document of documents) expect(document.errors).toEqual([]);
  return documents.map((document) => document.toJS() as Manifest);
}

/** The Jobs of a manifest file, a CronJob's by its Job template. */
const jobSpecs = (all: Manifest[]) =>
  all.flatMap((m) => (m.kind === 'Job' ? [m.spec] : m.kind === 'CronJob' ? [m.spec.jobTemplate!.spec] : []));

const envValue = (container: Container, name: string) => container.env.find((e) => e.name === name)?.value;

describe('Kubernetes manifests', () => {
  it.each(['score-indexed-job.yaml', 'score-cronjob.yaml'])(
    '%s: an Indexed Job retried per index that only scores, then a merge step, shard counts agreeing',
    async (file) => {
      const [scoring, merging] = jobSpecs(await manifests(file)) as [JobSpec, JobSpec];
      expect(scoring.completionMode).toBe('Indexed');
      expect([scoring.backoffLimitPerIndex, scoring.maxFailedIndexes, scoring.backoffLimit]).toEqual([
        3,
        0,
        undefined,
      ]);
      const shard = scoring.template.spec.containers[0]!;
      // An init as PID 1 passes SIGTERM on to the job: `command` replaces the image's entrypoint (tini).
      expect(shard.command).toEqual(['/usr/bin/tini', '--', 'outlay-run-shard']);
      const shards = Number(envValue(shard, 'OUTLAY_SHARDS'));
      expect([scoring.completions, scoring.parallelism]).toEqual([shards, shards]);

      const merge = merging.template.spec.containers[0]!;
      expect(merge.command.join(' ')).toMatch(/^\/usr\/bin\/tini -- .*outlay-run-merge$/);
      expect(Number(envValue(merge, 'OUTLAY_SHARDS'))).toBe(shards);
      expect(envValue(merge, 'OUTLAY_INPUT')).toBe(envValue(shard, 'OUTLAY_INPUT'));
      expect(merging.template.spec.initContainers?.[0]?.command.join(' ')).toContain(
        'kubectl wait --for=condition=Complete',
      );
    },
  );

  it('score-indexed-job.yaml: the merge Job waits for the Indexed Job by name and reads its run directory', async () => {
    const all = await manifests('score-indexed-job.yaml');
    const jobs = all.filter((m) => m.kind === 'Job');
    expect(jobs.map((m) => m.metadata.name)).toEqual(['outlay-score', 'outlay-merge']);
    const [score, merge] = jobs.map((m) => m.spec.template.spec) as [
      JobSpec['template']['spec'],
      JobSpec['template']['spec'],
    ];
    expect(merge.initContainers![0]!.command).toContain('job/outlay-score');
    for (const name of ['OUTLAY_RUN_ID', 'OUTLAY_RUN_DIR'])
      expect(envValue(merge.containers[0]!, name)).toBe(envValue(score.containers[0]!, name));
    expect(all.map((m) => m.kind)).toEqual(['ServiceAccount', 'Role', 'RoleBinding', 'Job', 'Job']);
  });
});

/**
 * A stand-in `outlay` that logs its arguments and, for `score`, writes the shard summary and exits
 * FAKE_SCORE_EXIT; with FAKE_SCORE_PID it records its pid and waits for SIGTERM, then exits 143; `merge`
 * exits FAKE_MERGE_EXIT.
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
exit "\${FAKE_MERGE_EXIT:-0}"
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

/** A fresh directory holding the stand-in `outlay` for each test, handed to `use`, removed after it. */
function withFakeOutlay(prefix: string, use: (dir: string) => void): void {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    await writeFile(join(dir, 'outlay'), FAKE_OUTLAY);
    await chmod(join(dir, 'outlay'), 0o755);
    use(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
}

describe('deploy/run-shard.sh', () => {
  let dir: string;
  withFakeOutlay('outlay-run-shard-', (made) => {
    dir = made;
  });

  const shardEnv = () => ({
    PATH: `${dir}:${process.env.PATH}`,
    FAKE_LOG: join(dir, 'calls.log'),
    OUTLAY_INPUT: '/in/households.csv',
    OUTLAY_RUN_DIR: join(dir, 'run'),
    OUTLAY_SHARDS: '2',
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

  it('exit 3 (rejects within the rate) and 5 (PSI over --max-psi, files published) → 0; 4, 1 and 143 pass through', () => {
    for (const [code, status] of [
      ['3', 0],
      ['5', 0],
      ['4', 4],
      ['1', 1],
      ['143', 143],
    ] as const) {
      expect(runShard({ AWS_BATCH_JOB_ARRAY_INDEX: '1', FAKE_SCORE_EXIT: code }).status).toBe(status);
    }
  });

  it.each(['0', '1'])('SIGTERM to the script (index %s) → passed on to the job, exit 143', async (index) => {
    const pidFile = join(dir, 'pid');
    const shell = spawn('sh', [RUN_SHARD], {
      env: { ...shardEnv(), OUTLAY_SHARD_INDEX: index, FAKE_SCORE_PID: pidFile },
    });
    const exited = new Promise<number | null>((resolve) => shell.on('close', resolve));
    await until(pidFile);
    shell.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(await calls()).toContain('TERM');
  });

  it('for shard 1, once every shard has finished: only scores, leaving the merge to its own step', async () => {
    expect(runShard({ OUTLAY_SHARD_INDEX: '1' }).status).toBe(0);
    expect(runShard({ OUTLAY_SHARD_INDEX: '0' }).status).toBe(0);
    expect((await calls()).filter((line) => !line.startsWith('score'))).toEqual([]);
  });

  it('without a shard index, fails with a message naming the variables', () => {
    const result = runShard({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX or OUTLAY_SHARD_INDEX');
  });
});

describe('deploy/run-merge.sh', () => {
  let dir: string;
  withFakeOutlay('outlay-run-merge-', (made) => {
    dir = made;
  });

  const runMerge = (env: Record<string, string> = {}) =>
    spawnSync('sh', [RUN_MERGE], {
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        PATH: `${dir}:${process.env.PATH}`,
        FAKE_LOG: join(dir, 'calls.log'),
        OUTLAY_INPUT: '/in/households.csv',
        OUTLAY_RUN_DIR: join(dir, 'run'),
        OUTLAY_SHARDS: '2',
        ...env,
      },
    });
  const summary = async (shard: number) => {
    await mkdir(join(dir, 'run', `shard-${shard}`), { recursive: true });
    await writeFile(join(dir, 'run', `shard-${shard}`, 'households.summary.json'), '{}');
  };

  it("with every shard summary: merges them, in shard order, into the run's merged directory", async () => {
    await summary(2);
    await summary(1);
    expect(runMerge().status).toBe(0);
    expect((await readFile(join(dir, 'calls.log'), 'utf8')).trim()).toBe(
      `merge ${dir}/run/shard-1/households.summary.json ${dir}/run/shard-2/households.summary.json --rows --out ${dir}/run/merged --name households --max-reject-rate 0.05`,
    );
  });

  it('merge exit 3 (rejects within OUTLAY_MAX_REJECT_RATE) → 0 for the scheduler; 4 and 1 pass through', async () => {
    await summary(1);
    await summary(2);
    for (const [code, status] of [
      ['3', 0],
      ['4', 4],
      ['1', 1],
    ] as const) {
      expect(runMerge({ FAKE_MERGE_EXIT: code, OUTLAY_MAX_REJECT_RATE: '0.2' }).status).toBe(status);
    }
    expect((await readFile(join(dir, 'calls.log'), 'utf8')).trim().split('\n')[0]).toContain(
      '--max-reject-rate 0.2',
    );
  });

  it('with OUTLAY_REFERENCE and OUTLAY_MAX_PSI: the merge compares with the reference and judges its PSI', async () => {
    await summary(1);
    await summary(2);
    expect(
      runMerge({ OUTLAY_REFERENCE: '/ref/households.summary.json', OUTLAY_MAX_PSI: '0.25' }).status,
    ).toBe(0);
    expect((await readFile(join(dir, 'calls.log'), 'utf8')).trim()).toBe(
      `merge ${dir}/run/shard-1/households.summary.json ${dir}/run/shard-2/households.summary.json --reference /ref/households.summary.json --max-psi 0.25 --rows --out ${dir}/run/merged --name households`,
    );
  });

  it('with a shard unfinished: fails at once, naming the shard and its missing summary, and merges nothing', async () => {
    await summary(1);
    const result = runMerge();
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `outlay-run-merge: shard 2 of 2 has not finished: no ${dir}/run/shard-2/households.summary.json\n`,
    );
    expect(
      await access(join(dir, 'calls.log')).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  });
});

describe('deploy/aws-batch', () => {
  const definition = async (file: string) =>
    JSON.parse(await readFile(join(DEPLOY, 'aws-batch', file), 'utf8')) as {
      containerProperties: { command: string[]; environment: { name: string; value: string }[] };
    };

  it('the array job runs outlay-run-shard, the merge job outlay-run-merge, over as many shards as submitted', async () => {
    const score = (await definition('score-job-definition.json')).containerProperties;
    const merge = (await definition('merge-job-definition.json')).containerProperties;
    expect(score.command.slice(0, 3)).toEqual(['/usr/bin/tini', '--', 'outlay-run-shard']);
    expect(merge.command).toEqual(['/usr/bin/tini', '--', 'outlay-run-merge']);
    const shards = (props: typeof score) => props.environment.find((e) => e.name === 'OUTLAY_SHARDS')!.value;
    const submit = await readFile(join(DEPLOY, 'aws-batch', 'submit.sh'), 'utf8');
    expect(submit).toContain(`--array-properties size=${shards(score)}`);
    expect(shards(merge)).toBe(shards(score));
    expect(submit).toMatch(/--depends-on "jobId=\$array"/);
    expect(spawnSync('sh', ['-n', join(DEPLOY, 'aws-batch', 'submit.sh')]).status).toBe(0);
  });
});
