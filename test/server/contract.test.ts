/**
 * The service contract over HTTP, against the real engine and a real server on a loopback port: bodies
 * of each endpoint, the 400 catalogue with field paths, and 404/405/413/429/500 with their headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import type { Engine } from '../../src/engine/types.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { createFakeEngine } from './fake-engine.js';
import { post, read, startTestServer, type TestServer } from './helpers.js';

const BUDGETS = '/v1.0/budgets/generate';
const SCORES = '/v1.0/scores/generate';
const MODELS = '/v1.0/demographics/models/generate';

const REQUEST = {
  demographics: {
    age: 40,
    gross_annual_income: 60_000,
    household_members: 3,
    is_homeowner: true,
    net_annual_income: 50_000,
    zip: '60601-1234',
  },
  budget: { mortgage_and_rent: 14_400, savings: 3_000 },
};

let engine: Engine;
let server: TestServer;
let key: string;
beforeAll(async () => {
  engine = await loadEngine();
  server = await startTestServer({ engine });
  key = server.keys.all;
});
afterAll(() => server.close());

const accepted = <T>(result: { ok: true; value: T } | { ok: false }) => {
  if (!result.ok) throw new Error('engine rejected the test request');
  return result.value;
};

describe('POST /v1.0/budgets/generate', () => {
  it('when the body is valid, answers 200 {"budget": 38 whole amounts} exactly as the engine computes it', async () => {
    const answer = await post(server.url + BUDGETS, REQUEST, { 'x-api-key': key });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const body = answer.body as { budget: Record<string, number> };
    expect(Object.keys(body)).toEqual(['budget']);
    expect(Object.keys(body.budget).sort()).toEqual([...CATEGORIES].sort());
    for (const amount of Object.values(body.budget))
      expect(Number.isInteger(amount) && amount >= 0).toBe(true);
    expect(body.budget.mortgage_and_rent).toBe(14_400);
    expect(Object.values(body.budget).reduce((sum, amount) => sum + amount, 0)).toBe(50_000);
    expect(body).toEqual(accepted(engine.budget(REQUEST)));
  });
});

describe('POST /v1.0/scores/generate', () => {
  it('when the body is valid, answers 200 with the three score keys, each a string holding a number', async () => {
    const answer = await post(server.url + SCORES, REQUEST, { 'x-api-key': key });
    expect(answer.status).toBe(200);
    const body = answer.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['OUTLAY', 'Predicted Saving Ability', 'SAViNGS']);
    expect(body['Predicted Saving Ability']).toMatch(/^-?\d+$/);
    expect(body.OUTLAY).toMatch(/^\d{1,3}\.\d$/);
    expect(body.SAViNGS).toMatch(/^\d{1,3}\.\d$/);
    expect(body).toEqual(accepted(engine.score(REQUEST)));
  });
});

describe('POST /v1.0/demographics/models/generate', () => {
  it('when the body is valid, answers 200 {"model": 38 whole amounts}', async () => {
    const answer = await post(
      server.url + MODELS,
      { demographics: REQUEST.demographics },
      { 'x-api-key': key },
    );
    expect(answer.status).toBe(200);
    const body = answer.body as { model: Record<string, number> };
    expect(Object.keys(body)).toEqual(['model']);
    expect(Object.keys(body.model).sort()).toEqual([...CATEGORIES].sort());
    for (const amount of Object.values(body.model))
      expect(Number.isInteger(amount) && amount >= 0).toBe(true);
    expect(body).toEqual(accepted(engine.model({ demographics: REQUEST.demographics })));
  });
});

const demographics = (fields: Record<string, unknown>) => ({
  demographics: { ...REQUEST.demographics, ...fields },
});

/** [case, body (object = JSON; string = raw text), path that must be reported] */
const BAD_BODIES: [string, unknown, string][] = [
  ['an empty object', {}, '/demographics'],
  ['a ZIP sent as a number', demographics({ zip: 60601 }), '/demographics/zip'],
  ['a 4-digit ZIP', demographics({ zip: '6060' }), '/demographics/zip'],
  [
    'an income sent as a string',
    demographics({ net_annual_income: '50000' }),
    '/demographics/net_annual_income',
  ],
  ['a zero income', demographics({ net_annual_income: 0 }), '/demographics/net_annual_income'],
  ['an income over the bound', demographics({ net_annual_income: 1e12 }), '/demographics/net_annual_income'],
  ['no income', { demographics: { zip: '60601' } }, '/demographics/net_annual_income'],
  ['an age of 200', demographics({ age: 200 }), '/demographics/age'],
  ['a fractional age', demographics({ age: 40.5 }), '/demographics/age'],
  ['a household of 0', demographics({ household_members: 0 }), '/demographics/household_members'],
  ['is_homeowner as a string', demographics({ is_homeowner: 'yes' }), '/demographics/is_homeowner'],
  ['an unknown demographics field', demographics({ income: 1 }), '/demographics/income'],
  ['an unknown top-level field', { ...REQUEST, extra: true }, '/extra'],
  ['a negative fixed amount', { ...REQUEST, budget: { food_home: -1 } }, '/budget/food_home'],
  ['an unknown category', { ...REQUEST, budget: { yachts: 1 } }, '/budget/yachts'],
  ['an array', [], ''],
  ['null', 'null', ''],
  ['a string', '"hello"', ''],
  ['malformed JSON', '{"demographics": {', ''],
  ['truncated JSON', JSON.stringify(REQUEST).slice(0, -3), ''],
  ['a __proto__ key', '{"__proto__": {"polluted": true}, "demographics": {}}', ''],
  ['a constructor.prototype key', '{"constructor": {"prototype": {"polluted": true}}}', ''],
  ['an empty body', '', ''],
];

