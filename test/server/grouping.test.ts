/**
 * SPENDiD's grouping over HTTP, against the real engine and a real server on a loopback port: the
 * examples of docs/api.md ("Grouping") and of the OpenAPI document answered as documented, each operation
 * with grouped inputs and a transformer, and the refusals with their paths.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { post, read, startTestServer, type TestServer } from './helpers.js';

const BUDGETS = '/v1.0/budgets/generate';
const SCORES = '/v1.0/scores/generate';
const MODELS = '/v1.0/demographics/models/generate';

/** The JSON code blocks of docs/api.md's "Grouping" section, in order. */
function groupingExamples(): unknown[] {
  const text = readFileSync(join(PACKAGE_ROOT, 'docs', 'api.md'), 'utf8');
  const section = text.slice(text.indexOf('\n### Grouping\n'), text.indexOf('\n### One-off commands\n'));
  return [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!));
}

const [GROUPED_REQUEST, TRANSFORMED_REQUEST, TRANSFORMED_ANSWER] = groupingExamples() as [
  { demographics: object; grouped_inputs: { items: string[]; value: number }[] },
  { transformer: Record<string, string> },
  { budget: Record<string, number> },
];
const { demographics } = GROUPED_REQUEST;

let server: TestServer;
let key: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer({ engine: await loadEngine() });
  key = { 'x-api-key': server.keys.all };
});
afterAll(() => server.close());

const answer = async (path: string, body: unknown) => {
  const reply = await post(server.url + path, body, key);
  expect(reply.status, reply.text).toBe(200);
  return reply;
};

describe('docs/api.md "Grouping" examples', () => {
  it('POST budgets with the grouped utilities: answers the documented shares, adding up to the total', async () => {
    const { budget } = (await answer(BUDGETS, GROUPED_REQUEST)).body as { budget: Record<string, number> };
    const [group] = GROUPED_REQUEST.grouped_inputs;
    // docs/api.md's documented shares of the shipped model.
    expect(group!.items.map((item) => budget[item])).toEqual([280, 1_617, 19, 15, 438]);
    expect(group!.items.reduce((sum, item) => sum + budget[item]!, 0)).toBe(group!.value);
    expect(Object.values(budget).reduce((sum, amount) => sum + amount, 0)).toBe(41_004);
  });

  it('POST budgets with the grouped utilities and the transformer: answers the documented body, byte for byte', async () => {
    const reply = await answer(BUDGETS, TRANSFORMED_REQUEST);
    expect(reply.text).toBe(JSON.stringify(TRANSFORMED_ANSWER));
  });
});

describe('each operation with grouping', () => {
  it('POST budgets with grouped inputs: answers what the shares stated in budget answer', async () => {
    const grouped = (await answer(BUDGETS, GROUPED_REQUEST)).body as { budget: Record<string, number> };
    const items = GROUPED_REQUEST.grouped_inputs[0]!.items;
    const stated = Object.fromEntries(items.map((item) => [item, grouped.budget[item]]));
    expect((await answer(BUDGETS, { demographics, budget: stated })).text).toBe(JSON.stringify(grouped));
  });

  it('POST scores with grouped inputs: scores the shares as stated; with a transformer: the same three values', async () => {
    const shares = ((await answer(BUDGETS, GROUPED_REQUEST)).body as { budget: Record<string, number> })
      .budget;
    const stated = Object.fromEntries(
      GROUPED_REQUEST.grouped_inputs[0]!.items.map((item) => [item, shares[item]]),
    );
    const grouped = await answer(SCORES, GROUPED_REQUEST);
    expect(grouped.text).toBe((await answer(SCORES, { demographics, budget: stated })).text);
    expect(grouped.text).not.toBe((await answer(SCORES, { demographics })).text);
    expect((await answer(SCORES, TRANSFORMED_REQUEST)).text).toBe(grouped.text);
  });

  it('POST models with the transformer: each alias is the sum of its categories in the plain model', async () => {
    const plain = ((await answer(MODELS, { demographics })).body as { model: Record<string, number> }).model;
    const aliased = ((await answer(MODELS, TRANSFORMED_REQUEST)).body as { model: Record<string, number> })
      .model;
    const sums: Record<string, number> = {};
    for (const c of CATEGORIES) {
      const alias = TRANSFORMED_REQUEST.transformer[c]!;
      sums[alias] = (sums[alias] ?? 0) + plain[c]!;
    }
    expect(aliased).toEqual(sums);
    expect(Object.keys(aliased)).toEqual(Object.keys(sums));
  });

  it('POST budgets with a category in a group and in budget: answers 400 naming the item', async () => {
    const reply = await post(
      server.url + BUDGETS,
      { ...GROUPED_REQUEST, budget: { electricity: 1_200 } },
      key,
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      message: 'Invalid request body',
      errors: [
        {
          path: '/grouped_inputs/0/items/1',
          message:
            '"electricity" is also stated in /budget/electricity: state a category either in budget or in one group',
        },
      ],
    });
  });

  it('POST models with a transformer missing a category: answers 400 naming it', async () => {
    const { savings: _savings, ...transformer } = TRANSFORMED_REQUEST.transformer;
    const reply = await post(server.url + MODELS, { demographics, transformer }, key);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      message: 'Invalid request body',
      errors: [{ path: '/transformer/savings', message: 'is required' }],
    });
  });
});

describe('the OpenAPI document', () => {
  let document: {
    components: { schemas: Record<string, { examples?: unknown[]; properties?: Record<string, unknown> }> };
    paths: Record<string, { post: { responses: { 200: { content: Record<string, { schema: object }> } } } }>;
  };
  const ajv = new Ajv2020({ strict: false });
  beforeAll(async () => {
    document = (await read(await fetch(`${server.url}/openapi.json`))).body as typeof document;
    ajv.addSchema(document, 'openapi');
  });

  it('when its grouping examples are sent to each operation: answers 200 with a body its 200 schema declares', async () => {
    const schemas = document.components.schemas;
    const request = {
      demographics,
      grouped_inputs: (schemas.OperationRequest!.properties!.grouped_inputs as { examples: unknown[] })
        .examples[0],
      transformer: schemas.Transformer!.examples![0],
    };
    expect(request.grouped_inputs).toEqual(GROUPED_REQUEST.grouped_inputs);
    for (const path of [BUDGETS, MODELS, SCORES]) {
      const reply = await answer(path, request);
      const declared = document.paths[path]!.post.responses[200].content['application/json']!.schema as {
        $ref: string;
      };
      const validate = ajv.compile({ $ref: `openapi${declared.$ref}` });
      expect(validate(reply.body), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});
