/**
 * Remote mode against Outlay's own server on loopback (fake-model engine), directly (many rows per evaluate
 * request) and through proxies: one that hides GET /v1.0/engine as an older server would (three calls per
 * row), one that injects faults, one that bends answers off the contract. Files equal local mode's, faults
 * are retried without losing a row, answers off the contract reject their rows, 403 stops the job.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScoreJob, type ScoreJobOptions } from '../../jobs/batch/score/job.js';
import { InProcessScorer } from '../../jobs/batch/score/local-scorer.js';
import { RemoteScorer } from '../../jobs/batch/score/remote-scorer.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { RemoteClient } from '../../src/remote/client.js';
import { fakeGeo, fakeModel, fakeReference } from '../engine/fakes.js';
import { householdsCsv, runCli, scoreJobOptions, tempDir } from '../jobs/batch/score/helpers.js';
import { remoteScoreArgs } from '../reliability/support/outlay-cli.js';
import { startTestServer, type TestServer } from '../server/helpers.js';

const engine = createEngine({ model: fakeModel(), geo: fakeGeo, reference: fakeReference('fake-1') });
let server: TestServer;
let dir: string;
let input: string;
/**
 * Rows of the file the off-contract scenarios score, each in three ways (one of them three calls a row):
 * every row is rejected whatever their number, so two of the contract's own rejects among them are enough.
 */
const OFF_CONTRACT_ROWS = 74;
let offContractInput: string;

beforeAll(async () => {
  server = await startTestServer({ engine, config: { rateLimit: 10_000_000 } });
  dir = await tempDir('remote');
  input = join(dir, 'households.csv');
  await writeFile(input, householdsCsv(300, { badEvery: 37 }));
  offContractInput = join(dir, 'off-contract', 'households.csv');
  await mkdir(join(offContractInput, '..'));
  await writeFile(offContractInput, householdsCsv(OFF_CONTRACT_ROWS, { badEvery: 37 }));
});
afterAll(async () => {
  await server.close();
});

const options = (outDir: string, startScorer: ScoreJobOptions['startScorer'], file = input) =>
  scoreJobOptions(file, outDir, startScorer);

const remote =
  (url: string, key: string, timeoutMs = 2_000) =>
  async (layout: Parameters<ScoreJobOptions['startScorer']>[0]) => {
    const client = new RemoteClient({
      baseUrl: url,
      apiKey: key,
      concurrency: 8,
      timeoutMs,
      retry: { retries: 8, baseDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 50 },
    });
    return new RemoteScorer(client, fakeGeo, layout, await client.describeEngine(), 64, 8);
  };

async function files(outDir: string) {
  return {
    scored: await readFile(join(outDir, 'households.scored.csv'), 'utf8'),
    rejects: await readFile(join(outDir, 'households.rejects.csv'), 'utf8'),
  };
}

interface Proxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Forwards every request to `target`, except those `intercept` answers itself (it returns true), and
 * passes each upstream answer's body through `rewrite`.
 */
