import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { AmountsAnswer } from '../../src/remote/amounts-answer.js';

/** Distinct amounts per category, with 0, one digit and many digits among them. */
const AMOUNTS = CATEGORIES.map((_, i) => (i === 0 ? 0 : i * 7919 ** (i % 4)));
const record = (amounts: readonly unknown[] = AMOUNTS) =>
  Object.fromEntries(CATEGORIES.map((category, i) => [category, amounts[i]]));
const bytes = (value: unknown, space?: number) => Buffer.from(JSON.stringify(value, null, space));

describe('AmountsAnswer', () => {
  it.each([
    ['the compact answer outlay serve writes', bytes({ budget: record() })],
    ['the same JSON with spaces', bytes({ budget: record() }, 2)],
    [
      'the categories in another order',
      bytes({ budget: Object.fromEntries(Object.entries(record()).reverse()) }),
    ],
  ])('budget answer, %s → the amounts in CATEGORIES order', (_case, body) => {
    expect([...new AmountsAnswer('budget').read(body)!]).toEqual(AMOUNTS);
  });

  it.each([
    ['a fraction', 12.5],
    ['an exponent', 1e21],
    ['16 digits', 1234567890123456],
    ['a negative amount', -3],
  ])('model answer with %s → read as JSON.parse reads it', (_case, amount) => {
    const amounts = [amount, ...AMOUNTS.slice(1)];
    expect([...new AmountsAnswer('model').read(bytes({ model: record(amounts) }))!]).toEqual(amounts);
  });

  it('a number with a leading zero (not JSON) → undefined', () => {
    const body = Buffer.from(bytes({ budget: record() }).toString().replace('"food_out":', '"food_out":0'));
    expect(new AmountsAnswer('budget').read(body)).toBeUndefined();
  });

  it.each([
    ['not JSON', Buffer.from('<html>busy</html>')],
    ['JSON null', Buffer.from('null')],
    ['the other field', bytes({ model: record() })],
    ['a category missing', bytes({ budget: { ...record(), pets: undefined } })],
    ['an amount as a string', bytes({ budget: { ...record(), pets: '12' } })],
    ['the compact answer cut short', bytes({ budget: record() }).subarray(0, 400)],
    [
      'the compact answer with bytes after it',
      Buffer.concat([bytes({ budget: record() }), Buffer.from('x')]),
    ],
  ])('budget answer that is %s → undefined', (_case, body) => {
    expect(new AmountsAnswer('budget').read(body)).toBeUndefined();
  });
});
