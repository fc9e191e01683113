/**
 * Answers and requests as HTTP clients and gateways expect them, against the real server (shipped engine)
 * on loopback: every JSON answer says it is JSON, a key given twice in a body is refused rather than read
 * last-wins, and a compressed body is refused as unsupported rather than as invalid JSON.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { post } from './helpers.js';
import { useShippedServer } from './shipped-server.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const HOUSEHOLD = { demographics: { zip: '35210', net_annual_income: 42_000 } };

/** A transformer (grouping's aliases): every category named in capitals. */
const EVERY_ALIAS = Object.fromEntries(CATEGORIES.map((category) => [category, category.toUpperCase()]));

const shipped = useShippedServer();
const send = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  post(`${shipped.current.server.url}${path}`, body, {
    'x-api-key': shipped.current.server.keys.all,
    ...headers,
  });

describe('the content-type of JSON answers', () => {
  it.each([
    ['/v1.0/budgets/generate', HOUSEHOLD],
    ['/v1.0/scores/generate', HOUSEHOLD],
    ['/v1.0/scores/generate?explain=true', HOUSEHOLD],
    ['/v1.0/demographics/models/generate', HOUSEHOLD],
    ['/v1.0/demographics/models/generate?ranges=true', HOUSEHOLD],
    ['/v1.0/budgets/generate', { ...HOUSEHOLD, transformer: EVERY_ALIAS }],
    ['/v1.0/households/evaluate', { households: [HOUSEHOLD] }],
    ['/v1.0/households/evaluate?explain=true', { households: [HOUSEHOLD] }],
  ])('POST %s answers 200 with content-type application/json; charset=utf-8', async (path, body) => {
    const answer = await send(path, body);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(JSON_TYPE);
  });
});

describe('a key given twice in a JSON body', () => {
  it('answers 400 naming the repeated key, whichever value comes last', async () => {
    const body = '{"demographics": {"zip": "35210", "net_annual_income": -5, "net_annual_income": 42000}}';
    const answer = await send('/v1.0/scores/generate', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: 'Invalid request body',
      errors: [{ path: '/demographics/net_annual_income', message: 'is given more than once' }],
    });
  });

  it('names a repeated key inside a list of households, spelt with an escape', async () => {
    const body = `{"households": [${JSON.stringify(HOUSEHOLD)}, {"demographics": {"zip": "1", "\\u007aip": "2"}}]}`;
    const answer = await send('/v1.0/households/evaluate', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errors: [{ path: '/households/1/demographics/zip' }] });
  });

  it('accepts one key in several objects, and a key name inside a string value', async () => {
    const households = [HOUSEHOLD, { demographics: { zip: '35210', net_annual_income: 42_000, age: 30 } }];
    expect((await send('/v1.0/households/evaluate', { households })).status).toBe(200);
    const quoted = { demographics: { zip: '35"210,"zip":"', net_annual_income: 42_000 } };
    const answer = await send('/v1.0/budgets/generate', quoted);
    expect(answer.body).toMatchObject({
      errors: [{ path: '/demographics/zip', message: expect.not.stringContaining('more than once') }],
    });
  });
});

describe('a compressed body', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'with content-encoding %s answers 415 naming the encoding',
    async (encoding) => {
      const response = await fetch(`${shipped.current.server.url}/v1.0/scores/generate`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-encoding': encoding,
          'x-api-key': shipped.current.server.keys.all,
        },
        body: gzipSync(JSON.stringify(HOUSEHOLD)),
      });
      expect(response.status).toBe(415);
      expect(response.headers.get('content-type')).toBe(JSON_TYPE);
      expect(await response.json()).toEqual({
        message: 'Unsupported Media Type',
        errors: [
          { path: '', message: `content-encoding ${encoding} is not supported: send the body uncompressed` },
        ],
      });
    },
  );

  it('without a valid key answers 403, as every keyed route does before reading a body', async () => {
    const response = await fetch(`${shipped.current.server.url}/v1.0/scores/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(HOUSEHOLD)),
    });
    expect(response.status).toBe(403);
  });
});
