/**
 * Explained scores over HTTP (`POST /v1.0/scores/generate?explain=true`), against the real engine and a
 * real server: the details, lender mode, the benchmark basis, and the plain answer left as it was.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { EXPLAINED_REQUEST_EXAMPLE } from '../../src/server/openapi.js';
import { postJson, useShippedServer } from './shipped-server.js';

const SCORES = '/v1.0/scores/generate';

/** The README's Birmingham renter, stating $100 a year of food at home. */
const REQUEST = {
  demographics: { zip: '35210', net_annual_income: 41_004, age: 25, is_homeowner: false },
  budget: { food_home: 100 },
};

const shipped = useShippedServer();
const score = (body: unknown, query = '') => postJson(shipped.current.server, SCORES, body, query);

describe('POST /v1.0/scores/generate?explain=true', () => {
  it('answers the three values and details with index, percentile, reasons and the food flag', async () => {
    const plain = await score(REQUEST);
    const explained = await score(REQUEST, '?explain=true');
    expect(explained.status).toBe(200);
    const { details, ...values } = explained.body;
    expect(values).toEqual(plain.body);
    expect(details).toMatchObject({ basis: 'stated', profile: 'standard', geo_level: 'zip' });
    expect(details.model_version).toBe(shipped.current.engine.modelVersion);
    // Shipped model: PSA 481, index 80 + 100 × 5,772 / 41,004 = 94.1; the score clamps it to 0–100.
    expect(details.index).toBe(94.1);
    expect(Number(plain.body.OUTLAY)).toBe(Math.min(details.index, 100));
    expect(details.percentile).toBeGreaterThanOrEqual(0);
    expect(details.percentile).toBeLessThanOrEqual(100);
    expect(Array.isArray(details.reasons)).toBe(true);
    expect(details.flags.map((flag: { category: string }) => flag.category)).toEqual(['food_home']);
    expect(details.lending).toBeUndefined();
  });

  it('with a loan: details.lending, and a larger payment lowers its index and surplus', async () => {
    const lendingAt = async (payment: number) =>
      (await score({ ...REQUEST, loan: { monthly_payment: payment } }, '?explain=true')).body.details.lending;
    const small = await lendingAt(200);
    const large = await lendingAt(900);
    expect(small).toMatchObject({ stressed_payment: 250 });
    expect(large.surplus).toBeLessThan(small.surplus);
    expect(large.index).toBeLessThan(small.index);
    expect(large.reasons.map((r: { code: string }) => r.code)).toContain('LOAN_PAYMENT');
  });

  it('options.basis benchmark: the three values on the benchmark basis, with and without details', async () => {
    const body = { ...REQUEST, options: { basis: 'benchmark' } };
    const plain = await score(body);
    const explained = await score(body, '?explain=true');
    // $100 of food is below its benchmark, USDA Thrifty for one ($4,004; peers' mean $3,137, median
    // $2,839): as no stated food, 228 a month less (4,004.43 − 3,137) / 12 = 72: 156.
    expect(plain.body['Predicted Saving Ability']).toBe('156');
    expect(explained.body.details).toMatchObject({ basis: 'benchmark', psa: 156 });
  });

  it('explain=false or absent, with or without the default basis: the plain answer, byte for byte', async () => {
    const plain = await score(REQUEST);
    expect(Object.keys(plain.body)).toEqual(['Predicted Saving Ability', 'OUTLAY', 'SAViNGS']);
    for (const [body, query] of [
      [REQUEST, '?explain=false'],
      [{ ...REQUEST, options: { basis: 'stated' } }, ''],
    ] as const)
      expect((await score(body, query)).text).toBe(plain.text);
  });

  it('a loan without explain: the plain answer, then LENDiNG, the lending index of details.lending', async () => {
    const plain = await score(REQUEST);
    const body = { ...REQUEST, loan: { monthly_payment: 500 } };
    const lending = await score(body);
    expect(lending.text).toBe(`${plain.text.slice(0, -1)},"LENDiNG":"${lending.body.LENDiNG}"}`);
    const explained = await score(body, '?explain=true');
    expect(Number(lending.body.LENDiNG)).toBe(explained.body.details.lending.index);
  });

  it('explain=yes: 400 naming the query parameter', async () => {
    const answer = await score(REQUEST, '?explain=yes');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toMatch(/explain must be "true" or "false"/);
  });

  it('a bad loan: 400 naming /loan/monthly_payment', async () => {
    const answer = await score({ ...REQUEST, loan: { monthly_payment: -1 } }, '?explain=true');
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { path: string }) => e.path)).toContain('/loan/monthly_payment');
  });

  it('the documented example with ?explain=true: an answer matching the declared 200 schema', async () => {
    const document = (await shipped.current.server.app.inject({ url: '/openapi.json' })).json();
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(document, 'openapi');
    const validate = ajv.compile({ $ref: 'openapi#/components/schemas/ScoreResponseAnswer' });
    const explained = await score(EXPLAINED_REQUEST_EXAMPLE, '?explain=true');
    expect(validate(explained.body), JSON.stringify(validate.errors)).toBe(true);
    expect(explained.body.details.lending).toBeDefined();
    expect(validate((await score(EXPLAINED_REQUEST_EXAMPLE)).body)).toBe(true);
    const parameters = document.paths[SCORES].post.parameters;
    expect(parameters.map((p: { name: string }) => p.name)).toEqual(['explain']);
  });
});
