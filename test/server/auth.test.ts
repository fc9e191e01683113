import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/keys/api-key.js';
import { buildServer } from '../../src/server/build-server.js';
import { DEFAULT_SERVER_CONFIG } from '../../src/server/config.js';
import { createFakeEngine } from './fake-engine.js';
import { captureLogs, type KeyName, post, startTestServer, type TestServer } from './helpers.js';

const PATHS = {
  budgets: '/v1.0/budgets/generate',
  scores: '/v1.0/scores/generate',
  models: '/v1.0/demographics/models/generate',
} as const;
const VALID = { demographics: { zip: '12345', net_annual_income: 50_000 } };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ engine: createFakeEngine() });
});
afterAll(() => server.close());

describe('buildServer route scopes', () => {
  it('when a route is added without config.scope, refuses to start', async () => {
    const app = buildServer({
      config: DEFAULT_SERVER_CONFIG,
      engine: createFakeEngine(),
      keyStore: server.keyStore,
      logger: captureLogs().logger,
    });
    await expect(async () => {
      app.get('/unscoped', () => 'reachable without a key');
      await app.ready();
    }).rejects.toThrow(/declares no scope/);
    await app.close();
  });
});

describe('POST endpoints authentication', () => {
  const rejectedKeys: [string, (s: TestServer) => Record<string, string>][] = [
    ['missing', () => ({})],
    ['empty', () => ({ 'x-api-key': '' })],
    ['malformed', () => ({ 'x-api-key': 'not-a-key' })],
    ['well formed but unknown', () => ({ 'x-api-key': generateApiKey() })],
    ['revoked', (s) => ({ 'x-api-key': s.keys.revoked })],
    ['expired', (s) => ({ 'x-api-key': s.keys.expired })],
  ];

  for (const [path, url] of Object.entries(PATHS)) {
    it.each(rejectedKeys)(`${path}: when the key is %s, answers 403 Forbidden`, async (_case, headers) => {
      const answer = await post(server.url + url, VALID, headers(server));
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ message: 'Forbidden' });
    });
  }

  const outOfScope: [keyof typeof PATHS, KeyName][] = [
    ['budgets', 'scoresOnly'],
    ['scores', 'budgetsOnly'],
    ['models', 'budgetsOnly'],
    ['budgets', 'modelsOnly'],
  ];
  it.each(outOfScope)('%s: when the key lacks that scope (%s), answers 403', async (path, keyName) => {
    const answer = await post(server.url + PATHS[path], VALID, { 'x-api-key': server.keys[keyName] });
    expect(answer.status).toBe(403);
  });

  it.each([
    ['malformed JSON', '{"demographics":'],
    ['an invalid body', { demographics: { zip: 12345 } }],
    ['an oversized body', JSON.stringify({ pad: 'x'.repeat(64 * 1024) })],
  ])(
    'when a bad key comes with %s, answers 403, not 400 or 413 (the key is checked first)',
    async (_case, body) => {
      const answer = await post(server.url + PATHS.budgets, body, { 'x-api-key': server.keys.scoresOnly });
      expect(answer.status).toBe(403);
    },
  );

  it('when the key carries each scope, the matching endpoint answers 200', async () => {
    for (const [path, keyName] of [
      ['budgets', 'budgetsOnly'],
      ['scores', 'scoresOnly'],
      ['models', 'modelsOnly'],
    ] as const) {
      expect(
        (await post(server.url + PATHS[path], VALID, { 'x-api-key': server.keys[keyName] })).status,
      ).toBe(200);
    }
  });
});

describe('access logs', () => {
  it('when requests were made with keys, log the key id and never a key', async () => {
    await post(server.url + PATHS.budgets, VALID, { 'x-api-key': server.keys.all });
    await post(server.url + PATHS.scores, VALID, { 'x-api-key': server.keys.budgetsOnly });
    const text = server.logs.lines.join('\n');
    for (const key of Object.values(server.keys)) expect(text).not.toContain(key.slice('outlay_'.length, -7));
    const line = server.logs.records().find((record) => record.keyId === server.keyIds.all);
    expect(line).toMatchObject({
      route: PATHS.budgets,
      method: 'POST',
      status: 200,
      keyId: server.keyIds.all,
    });
    expect(line).toHaveProperty('reqId');
    expect(typeof line?.ms).toBe('number');
    expect(text).not.toContain('"zip"');
    expect(text).not.toContain('net_annual_income');
  });

  it('when something logs request headers, the x-api-key header is redacted', () => {
    const { logger, logs } = captureLogs();
    logger.info({ req: { headers: { 'x-api-key': server.keys.all } } }, 'debugging');
    expect(logs.lines[0]).not.toContain(server.keys.all);
    expect(logs.lines[0]).toContain('[redacted]');
  });
});
