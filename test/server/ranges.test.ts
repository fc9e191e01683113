/**
 * Model ranges over HTTP (`POST /v1.0/demographics/models/generate?ranges=true`), against the real engine
 * and a real server: the ranges and peers, the documented schema and example, the plain answer unchanged.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, SPENDING_CATEGORY_COUNT } from '../../src/contract/categories.js';
import { REQUEST_EXAMPLE } from '../../src/server/openapi.js';
import { postJson, useShippedServer } from './shipped-server.js';

const MODELS = '/v1.0/demographics/models/generate';

const shipped = useShippedServer();
const model = (body: unknown, query = '') => postJson(shipped.current.server, MODELS, body, query);

describe('POST /v1.0/demographics/models/generate?ranges=true', () => {
  it('answers the plain model, p25 ≤ p50 ≤ p75 for each of the 36 spending categories, and peers', async () => {
    const plain = await model(REQUEST_EXAMPLE);
    const ranged = await model(REQUEST_EXAMPLE, '?ranges=true');
    expect(ranged.status).toBe(200);
    expect(Object.keys(ranged.body)).toEqual(['model', 'ranges', 'peers']);
    expect(ranged.body.model).toEqual(plain.body.model);
    expect(Object.keys(ranged.body.ranges)).toEqual(CATEGORIES.slice(0, SPENDING_CATEGORY_COUNT));
    for (const { p25, p50, p75 } of Object.values(ranged.body.ranges) as {
      p25: number;
      p50: number;
      p75: number;
    }[]) {
      expect(0 <= p25 && p25 <= p50 && p50 <= p75).toBe(true);
    }
    expect(ranged.body.ranges.food_home.p25).toBeGreaterThan(0);
    expect(ranged.body.peers).toBeGreaterThan(100);
    expect(ranged.body).toEqual(
      (shipped.current.engine.modelRanges(REQUEST_EXAMPLE) as { value: object }).value,
    );
  });

  it('ranges=false or absent: the plain answer, byte for byte', async () => {
    const plain = await model(REQUEST_EXAMPLE);
    expect(Object.keys(plain.body)).toEqual(['model']);
    expect((await model(REQUEST_EXAMPLE, '?ranges=false')).text).toBe(plain.text);
    expect(plain.text).toBe(
      JSON.stringify((shipped.current.engine.model(REQUEST_EXAMPLE) as { value: object }).value),
    );
  });

  it('ranges=yes: 400 naming the query parameter', async () => {
    const answer = await model(REQUEST_EXAMPLE, '?ranges=yes');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toMatch(/ranges must be "true" or "false"/);
  });

  it('an invalid body with ranges=true: 400 naming the field', async () => {
    const answer = await model({ demographics: { zip: '35210' } }, '?ranges=true');
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { path: string }) => e.path)).toContain(
      '/demographics/net_annual_income',
    );
  });

  it('the documented example with ?ranges=true: an answer matching the declared 200 schema', async () => {
    const document = (await shipped.current.server.app.inject({ url: '/openapi.json' })).json();
    const operation = document.paths[MODELS].post;
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(['ranges']);
    const example = operation.requestBody.content['application/json'].example;
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(document, 'openapi');
    const validate = ajv.compile({ $ref: 'openapi#/components/schemas/ModelResponseAnswer' });
    const ranged = await model(example, '?ranges=true');
    expect(validate(ranged.body), JSON.stringify(validate.errors)).toBe(true);
    expect(ranged.body.peers).toBeDefined();
    expect(validate((await model(example)).body)).toBe(true);
  });
});