describe('400 Invalid request body', () => {
  it.each(BAD_BODIES.map(([name, body, path]) => ({ name, body, path })))(
    'when the body is $name, answers 400 naming path "$path"',
    async ({ body, path }) => {
      const answer = await post(server.url + BUDGETS, body, { 'x-api-key': key });
      expect(answer.status).toBe(400);
      const error = answer.body as { message: string; errors: { path: string; message: string }[] };
      expect(error.message).toBe('Invalid request body');
      expect(error.errors.length).toBeGreaterThan(0);
      expect(error.errors.map((item) => item.path)).toContain(path);
      for (const item of error.errors) expect(typeof item.message).toBe('string');
    },
  );

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['an unparsable content type', { 'content-type': '///' }],
  ])('when the content type is %s, answers 400 naming the content type', async (_case, headers) => {
    const answer = await post(server.url + SCORES, JSON.stringify(REQUEST), { 'x-api-key': key, ...headers });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: 'Invalid request body',
      errors: [{ path: '', message: 'content-type must be application/json' }],
    });
  });

  it('when the content type is missing, answers 400 (with or without a body)', async () => {
    for (const body of [JSON.stringify(REQUEST), undefined]) {
      const response = await fetch(server.url + MODELS, {
        method: 'POST',
        headers: { 'x-api-key': key },
        body,
      });
      const answer = await read(response);
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toBe('Invalid request body');
    }
  });

  it('when the content type is application/json with a charset, accepts the body', async () => {
    const answer = await post(server.url + SCORES, REQUEST, {
      'x-api-key': key,
      'content-type': 'application/json; charset=utf-8',
    });
    expect(answer.status).toBe(200);
  });
});

describe('other statuses', () => {
  it('when the path is unknown, answers 404 JSON whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const answer = await read(await fetch(`${server.url}/v1.0/nope`, { method }));
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: 'Not Found' });
    }
    expect((await read(await fetch(`${server.url}/%E0%A4%A`))).body).toEqual({ message: 'Not Found' });
  });

  it('when a known path is called with another method, answers 405 with an Allow header', async () => {
    const get = await read(await fetch(server.url + BUDGETS, { headers: { 'x-api-key': key } }));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.body).toEqual({ message: 'Method Not Allowed' });
    const postHealth = await read(await fetch(`${server.url}/healthz`, { method: 'POST' }));
    expect(postHealth.status).toBe(405);
    expect(postHealth.headers.get('allow')).toBe('GET, HEAD');
  });

  it('when the body is over 16 KiB, answers 413 JSON', async () => {
    const body = JSON.stringify({ ...REQUEST, padding: 'x'.repeat(16 * 1024) });
    const answer = await post(server.url + BUDGETS, body, { 'x-api-key': key });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: 'Request body too large' });
  });

  it('when a key goes over its rate limit, answers 429 with Retry-After and RateLimit headers', async () => {
    const limited = { 'x-api-key': server.keys.limited };
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(server.url + BUDGETS, REQUEST, limited));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]?.headers.get('ratelimit-policy')).toBe('"per-key";q=3;w=60');
    expect(answers[0]?.headers.get('ratelimit')).toMatch(/^"per-key";r=2;t=\d+$/);
    const rejected = answers[3]!;
    expect(rejected.body).toEqual({ message: 'Too many requests' });
    expect(Number(rejected.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(rejected.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/);
    // Another key keeps its own budget.
    expect((await post(server.url + BUDGETS, REQUEST, { 'x-api-key': key })).status).toBe(200);
  });
});

describe('500 Internal server error', () => {
  it('when the engine throws, answers a generic 500 and logs the details only', async () => {
    const failing = await startTestServer({
      engine: createFakeEngine({
        budget: () => {
          throw new Error('secret detail: model table corrupt');
        },
      }),
    });
    try {
      const answer = await post(failing.url + BUDGETS, REQUEST, { 'x-api-key': failing.keys.all });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ message: 'Internal server error' });
      expect(answer.text).not.toContain('secret');
      expect(failing.logs.lines.some((line) => line.includes('secret detail'))).toBe(true);
    } finally {
      await failing.close();
    }
  });
});
