/**
 * Headers every answer carries, the request id, and the small input holes: a near-zero income, a score
 * key that objects inherit, JSON bodies labelled text/plain. Through Fastify's inject (no socket needed),
 * except where the logged client address is the subject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { createFakeEngine } from './fake-engine.js';
import { post, startTestServer, type TestServer } from './helpers.js';

const BUDGETS = '/v1.0/budgets/generate';
const REQUEST = { demographics: { zip: '12345', net_annual_income: 40_000 } };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ engine: createFakeEngine() });
});
afterAll(() => server.close());

describe('headers on every answer', () => {
  it.each([
    ['a 200 from an operation', 'POST', BUDGETS, true],
    ['a 403', 'POST', BUDGETS, false],
    ['a 404', 'GET', '/nope', false],
    ['liveness', 'GET', '/healthz', false],
  ] as const)('%s carries no-store, nosniff and a request id', async (_case, method, url, withKey) => {
    const answer = await server.app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', ...(withKey ? { 'x-api-key': server.keys.all } : {}) },
      payload: method === 'POST' ? REQUEST : undefined,
    });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  it('the docs page carries a Content-Security-Policy and frame protection', async () => {
    const answer = await server.app.inject({ method: 'GET', url: '/docs' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
    expect(answer.headers['x-frame-options']).toBe('DENY');
  });
});

describe('X-Request-Id', () => {
  it('when the caller sends a safe id, returns it and logs it with the client address', async () => {
    const answer = await post(server.url + BUDGETS, REQUEST, {
      'x-api-key': server.keys.all,
      'x-request-id': 'loan-file-4711.a',
    });
    expect(answer.headers.get('x-request-id')).toBe('loan-file-4711.a');
    const line = server.logs.records().find((record) => record.reqId === 'loan-file-4711.a');
    expect(line).toMatchObject({ msg: 'request', route: BUDGETS, status: 200, ip: '127.0.0.1' });
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with unsafe characters', 'id"}\n{"forged":1'],
  ])('when the caller sends an id %s, replaces it with a generated one', async (_case, given) => {
    const answer = await server.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': given },
    });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('small holes', () => {
  it.each([5e-324, 0.5])(
    'when net_annual_income is %s (under one dollar a year), answers 400 naming the field',
    async (income) => {
      const answer = await server.app.inject({
        method: 'POST',
        url: BUDGETS,
        headers: { 'content-type': 'application/json', 'x-api-key': server.keys.all },
        payload: { demographics: { zip: '12345', net_annual_income: income } },
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({
        message: 'Invalid request body',
        errors: [
          {
            path: '/demographics/net_annual_income',
            message: 'must be >= 1 (below a dollar a year every amount of a budget rounds to 0)',
          },
        ],
      });
    },
  );

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'when the score key is %s, creating the engine fails naming the key',
    async (scoreKey) => {
      await expect(loadEngine({ scoreKey })).rejects.toThrow(/invalid score key/);
    },
  );

  it('when text/plain JSON is accepted by configuration, a text/plain;charset=UTF-8 body is answered 200', async () => {
    const lenient = await startTestServer({
      engine: createFakeEngine(),
      config: { acceptTextPlainJson: true },
    });
    try {
      const answer = await post(lenient.url + BUDGETS, JSON.stringify(REQUEST), {
        'x-api-key': lenient.keys.all,
        'content-type': 'text/plain;charset=UTF-8',
      });
      expect(answer.status).toBe(200);
      const invalid = await post(lenient.url + BUDGETS, 'hello', {
        'x-api-key': lenient.keys.all,
        'content-type': 'text/plain',
      });
      expect(invalid.status).toBe(400);
    } finally {
      await lenient.close();
    }
  });
});
