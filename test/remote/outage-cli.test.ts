/**
 * `outlay score --engine remote` (bin/outlay.js) against `outlay serve` on loopback when the server goes
 * away: a restart mid-run loses no row (the files equal a local run's), a server that never answers fails
 * the job with exit 1 and publishes nothing, an outage longer than --max-outage fails the job and keeps its
 * checkpoint for --resume, and throttling is logged with the server's limit.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib/process.js';
import { tempDir } from '../jobs/batch/score/helpers.js';
import {
  type CliOutcome,
  createKeyWithCli,
  outcomeOf,
  remoteScoreArgs,
  runOutlay,
  spawnOutlay,
  writeSample,
} from '../reliability/support/outlay-cli.js';
import { finalFilesIn } from '../reliability/support/score-outputs.js';
import { type ServeProcess, startServe } from '../reliability/support/serve-process.js';

const ROWS = 2_000;
const BAD_ROWS = 10;
/**
 * Rows per evaluate request in the runs the server dies under: --batch-rows 24 split over --concurrency 8,
 * so that the run takes many requests and the kill lands well inside it.
 */
const SMALL_REQUESTS = ['--batch-rows', '24'];
/** Requests the server has answered when it is killed: well into the run, far from its end (~670). */
const KILL_AFTER_REQUESTS = 150;
/** Long enough that one retry cannot ride it out, so the breaker must pause the job. */
const OUTAGE_MS = 2_000;
const UNTHROTTLED_PER_MINUTE = 1_000_000_000;
/** A hung job is killed after this long, so the suite always ends; no test asserts how long a run takes. */
const HANG_GUARD_MS = 240_000;

let dir: string;
let input: string;
let keysFile: string;
let key: string;
/** A key limited to 30 requests a minute, made before the server starts so that it is certain to know it. */
let narrowKey: string;
let server: ServeProcess;
let local: { scored: string; rejects: string };

const remoteArgs = (apiUrl: string, apiKey: string, outDir: string, extra: readonly string[] = []) =>
  remoteScoreArgs({ input, outDir, apiUrl, apiKey, concurrency: 8 }, extra);

async function outputsOf(outDir: string) {
  return {
    scored: await readFile(join(outDir, 'households.scored.csv'), 'utf8'),
    rejects: await readFile(join(outDir, 'households.rejects.csv'), 'utf8'),
  };
}

/** POST requests the server has answered since it (re)started, from its /metrics (on the admin listener). */
async function requestsServed(adminUrl: string): Promise<number> {
  try {
    const text = await (await fetch(`${adminUrl}/metrics`)).text();
    return [...text.matchAll(/^outlay_http_requests_total\{[^}]*method="POST"[^}]*\} ([0-9]+)$/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
  } catch {
    return 0;
  }
}

/** Starts `outlay score` and SIGKILLs the server once it has answered enough requests; says whether the job was still running. */
async function killServerMidRun(args: readonly string[]) {
  const target = (await requestsServed(server.adminUrl)) + KILL_AFTER_REQUESTS;
  const child = spawnOutlay(args);
  const finished = outcomeOf(child, HANG_GUARD_MS);
  while ((await requestsServed(server.adminUrl)) < target && child.exitCode === null) await sleep(20);
  const runningAtKill = child.exitCode === null;
  await server.kill();
  return { finished, runningAtKill };
}

