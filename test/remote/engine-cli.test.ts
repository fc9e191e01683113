/**
 * `outlay score --engine remote` (bin/outlay.js) against `outlay serve` (both real processes, loopback):
 * the job learns the server's model version from GET /v1.0/engine on the API listener (with its key) and
 * records it in the summary; a key the server refuses there fails the job at once, publishing nothing.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { tempDir } from '../jobs/batch/score/helpers.js';
import {
  createKeyWithCli,
  remoteScoreArgs,
  runOutlay,
  writeSample,
} from '../reliability/support/outlay-cli.js';
import { type ServeProcess, startServe } from '../reliability/support/serve-process.js';

let dir: string;
let input: string;
let keysFile: string;
let key: string;
let server: ServeProcess;
let modelVersion: string;

beforeAll(async () => {
  dir = await tempDir('remote-engine-cli');
  keysFile = join(dir, 'keys.json');
  key = await createKeyWithCli(keysFile);
  input = join(dir, 'households.csv');
  await writeSample(input, { rows: 300, badRows: 5, seed: 34 });
  server = await startServe({ keysFile, rateLimit: 1_000_000, logLevel: 'warn', accessLog: false });
  // The admin listener's readiness (loopback only) states the version the server loaded.
  modelVersion = ((await (await fetch(`${server.adminUrl}/readyz`)).json()) as { modelVersion: string })
    .modelVersion;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const remoteArgs = (apiKey: string, outDir: string, file = input) =>
  remoteScoreArgs({ input: file, outDir, apiUrl: server.url, apiKey, concurrency: 4 });

const SAMPLE = join(PACKAGE_ROOT, 'sample-data', 'households.csv');

describe('outlay score --engine remote, the server’s engine', () => {
  it.each([
    ['a generated file with bad rows', () => input],
    ['the shipped sample', () => SAMPLE],
  ])(
    '%s, a key with the three scopes → the summary records the server’s model version, the rows go many per request (answered in rows), the files equal a local run’s byte for byte',
    async (name, file) => {
      const outDir = join(dir, `remote-${name.length}`);
      const localDir = join(dir, `local-${name.length}`);
      const [run, local] = await Promise.all([
        runOutlay(remoteArgs(key, outDir, file())),
        // No worker thread: the local run is the reference, its threads are not the subject.
        runOutlay([
          'score',
          file(),
          '--out',
          localDir,
          '--engine',
          'local',
          '--workers',
          '0',
          '--no-progress',
        ]),
      ]);
      const summary = JSON.parse(await readFile(join(outDir, 'households.summary.json'), 'utf8'));
      expect(summary.meta).toMatchObject({ model_version: modelVersion, engine: 'remote' });
      expect(modelVersion).not.toMatch(/unknown/);
      expect(run.stderr).toContain('many rows per request');
      expect(run.stderr).toContain('remote: evaluate answers in rows');
      expect([0, 3], local.stderr).toContain(local.code);
      expect(run.code, run.stderr).toBe(local.code);
      for (const output of ['households.scored.csv', 'households.rejects.csv'])
        expect(await readFile(join(outDir, output), 'utf8')).toBe(
          await readFile(join(localDir, output), 'utf8'),
        );
    },
    300_000,
  );

  it('GET /v1.0/engine without a key or with a malformed one → 403, nothing about the engine', async () => {
    for (const headers of [{}, { 'x-api-key': 'outlay_notakey' }] as Record<string, string>[]) {
      const answer = await fetch(`${server.url}/v1.0/engine`, { headers });
      expect(answer.status).toBe(403);
      expect(await answer.text()).toBe('{"message":"Forbidden"}');
    }
  });

  it.each([
    ['a key the server does not know', async () => 'outlay_H4I2Wywxq6x1Hy6z3Olc22_2RdbOE'],
    ['a key without the scores and models scopes', () => createKeyWithCli(keysFile, 'budgets')],
  ])(
    '%s → exit 1 naming the refused key, no published outputs',
    async (_case, makeKey) => {
      const outDir = join(dir, `refused-${_case.length}`);
      const run = await runOutlay(remoteArgs(await makeKey(), outDir));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/refused the API key \(HTTP 403: Forbidden\)/);
      const published = await readdir(outDir).catch(() => []);
      expect(published.filter((name) => !name.startsWith('.'))).toEqual([]);
    },
    300_000,
  );
});
