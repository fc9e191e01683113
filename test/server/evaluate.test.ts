/**
 * GET /v1.0/engine and POST /v1.0/households/evaluate against the real engine on a loopback server: the
 * engine's description for any valid key and for no other, and per household exactly the bodies the three
 * operations give, invalid households answered in place without failing the others.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import {
  EVALUATE_ROWS_MEDIA_TYPE,
  evaluateRowsAnswerSchema,
  MAX_EVALUATE_HOUSEHOLDS,
  rowColumns,
} from '../../src/contract/evaluate.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { Compile } from '../../src/vendor/typebox.js';
import { type Answer, type KeyName, post, read, startTestServer, type TestServer } from './helpers.js';

const HOUSEHOLDS = [
  {
    demographics: { zip: '35210', net_annual_income: 42_000, age: 41, household_members: 3 },
    budget: { mortgage_and_rent: 15_000, savings: 3_000 },
  },
  { demographics: { zip: 35210, net_annual_income: '42000', age: 12 }, extra: 1 },
  {
    demographics: { zip: '10001-1234', net_annual_income: 72_000, is_homeowner: true },
    loan: { monthly_payment: 250 },
    options: { basis: 'benchmark' },
  },
];

let server: TestServer;
let modelVersion: string;

beforeAll(async () => {
  const engine = await loadEngine();
  modelVersion = engine.modelVersion;
  server = await startTestServer({ engine, config: { rateLimit: 1_000_000 } });
});
afterAll(() => server.close());

const engineInfo = async (headers: Record<string, string>) =>
  read(await fetch(`${server.url}/v1.0/engine`, { headers }));
const evaluate = (body: unknown, key = server.keys.all, query = '', headers: Record<string, string> = {}) =>
  post(`${server.url}/v1.0/households/evaluate${query}`, body, { 'x-api-key': key, ...headers });
const inRows = { accept: `${EVALUATE_ROWS_MEDIA_TYPE}, application/json;q=0.5` };
const operation = (path: string, body: unknown) =>
  post(`${server.url}${path}`, body, { 'x-api-key': server.keys.all });

/** The text of `answer`'s property `name`, as it stands in the body's bytes. */
const partText = (answer: Answer, index: number, name: string) =>
  JSON.stringify((answer.body as { households: Record<string, unknown>[] }).households[index]![name]);

describe('GET /v1.0/engine', () => {
  it('any valid key, whatever its scopes → 200 with the model version, price year, score key and the evaluate offer', async () => {
    for (const key of [server.keys.all, server.keys.budgetsOnly, server.keys.modelsOnly]) {
      const answer = await engineInfo({ 'x-api-key': key });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        model_version: modelVersion,
        price_year: expect.any(Number),
        score_key: 'OUTLAY',
        evaluate: { path: '/v1.0/households/evaluate', max_households: MAX_EVALUATE_HOUSEHOLDS },
      });
      expect(answer.headers.get('ratelimit-policy')).toContain('q=');
    }
  });

  it("docs/api.md's example → the answer a valid key gets, value for value", async () => {
    const text = readFileSync(join(PACKAGE_ROOT, 'docs', 'api.md'), 'utf8');
    const section = text.slice(text.indexOf('\n### The engine\n'));
    const documented = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!);
    expect((await engineInfo({ 'x-api-key': server.keys.all })).body).toEqual(documented);
  });

  it.each([
    ['no key', {}],
    ['a malformed key', { 'x-api-key': 'outlay_nope' }],
    ['a revoked key', 'revoked'],
    ['an expired key', 'expired'],
  ] as const)('%s → 403 Forbidden, nothing about the engine', async (_case, headers) => {
    const answer = await engineInfo(
      typeof headers === 'string' ? { 'x-api-key': server.keys[headers as KeyName] } : headers,
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: 'Forbidden' });
  });
});