beforeAll(async () => {
  dir = await tempDir('remote-outage');
  keysFile = join(dir, 'keys.json');
  key = await createKeyWithCli(keysFile);
  narrowKey = await createKeyWithCli(keysFile, 'budgets,scores,models', ['--rate-limit', '30']);
  input = join(dir, 'households.csv');
  await writeSample(input, { rows: ROWS, badRows: BAD_ROWS, seed: 32 });
  const localOut = join(dir, 'local');
  // No worker thread: the local run is the reference, its threads are not the subject.
  let run: CliOutcome;
  [run, server] = await Promise.all([
    runOutlay(['score', input, '--out', localOut, '--engine', 'local', '--workers', '0', '--no-progress']),
    startServe({ keysFile, rateLimit: UNTHROTTLED_PER_MINUTE, logLevel: 'warn', accessLog: false }),
  ]);
  expect(run.code, run.stderr).toBe(3);
  local = await outputsOf(localOut);
}, HANG_GUARD_MS);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('outlay score --engine remote, server outages', () => {
  it(
    'server killed and restarted mid-run → the job pauses, logs the outage, resumes; scored and rejects files identical to a local run',
    async () => {
      const outDir = join(dir, 'restart');
      // One retry per request: the outage outlasts it, so rows survive only if the breaker pauses the job.
      const { finished, runningAtKill } = await killServerMidRun(
        remoteArgs(server.url, key, outDir, ['--retries', '1', ...SMALL_REQUESTS]),
      );
      await sleep(OUTAGE_MS);
      await server.restart();
      const outcome = await finished;

      expect(runningAtKill).toBe(true);
      expect(outcome.code, outcome.stderr).toBe(3);
      expect(outcome.stderr).toMatch(
        /remote server unreachable since \S+ \(.*ECONNREFUSED.*\).*retrying in \d+ ms/,
      );
      expect(outcome.stderr).toMatch(/remote server answers again/);
      expect(await outputsOf(outDir)).toEqual(local);
    },
    HANG_GUARD_MS,
  );

  it(
    'no server listening → refuses to start: exit 1, a message naming the health check, no published outputs',
    async () => {
      const outDir = join(dir, 'no-server');
      const nobody = `http://127.0.0.1:${await freePort()}`;
      // One retry: how often the check is tried does not change what a refusal looks like.
      const outcome = await runOutlay(remoteArgs(nobody, key, outDir, ['--retries', '1']), {
        timeoutMs: HANG_GUARD_MS,
      });

      expect(outcome.signal).toBeNull();
      expect(outcome.code, outcome.stderr).toBe(1);
      expect(outcome.stderr).toMatch(/does not answer its health check \(GET \/healthz: ECONNREFUSED/);
      expect(await finalFilesIn(outDir)).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    'server killed for longer than --max-outage with --resume → exit 1 naming the outage, nothing published, checkpoint kept; --resume after a restart gives the local files',
    async () => {
      const outDir = join(dir, 'long-outage');
      // Small batches, checkpointed as each is written: some are durable before the server dies.
      const args = remoteArgs(server.url, key, outDir, [
        '--retries',
        '1',
        '--resume',
        ...SMALL_REQUESTS,
        '--checkpoint-every',
        '1',
      ]);
      const { finished, runningAtKill } = await killServerMidRun([...args, '--max-outage', '1']);
      const failed = await finished;

      expect(runningAtKill).toBe(true);
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr).toMatch(/unreachable since .* longer than --max-outage 1 s/);
      expect(await finalFilesIn(outDir)).toEqual([]);
      expect(await readdir(outDir)).toContain('.households.checkpoint.json');

      await server.restart();
      const resumed = await runOutlay(args, { timeoutMs: HANG_GUARD_MS });
      expect(resumed.code, resumed.stderr).toBe(3);
      expect(await outputsOf(outDir)).toEqual(local);
    },
    HANG_GUARD_MS,
  );
});

describe('outlay score --engine remote, throttling', () => {
  it(
    'a key limited to 30 requests a minute → a warning naming the limit the server announced',
    async () => {
      // Many small requests, so that the job needs more than the key's 30 a minute.
      const child = spawnOutlay(remoteArgs(server.url, narrowKey, join(dir, 'throttled'), SMALL_REQUESTS));
      const finished = outcomeOf(child, HANG_GUARD_MS);
      let stderr = '';
      const warned = new Promise<void>((resolve) => {
        child.stderr?.on('data', (chunk: string) => {
          stderr += chunk;
          if (/throttling/.test(stderr)) resolve();
        });
      });
      // The rows beyond the quota wait for the next minute's window; the warning is what is under test.
      await Promise.race([warned, finished]);
      child.kill('SIGKILL');
      await finished;

      expect(stderr).toMatch(
        /remote server is throttling requests \(HTTP 429\): the server's limit for this key is 30 requests per 60 s/,
      );
    },
    HANG_GUARD_MS,
  );
});