async function proxyTo(
  target: string,
  intercept: (n: number, incoming: IncomingMessage, outgoing: ServerResponse) => boolean,
  rewrite: (path: string, body: Buffer) => Buffer = (_path, body) => body,
  { jsonOnly = false } = {},
): Promise<Proxy> {
  let count = 0;
  const proxy: Server = createServer((incoming, outgoing) => {
    if (intercept(++count, incoming, outgoing)) return;
    // Without the caller's Accept, the server answers JSON, as one that offers no rows would.
    const { accept: _accept, ...withoutAccept } = incoming.headers;
    const upstream = request(
      new URL(incoming.url!, target),
      { method: incoming.method, headers: jsonOnly ? withoutAccept : incoming.headers },
      async (response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        const body = rewrite(incoming.url!, Buffer.concat(chunks));
        const { 'transfer-encoding': _chunked, ...headers } = response.headers;
        outgoing.writeHead(response.statusCode!, { ...headers, 'content-length': body.length });
        outgoing.end(body);
      },
    );
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

/** Forwards to the server, but answers every `every`-th request with a fault instead (cycling through kinds). */
async function faultyProxy(
  target: string,
  every: number,
  older = false,
): Promise<Proxy & { faults: Record<string, number> }> {
  const faults: Record<string, number> = { '503': 0, '429': 0, slow: 0, reset: 0 };
  const kinds = Object.keys(faults);
  const proxy = await proxyTo(target, (n, incoming, outgoing) => {
    if (older && hidesEngine(n, incoming, outgoing)) return true;
    if (n % every !== 0 || incoming.method !== 'POST') return false;
    const kind = kinds[(n / every) % kinds.length]!;
    faults[kind]!++;
    if (kind === '503') outgoing.writeHead(503).end('{"message":"unavailable"}');
    else if (kind === '429') outgoing.writeHead(429, { 'retry-after': '0' }).end('{"message":"slow down"}');
    else if (kind === 'reset') incoming.socket.destroy();
    else setTimeout(() => outgoing.writeHead(503).end(), 500);
    return true;
  });
  return { ...proxy, faults };
}

/** Answers GET /v1.0/engine with 404, as a server without it (an older one) would. */
function hidesEngine(_n: number, incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  if (incoming.url !== '/v1.0/engine') return false;
  outgoing.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
  return true;
}

type Bent = Record<string, unknown>;

/**
 * Sets `key` of the `field` record to `value` in every answer: per-row answers, each household's in a JSON
 * evaluate answer, or the column `budget.food_home` (`model.…`, the score's key) in an answer in rows.
 */
const bendAnswers = (field: 'budget' | 'model' | 'score', key: string, value: unknown) => {
  const bendRecord = (record: Bent) => ({ ...record, [key]: value });
  const bendOne = (answer: Bent) =>
    field === 'score'
      ? 'SAViNGS' in answer
        ? bendRecord(answer)
        : answer
      : field in answer
        ? { [field]: bendRecord(answer[field] as Bent) }
        : answer;
  return (_path: string, body: Buffer) => {
    const answer = JSON.parse(body.toString());
    if (Array.isArray(answer.columns)) {
      const column = answer.columns.indexOf(field === 'score' ? key : `${field}.${key}`);
      const households = answer.households.map((item: unknown) =>
        Array.isArray(item) ? item.with(column, value) : item,
      );
      return Buffer.from(JSON.stringify({ ...answer, households }));
    }
    if (!Array.isArray(answer.households)) return Buffer.from(JSON.stringify(bendOne(answer)));
    const households = answer.households.map((item: Bent) =>
      'errors' in item ? item : { ...item, [field]: bendRecord(item[field] as Bent) },
    );
    return Buffer.from(JSON.stringify({ households }));
  };
};

const MODES = [
  ['many rows per evaluate request, answered in rows', { older: false, jsonOnly: false }],
  ['many rows per evaluate request, a server answering JSON', { older: false, jsonOnly: true }],
  ['an older server, three calls per row', { older: true, jsonOnly: false }],
] as const;

describe('remote mode', () => {
  it('scenario: remote against the real server on loopback → scored and rejects files identical to local mode', async () => {
    await runScoreJob(options(join(dir, 'local'), async (layout) => new InProcessScorer(engine, layout)));
    const result = await runScoreJob(options(join(dir, 'remote'), remote(server.url, server.keys.all)));
    expect(await files(join(dir, 'remote'))).toEqual(await files(join(dir, 'local')));
    expect(result.rowsIn).toBe(300);
    expect(result.modelVersion).toBe(engine.modelVersion);
  });

  it('scenario: a server without GET /v1.0/engine → three calls per row, same files, the model version says why it is unknown', async () => {
    const proxy = await proxyTo(server.url, hidesEngine);
    let result: Awaited<ReturnType<typeof runScoreJob>>;
    try {
      result = await runScoreJob(options(join(dir, 'older'), remote(proxy.url, server.keys.all)));
    } finally {
      await proxy.close();
    }
    expect(await files(join(dir, 'older'))).toEqual(await files(join(dir, 'local')));
    expect(result.modelVersion).toBe('unknown (remote: it has no GET /v1.0/engine (HTTP 404))');
  });

  it('scenario: a server answering evaluate in JSON only → same files as local mode', async () => {
    const proxy = await proxyTo(server.url, () => false, undefined, { jsonOnly: true });
    try {
      await runScoreJob(options(join(dir, 'json-only'), remote(proxy.url, server.keys.all)));
    } finally {
      await proxy.close();
    }
    expect(await files(join(dir, 'json-only'))).toEqual(await files(join(dir, 'local')));
  });

  it.each(MODES.filter(([, { jsonOnly }]) => !jsonOnly))(
    'scenario: %s; 503s, 429s with Retry-After, timeouts and connection resets → retried, no row lost, same files',
    async (mode, { older }) => {
      const proxy = await faultyProxy(server.url, older ? 9 : 3, older);
      const outDir = join(dir, `faulty-${mode}`);
      try {
        await runScoreJob(options(outDir, remote(proxy.url, server.keys.all, 200)));
      } finally {
        await proxy.close();
      }
      expect(Object.values(proxy.faults).every((count) => count > 0)).toBe(true);
      expect(await files(outDir)).toEqual(await files(join(dir, 'local')));
    },
  );

  it('scenario: a key the server refuses (403) → the job stops with a clear message and no output files', async () => {
    await expect(
      runScoreJob(options(join(dir, 'forbidden'), remote(server.url, server.keys.revoked))),
    ).rejects.toThrow(/refused the API key \(HTTP 403/);
  });

  it.each([
    ['budget', 'a fraction', 1234.56, /\/budget[/.]food_home must be integer \(is 1234\.56\)/],
    ['model', 'a negative amount', -5, /\/model[/.]food_home must be >= 0 \(is -5\)/],
    ['score', 'a score in hundredths', '91.25', /\/OUTLAY must match pattern/],
  ] as const)(
    'scenario: a server whose %s answers carry %s → every such row rejected naming the field, none scored, every way',
    async (field, _case, value, problem) => {
      const key = field === 'score' ? 'OUTLAY' : 'food_home';
      for (const [mode, { older, jsonOnly }] of MODES) {
        const proxy = await proxyTo(
          server.url,
          older ? hidesEngine : () => false,
          bendAnswers(field, key, value),
          { jsonOnly },
        );
        const outDir = join(dir, `off-contract-${field}-${older}-${jsonOnly}`);
        try {
          await runScoreJob(options(outDir, remote(proxy.url, server.keys.all), offContractInput));
        } finally {
          await proxy.close();
        }
        const { scored, rejects } = await files(outDir);
        expect(scored.trim().split('\n'), mode).toHaveLength(1); // the header only
        // The rows the contract refuses are rejected before any call; every other row by its answer.
        const reasons = (parse(rejects, { columns: true }) as { reject_reason: string }[]).map(
          (record) => record.reject_reason,
        );
        expect(reasons).toHaveLength(OFF_CONTRACT_ROWS);
        // Per row `/budget/food_home …`; in an evaluate answer `/households/7/budget/food_home …`, in
        // rows `/households/7/budget.food_home …`.
        const offContract = reasons.filter(
          (reason) => reason.includes('off the contract') && problem.test(reason),
        );
        expect(
          offContract.length,
          `${mode}: ${reasons.find((reason) => reason.includes('remote'))}`,
        ).toBeGreaterThan(0);
        expect(reasons.filter((reason) => !reason.includes('remote'))).toHaveLength(
          OFF_CONTRACT_ROWS - offContract.length,
        );
      }
    },
  );
});

/**
 * Bends some households of each evaluate answer (in rows or JSON): an amount of 1e12, an index of 99999,
 * both within the schema's types but outside the bounds every answer keeps, and a text where an amount
 * belongs (malformed). Counts the households it bent.
 */
function bendSomeHouseholds() {
  const bent = { count: 0 };
  const bendJson = (item: Bent, i: number): Bent => {
    const score = item.score as Bent & { details: Bent };
    if (i % 5 === 0) return { ...item, budget: { ...(item.budget as Bent), food_home: 1e12 } };
    if (i % 5 === 1) return { ...item, score: { ...score, details: { ...score.details, index: 99999 } } };
    return { ...item, model: { ...(item.model as Bent), food_home: 'x' } };
  };
  const rewrite = (path: string, body: Buffer) => {
    if (!path.startsWith('/v1.0/households/evaluate')) return body;
    const answer = JSON.parse(body.toString());
    const columns: string[] | undefined = answer.columns;
    const households = answer.households.map((item: Bent | unknown[], i: number) => {
      if ('errors' in item || i % 5 > 2) return item;
      bent.count++;
      if (!Array.isArray(item)) return bendJson(item, i);
      const [column, value] =
        i % 5 === 0
          ? ['budget.food_home', 1e12]
          : i % 5 === 1
            ? ['details.index', 99999]
            : ['model.food_home', 'x'];
      return item.with(columns!.indexOf(column), value);
    });
    return Buffer.from(JSON.stringify({ ...answer, households }));
  };
  return { bent, rewrite };
}

describe('remote mode: answers outside the bounds (CLI)', () => {
  it.each([
    ['answered in rows', false],
    ['answered in JSON', true],
  ])(
    'scenario: out-of-bound and malformed answers among good ones, %s → only their rows rejected, the rest scored',
    async (_mode, jsonOnly) => {
      const { bent, rewrite } = bendSomeHouseholds();
      const proxy = await proxyTo(server.url, () => false, rewrite, { jsonOnly });
      const outDir = join(dir, `cli-bounds-${jsonOnly}`);
      let run: Awaited<ReturnType<typeof runCli>>;
      try {
        run = await runCli([
          ...remoteScoreArgs({ input, outDir, apiUrl: proxy.url, apiKey: server.keys.all, concurrency: 2 }),
          '--log-level',
          'warn',
          // Three households in five are bent: above the default reject limit, which is not the subject.
          '--max-reject-rate',
          '1',
        ]);
      } finally {
        await proxy.close();
      }
      expect(run.code, run.stderr).toBe(3);
      const { scored, rejects } = await files(outDir);
      const rejected = parse(rejects, { columns: true }) as { id: string; reject_reason: string }[];
      const offContract = rejected.filter((record) => record.reject_reason.includes('off the contract'));
      expect(bent.count).toBeGreaterThan(0);
      expect(offContract).toHaveLength(bent.count);
      for (const problem of [
        /food_home must be <= 100000000 \(is 1000000000000\)/,
        /index must be <= 780 \(is 99999\)/,
        /model[/.]food_home must be integer \(is "x"\)/,
      ])
        expect(
          offContract.some((record) => problem.test(record.reject_reason)),
          String(problem),
        ).toBe(true);
      const scoredIds = new Set((parse(scored, { columns: true }) as { id: string }[]).map((row) => row.id));
      expect(scoredIds.size + rejected.length).toBe(300);
      for (const record of offContract) expect(scoredIds.has(record.id)).toBe(false);
    },
  );
});