describe('POST /v1.0/households/evaluate', () => {
  it("valid and invalid households → 200; each valid one gets the three operations' bodies byte for byte, the invalid one its 400 body at /households/1", async () => {
    const answer = await evaluate({ households: HOUSEHOLDS });
    expect(answer.status).toBe(200);
    for (const index of [0, 2]) {
      const body = HOUSEHOLDS[index];
      const budget = await operation('/v1.0/budgets/generate', body);
      const model = await operation('/v1.0/demographics/models/generate', body);
      const score = await operation('/v1.0/scores/generate', body);
      expect(`{"budget":${partText(answer, index, 'budget')}}`).toBe(budget.text);
      expect(`{"model":${partText(answer, index, 'model')}}`).toBe(model.text);
      expect(partText(answer, index, 'score')).toBe(score.text);
    }
    const single = await operation('/v1.0/scores/generate', HOUSEHOLDS[1]);
    const { errors } = single.body as { errors: { path: string; message: string }[] };
    expect((answer.body as { households: unknown[] }).households[1]).toEqual({
      message: 'Invalid request body',
      errors: errors.map(({ path, message }) => ({ path: `/households/1${path}`, message })),
    });
    expect(errors.length).toBeGreaterThan(2);
  });

  it("?explain=true → each score is the scores operation's explained answer, details included", async () => {
    const answer = await evaluate(
      { households: [HOUSEHOLDS[0], HOUSEHOLDS[2]] },
      server.keys.all,
      '?explain=true',
    );
    expect(answer.status).toBe(200);
    for (const [index, body] of [HOUSEHOLDS[0], HOUSEHOLDS[2]].entries()) {
      const explained = await operation('/v1.0/scores/generate?explain=true', body);
      expect(partText(answer, index, 'score')).toBe(explained.text);
    }
    expect(partText(answer, 1, 'score')).toContain('"lending"');
  });

  it.each([
    ['', false],
    ['?explain=true', true],
  ] as const)(
    "Accept: the rows media type, query '%s' → 200 in rows: each valid household the JSON answer's values in the columns' order, the invalid one its 400 body",
    async (query, explained) => {
      const rows = await evaluate({ households: HOUSEHOLDS }, server.keys.all, query, inRows);
      const json = await evaluate({ households: HOUSEHOLDS }, server.keys.all, query);
      expect(rows.status).toBe(200);
      expect(rows.headers.get('content-type')).toBe(`${EVALUATE_ROWS_MEDIA_TYPE}; charset=utf-8`);
      const columns = rowColumns('OUTLAY', explained);
      expect(Compile(evaluateRowsAnswerSchema(columns)).Check(rows.body)).toBe(true);
      const answer = rows.body as { columns: string[]; households: unknown[] };
      expect(answer.columns).toEqual(columns.map(([name]) => name));
      const households = (json.body as { households: Record<string, Record<string, unknown>>[] }).households;
      for (const index of [0, 2]) {
        const { budget, model, score } = households[index]!;
        const details = score!.details as Record<string, unknown> | undefined;
        const codes = (items: unknown) =>
          (items as { code: string; category?: string | null }[])
            .map(({ code, category }) => (category == null ? code : `${code}:${category}`))
            .join(';');
        const expected = [
          ...CATEGORIES.map((category) => budget![category]),
          ...CATEGORIES.map((category) => model![category]),
          score!['Predicted Saving Ability'],
          score!.OUTLAY,
          score!.SAViNGS,
          ...(details === undefined
            ? []
            : [
                details.basis,
                details.profile,
                details.index,
                details.savings_index,
                details.percentile,
                codes(details.reasons),
                codes(details.flags),
              ]),
        ];
        expect(answer.households[index]).toEqual(expected);
      }
      expect(answer.households[1]).toEqual(households[1]);
      if (explained) expect(answer.households[2]).toContain('benchmark');
    },
  );

  it('Accept: application/json or none → the JSON answer, byte for byte the same', async () => {
    const plain = await evaluate({ households: HOUSEHOLDS }, server.keys.all, '?explain=true');
    const asked = await evaluate({ households: HOUSEHOLDS }, server.keys.all, '?explain=true', {
      accept: 'application/json',
    });
    expect(plain.text).toMatch(/^\{"households":\[\{"budget":\{/);
    expect(asked.text).toBe(plain.text);
  });

  it.each([
    ['a key without the models scope', 'budgetsOnly'],
    ['a scores-only key', 'scoresOnly'],
    ['a revoked key', 'revoked'],
  ] as const)('%s → 403 Forbidden', async (_case, key) => {
    const answer = await evaluate({ households: [HOUSEHOLDS[0]] }, server.keys[key]);
    expect(answer.status).toBe(403);
  });

  it('no key → 403, the body never read', async () => {
    const answer = await post(`${server.url}/v1.0/households/evaluate`, { households: [HOUSEHOLDS[0]] });
    expect(answer.status).toBe(403);
  });

  it.each([
    [
      'an empty list',
      { households: [] },
      [{ path: '/households', message: 'must list at least one household' }],
    ],
    [
      `more than ${MAX_EVALUATE_HOUSEHOLDS} households`,
      { households: Array.from({ length: MAX_EVALUATE_HOUSEHOLDS + 1 }, () => HOUSEHOLDS[0]) },
      [
        {
          path: '/households',
          message: `must have at most ${MAX_EVALUATE_HOUSEHOLDS} households (send the rest in further requests)`,
        },
      ],
    ],
    [
      'no list',
      { household: [] },
      [
        { path: '/households', message: 'is required' },
        { path: '/household', message: 'is not an allowed field' },
      ],
    ],
    ['a list that is not one', { households: 'all' }, [{ path: '/households', message: 'must be array' }]],
    ['a bare list', [HOUSEHOLDS[0]], [{ path: '', message: 'must be an object with a `households` list' }]],
  ])('%s → 400 naming the field', async (_case, body, errors) => {
    const answer = await evaluate(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: 'Invalid request body', errors: expect.arrayContaining(errors) });
    expect((answer.body as { errors: unknown[] }).errors).toHaveLength(errors.length);
  });

  it('?explain=maybe → 400 naming the query parameter', async () => {
    const answer = await evaluate({ households: [HOUSEHOLDS[0]] }, server.keys.all, '?explain=maybe');
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('the query parameter explain must be \\"true\\" or \\"false\\"');
  });

  it('a body over 4 MiB → 413; the limit of the three operations is unchanged (16 KiB)', async () => {
    const big = await evaluate(
      JSON.stringify({ households: [HOUSEHOLDS[0]], pad: 'x'.repeat(4 * 1024 * 1024) }),
    );
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ message: 'Request body too large' });
    const listOf1000 = { households: Array.from({ length: MAX_EVALUATE_HOUSEHOLDS }, () => HOUSEHOLDS[0]) };
    expect(JSON.stringify(listOf1000).length).toBeGreaterThan(16 * 1024);
    expect((await evaluate(listOf1000)).status).toBe(200);
    expect(
      (await operation('/v1.0/scores/generate', JSON.stringify({ pad: 'x'.repeat(20_000) }))).status,
    ).toBe(413);
  });
});
