/**
 * The OpenAPI document is valid OpenAPI 3.1, and the responses the server actually sends (every status
 * of every operation) validate against the schemas it declares.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVALUATE_ROWS_MEDIA_TYPE } from '../../src/contract/evaluate.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { type Answer, post, read, startTestServer, type TestServer } from './helpers.js';

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> }>
  >;
  components: { responses: Record<string, { content?: Record<string, unknown> }> };
};

const REQUEST = {
  demographics: { zip: '10001', net_annual_income: 72_000, age: 35 },
  budget: { savings: 2_400 },
};

let server: TestServer;
let document: Document;
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  server = await startTestServer({ engine: await loadEngine() });
  document = (await read(await fetch(`${server.url}/openapi.json`))).body as Document;
  ajv.addSchema(document as object, 'openapi');
});
afterAll(() => server.close());

/** The JSON schema the document declares for this path, method and status. */
function declaredSchema(
  path: string,
  method: string,
  status: number,
  mediaType = 'application/json',
): object {
  let response = document.paths[path]?.[method]?.responses[String(status)];
  if (response?.$ref !== undefined) response = document.components.responses[response.$ref.split('/').pop()!];
  const content = response?.content?.[mediaType] as { schema: { $ref?: string } } | undefined;
  if (content === undefined)
    throw new Error(`no ${mediaType} response declared for ${method} ${path} ${status}`);
  const { $ref } = content.schema;
  return $ref === undefined ? content.schema : { $ref: `openapi${$ref}` };
}

function expectMatchesDocument(path: string, method: string, answer: Answer, mediaType?: string): void {
  const validate = ajv.compile(declaredSchema(path, method, answer.status, mediaType));
  expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
}

describe('GET /openapi.json', () => {
  it('when fetched, is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect((document as unknown as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('when read, documents the public endpoints as unauthenticated and the operations as keyed', () => {
    for (const path of ['/healthz', '/openapi.json', '/docs']) {
      expect(document.paths[path]?.get).toMatchObject({ security: [] });
    }
    for (const path of [
      '/v1.0/budgets/generate',
      '/v1.0/scores/generate',
      '/v1.0/demographics/models/generate',
    ]) {
      expect(document.paths[path]?.post).toMatchObject({ security: [{ apiKey: [] }] });
    }
    expect(document.paths['/v1.0/households/evaluate']?.post).toMatchObject({ security: [{ apiKey: [] }] });
    expect(document.paths['/v1.0/engine']?.get).toMatchObject({ security: [{ apiKey: [] }] });
  });
});

describe('responses against the document', () => {
  const operations = [
    '/v1.0/budgets/generate',
    '/v1.0/scores/generate',
    '/v1.0/demographics/models/generate',
  ];

  it.each(operations)('POST %s: 200, 400, 403 and 413 bodies match their declared schemas', async (path) => {
    const key = { 'x-api-key': server.keys.all };
    const answers = [
      await post(server.url + path, REQUEST, key),
      await post(server.url + path, { demographics: { zip: 1 } }, key),
      await post(server.url + path, '{', key),
      await post(server.url + path, REQUEST, {}),
      await post(server.url + path, JSON.stringify({ pad: 'x'.repeat(20_000) }), key),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 400, 403, 413]);
    for (const answer of answers) expectMatchesDocument(path, 'post', answer);
  });

  it('when a budget lacks a category, the declared plain 200 schema rejects it (the check is not vacuous)', () => {
    // The declared 200 answer is any of the plain budget and the aliased one (a transformer's labels are
    // the caller's, so any keys): the plain form is the one that names the 38 categories.
    expect(declaredSchema('/v1.0/budgets/generate', 'post', 200)).toEqual({
      $ref: 'openapi#/components/schemas/BudgetResponseAnswer',
    });
    const validate = ajv.compile({ $ref: 'openapi#/components/schemas/BudgetResponse' });
    expect(validate({ budget: { food_home: 1 } })).toBe(false);
    expect(validate({ budget: {}, extra: 1 })).toBe(false);
    expect(ajv.compile(declaredSchema('/v1.0/budgets/generate', 'post', 200))({ budget: {}, extra: 1 })).toBe(
      false,
    );
  });

  it('POST with a rate-limited key: the 429 body matches its declared schema', async () => {
    let answer: Answer;
    do
      answer = await post(`${server.url}/v1.0/budgets/generate`, REQUEST, {
        'x-api-key': server.keys.limited,
      });
    while (answer.status === 200);
    expect(answer.status).toBe(429);
    expectMatchesDocument('/v1.0/budgets/generate', 'post', answer);
  });

  it('POST /v1.0/households/evaluate: 200 (plain and explained), 400, 403 and 413 bodies match their declared schemas', async () => {
    const path = '/v1.0/households/evaluate';
    const key = { 'x-api-key': server.keys.all };
    const households = [REQUEST, { demographics: { zip: 1 } }];
    const answers = [
      await post(server.url + path, { households }, key),
      await post(`${server.url + path}?explain=true`, { households }, key),
      await post(server.url + path, { households: [] }, key),
      await post(server.url + path, { households }, {}),
      await post(server.url + path, JSON.stringify({ pad: 'x'.repeat(5_000_000) }), key),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 400, 403, 413]);
    for (const answer of answers) expectMatchesDocument(path, 'post', answer);
  });

  it.each([
    ['', 'plain'],
    ['?explain=true', 'explained'],
  ])(
    'POST /v1.0/households/evaluate%s accepting rows: the %s answer in rows matches its declared schema, with its content-type',
    async (query) => {
      const path = '/v1.0/households/evaluate';
      const households = [REQUEST, { demographics: { zip: 1 } }];
      const answer = await post(
        `${server.url + path}${query}`,
        { households },
        {
          'x-api-key': server.keys.all,
          accept: EVALUATE_ROWS_MEDIA_TYPE,
        },
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(`${EVALUATE_ROWS_MEDIA_TYPE}; charset=utf-8`);
      expectMatchesDocument(path, 'post', answer, EVALUATE_ROWS_MEDIA_TYPE);
    },
  );

  it('GET /v1.0/engine: the 200 and 403 bodies match their declared schemas', async () => {
    const answers = [
      await read(
        await fetch(`${server.url}/v1.0/engine`, { headers: { 'x-api-key': server.keys.scoresOnly } }),
      ),
      await read(await fetch(`${server.url}/v1.0/engine`)),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 403]);
    for (const answer of answers) expectMatchesDocument('/v1.0/engine', 'get', answer);
  });

  it('GET /healthz: the 200 body matches its declared schema', async () => {
    const answer = await read(await fetch(`${server.url}/healthz`));
    expect(answer.status).toBe(200);
    expectMatchesDocument('/healthz', 'get', answer);
  });

  it.each([...operations, '/v1.0/households/evaluate'])(
    'POST %s with the documented request example: answers 200',
    async (path) => {
      const operation = (document.paths[path]?.post ?? {}) as {
        requestBody?: { content: { 'application/json': { example: unknown } } };
      };
      const example = operation.requestBody?.content['application/json'].example;
      expect(example).toBeDefined();
      const answer = await post(server.url + path, example, { 'x-api-key': server.keys.all });
      expect(answer.status).toBe(200);
    },
  );
});
