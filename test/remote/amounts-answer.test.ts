/** AmountsAnswer against the contract's response schema: amounts exactly when the schema accepts them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { BudgetResponse } from '../../src/contract/schemas.js';
import { AmountsAnswer } from '../../src/remote/amounts-answer.js';
import { OffContractAnswer } from '../../src/remote/checked-answer.js';
import { Compile } from '../../src/vendor/typebox.js';

/** Distinct amounts per category, with 0, one digit and many digits among them. */
const AMOUNTS = CATEGORIES.map((_, i) => (i === 0 ? 0 : i * 7919 ** (i % 4)));
const record = (amounts: readonly unknown[] = AMOUNTS) =>
  Object.fromEntries(CATEGORIES.map((category, i) => [category, amounts[i]]));
const bytes = (value: unknown, space?: number) => Buffer.from(JSON.stringify(value, null, space));

const amountsOf = (answer: ReturnType<AmountsAnswer['read']>) => {
  if (!(answer instanceof Float64Array)) throw new Error(`not read as amounts: ${JSON.stringify(answer)}`);
  return [...answer];
};

describe('AmountsAnswer', () => {
  it.each([
    ['the compact answer outlay serve writes', bytes({ budget: record() })],
    ['the same JSON with spaces', bytes({ budget: record() }, 2)],
    [
      'the categories in another order',
      bytes({ budget: Object.fromEntries(Object.entries(record()).reverse()) }),
    ],
  ])('unit: budget answer, %s → the amounts in CATEGORIES order', (_case, body) => {
    expect(amountsOf(new AmountsAnswer('budget').read(body))).toEqual(AMOUNTS);
  });

  it.each([
    ['16 digits', 1234567890123456],
    ['an exponent', 1e21],
  ])('unit: model answer with a whole amount of %s → read as JSON.parse reads it', (_case, amount) => {
    const amounts = [amount, ...AMOUNTS.slice(1)];
    expect(amountsOf(new AmountsAnswer('model').read(bytes({ model: record(amounts) })))).toEqual(amounts);
  });

  it.each([
    ['a fraction', 1234.56, '/model/food_home must be integer (is 1234.56)'],
    ['a negative amount', -5, '/model/food_home must be >= 0 (is -5)'],
    ['an amount as a string', '12', '/model/food_home must be integer (is "12")'],
  ])(
    'unit: model answer with %s → off the contract, naming the field and value',
    (_case, amount, problem) => {
      const answer = new AmountsAnswer('model').read(bytes({ model: record([amount, ...AMOUNTS.slice(1)]) }));
      expect(answer).toBeInstanceOf(OffContractAnswer);
      expect((answer as OffContractAnswer).problems).toContain(problem);
    },
  );

  it.each([
    [
      'a category missing',
      bytes({ budget: { ...record(), pets: undefined } }),
      /^\/budget must have required properties pets/,
    ],
    ['the other field', bytes({ model: record() }), /^\(the answer\) must have required properties budget/],
    ['the budget as an array', bytes({ budget: [] }), /^\/budget must be object/],
  ])('unit: budget answer with %s → off the contract', (_case, body, problem) => {
    const answer = new AmountsAnswer('budget').read(body);
    expect(answer).toBeInstanceOf(OffContractAnswer);
    expect((answer as OffContractAnswer).problems[0]).toMatch(problem);
  });

  it.each([
    ['not JSON', Buffer.from('<html>busy</html>')],
    ['JSON null', Buffer.from('null')],
    [
      'a number with a leading zero (not JSON)',
      Buffer.from(bytes({ budget: record() }).toString().replace('"food_out":', '"food_out":0')),
    ],
    ['the compact answer cut short', bytes({ budget: record() }).subarray(0, 400)],
    [
      'the compact answer with bytes after it',
      Buffer.concat([bytes({ budget: record() }), Buffer.from('x')]),
    ],
  ])('unit: budget answer that is %s → not an answer (undefined)', (_case, body) => {
    expect(new AmountsAnswer('budget').read(body)).toBeUndefined();
  });

  it('property: any budget answer → read as amounts exactly when the schema accepts it, with its values', () => {
    const schema = Compile(BudgetResponse);
    const wholeAmounts = fc.array(
      fc.oneof(fc.nat(), fc.constantFrom(999_999_999_999_999, 1_000_000_000_000_000, 2 ** 53, 1e21)),
      { minLength: CATEGORIES.length, maxLength: CATEGORIES.length },
    );
    const wrongAmount = fc.oneof(
      fc.integer({ min: -1_000, max: -1 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom('12', null, true, 1234.56),
    );
    // Half the answers valid; the others with one amount wrong (or a fraction that happens to be whole).
    const answers = fc.tuple(wholeAmounts, fc.option(fc.tuple(fc.nat(CATEGORIES.length - 1), wrongAmount)));
    const reader = new AmountsAnswer('budget');
    fc.assert(
      fc.property(answers, fc.boolean(), ([amounts, wrong], spaced) => {
        if (wrong !== null) amounts[wrong[0]] = wrong[1] as number;
        const body = bytes({ budget: record(amounts) }, spaced ? 1 : undefined);
        const answer = JSON.parse(body.toString()); // as the server sent it: -0 is sent as 0
        const read = reader.read(body);
        if (schema.Check(answer)) expect(amountsOf(read)).toEqual(Object.values(answer.budget));
        else expect(read).toBeInstanceOf(OffContractAnswer);
      }),
      { numRuns: 2_000 },
    );
  });
});
