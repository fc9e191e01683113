/**
 * The 400 error list names every problem of a body, up to MAX_LISTED_ERRORS, then says how many more there
 * are: against validateRequest, and over HTTP against the real server and engine (through inject).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { MAX_LISTED_ERRORS, validateRequest } from '../../src/contract/validate.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { startTestServer, type TestServer } from '../server/helpers.js';

const demographics = { zip: '35210', net_annual_income: 41_004 };

const unknownFields = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`extra_${i}`, i]));
const unknownFieldErrors = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    path: `/demographics/extra_${i}`,
    message: 'is not an allowed field',
  }));

/** The first `count` categories each given a negative amount. */
const negativeAmounts = (count: number) =>
  Object.fromEntries(CATEGORIES.slice(0, count).map((category) => [category, -1]));
const negativeAmountErrors = (count: number) =>
  CATEGORIES.slice(0, count).map((category) => ({ path: `/budget/${category}`, message: 'must be >= 0' }));

const errorsOf = (body: unknown) => {
  const result = validateRequest(body);
  if (result.ok) throw new Error('the body was accepted');
  return result.error.errors;
};

describe('validateRequest error list', () => {
  it.each([1, 8, 9, 40])('unit: %i unknown fields → each named, nothing else', (count) => {
    expect(errorsOf({ demographics: { ...demographics, ...unknownFields(count) } })).toEqual(
      unknownFieldErrors(count),
    );
  });

  it.each([8, 10, 36])('unit: %i negative amounts → each named, nothing else', (count) => {
    expect(errorsOf({ demographics, budget: negativeAmounts(count) })).toEqual(negativeAmountErrors(count));
  });

  it('unit: unknown fields, bad amounts and a missing ZIP together → all of them', () => {
    const errors = errorsOf({
      demographics: { net_annual_income: 1, ...unknownFields(9) },
      budget: negativeAmounts(10),
    });
    expect(errors).toHaveLength(1 + 9 + 10);
    expect(errors).toContainEqual({ path: '/demographics/zip', message: 'is required' });
    expect(errors).toEqual(expect.arrayContaining([...unknownFieldErrors(9), ...negativeAmountErrors(10)]));
  });

  it(`unit: more than ${MAX_LISTED_ERRORS} problems → the first ${MAX_LISTED_ERRORS}, then one item at path "" counting the rest`, () => {
    const errors = errorsOf({ demographics: { ...demographics, ...unknownFields(MAX_LISTED_ERRORS + 12) } });
    expect(errors).toEqual([
      ...unknownFieldErrors(MAX_LISTED_ERRORS),
      { path: '', message: 'and 12 more problems, not listed' },
    ]);
  });

  it(`unit: exactly one problem past ${MAX_LISTED_ERRORS} → "1 more problem"`, () => {
    const errors = errorsOf({ demographics: { ...demographics, ...unknownFields(MAX_LISTED_ERRORS + 1) } });
    expect(errors.at(-1)).toEqual({ path: '', message: 'and 1 more problem, not listed' });
  });

  it('unit: a body with 2,000 unknown fields → still the first ones named (the list is bounded)', () => {
    const errors = errorsOf({ demographics: { ...demographics, ...unknownFields(2_000) } });
    expect(errors.slice(0, 3)).toEqual(unknownFieldErrors(3));
    expect(errors.at(-1)).toEqual({
      path: '',
      message: `and ${2_000 - MAX_LISTED_ERRORS} more problems, not listed`,
    });
  });
});

describe('POST /v1.0/budgets/generate error list (real server and engine)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine: await loadEngine() });
  });
  afterAll(() => server.close());

  const postBody = async (body: unknown) => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1.0/budgets/generate',
      headers: { 'content-type': 'application/json', 'x-api-key': server.keys.all },
      payload: JSON.stringify(body),
    });
    return { status: response.statusCode, body: response.json() };
  };

  it('contract: a body with nine unknown fields → 400 listing the nine fields', async () => {
    const answer = await postBody({ demographics: { ...demographics, ...unknownFields(9) } });
    expect(answer).toEqual({
      status: 400,
      body: { message: 'Invalid request body', errors: unknownFieldErrors(9) },
    });
  });

  it('contract: a body with ten negative amounts → 400 listing the ten amounts', async () => {
    const answer = await postBody({ demographics, budget: negativeAmounts(10) });
    expect(answer).toEqual({
      status: 400,
      body: { message: 'Invalid request body', errors: negativeAmountErrors(10) },
    });
  });
});
