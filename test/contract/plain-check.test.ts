/**
 * The plain check (the fast path of request validation) against the compiled TypeBox check it stands in
 * for: the same accept/reject on JSON-shaped bodies, and never an accept TypeBox would refuse.
 */
import fc from 'fast-check';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { LIMITS } from '../../src/contract/limits.js';
import { plainCheck } from '../../src/contract/plain-check.js';
import { OperationRequest } from '../../src/contract/schemas.js';
import { amount, demographicValues, mostly } from './arbitraries.js';

const typebox = Compile(OperationRequest);
const plain = plainCheck(OperationRequest);

const edgeNumbers = fc.constantFrom(
  Number.NaN,
  -0,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.MAX_VALUE,
  Number.MAX_SAFE_INTEGER + 2,
  LIMITS.amountMax,
  LIMITS.amountMax + 1,
  LIMITS.amountMax + 1e-8,
  LIMITS.ageMin - 0.5,
  LIMITS.ageMax + 1,
  LIMITS.householdMax + 1,
);

/** Anything a field might wrongly hold, including values that are valid for some fields. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -10, max: 200 }),
  fc.double(),
  edgeNumbers,
  fc.double({ min: 0, max: 1e6, noNaN: true }).map(String),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('12345', '12345-6789', '1234', '12345-678', '1234a', ' 12345', '12345\n', '١٢٣٤٥'),
  fc.constantFrom('married_couple', 'Married_couple', 'married couple', 'one_parent ', ''),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.constant({}),
  fc.record({ savings: fc.integer() }),
  fc.bigInt({ min: 0n, max: 100n }),
);

const mostlyValid = <T>(valid: fc.Arbitrary<T>) => mostly(valid, anyValue);
const unknownKeys = fc.dictionary(
  fc.constantFrom('color', 'toString', 'constructor', 'hasOwnProperty', 'Age', 'zip ', '', 'budgets'),
  anyValue,
  { maxKeys: 1 },
);
const withUnknownKeys = <T extends object>(known: fc.Arbitrary<T>) =>
  fc
    .tuple(known, fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: unknownKeys }))
    .map(([fields, extra]) => ({ ...fields, ...extra }));

const demographicFields = demographicValues(anyValue);
const demographics = withUnknownKeys(
  fc.oneof(
    { weight: 6, arbitrary: fc.record(demographicFields, { requiredKeys: ['zip', 'net_annual_income'] }) },
    // Required fields missing too.
    { weight: 1, arbitrary: fc.record(demographicFields, { requiredKeys: [] }) },
  ),
);

const budget = withUnknownKeys(
  fc.dictionary(fc.constantFrom(...CATEGORIES), mostlyValid(amount), { maxKeys: 8 }),
);

const body = fc.oneof(
  {
    weight: 12,
    arbitrary: withUnknownKeys(
      fc.record(
        { demographics: mostlyValid(demographics), budget: mostlyValid(budget) },
        { requiredKeys: [] },
      ),
    ),
  },
  { weight: 1, arbitrary: anyValue },
);

describe('plainCheck(OperationRequest)', () => {
  it('accepts and rejects generated bodies exactly as the compiled TypeBox check does', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(body, (value) => {
        runs++;
        if (typebox.Check(value)) accepted++;
        expect(plain(value)).toBe(typebox.Check(value));
      }),
      { numRuns: 3_000 },
    );
    // Both outcomes must be well represented for the agreement to mean anything.
    expect(accepted / runs).toBeGreaterThan(0.1);
    expect(accepted / runs).toBeLessThan(0.9);
  });

  it('agrees on the same bodies after a JSON round trip (what the API and CLI validate)', () => {
    fc.assert(
      fc.property(body, (value) => {
        const json = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v)) ?? 'null';
        const parsed: unknown = JSON.parse(json);
        expect(plain(parsed)).toBe(typebox.Check(parsed));
      }),
      { numRuns: 1_000 },
    );
  });

  const valid = { zip: '35210', net_annual_income: 41_004 };
  it.each([
    [
      'a "__proto__" key from JSON',
      JSON.parse('{"demographics":{"zip":"35210","net_annual_income":1},"__proto__":{}}'),
    ],
    ['a null-prototype body', Object.assign(Object.create(null), { demographics: valid })],
    [
      'a non-enumerable unknown key',
      Object.defineProperty({ demographics: valid }, 'color', { value: 'red' }),
    ],
    [
      'a class instance',
      new (class {
        demographics = valid;
      })(),
    ],
    ['an inherited optional field', { demographics: Object.assign(Object.create({ age: 'old' }), valid) }],
    ['an array', [valid]],
  ])('never accepts what TypeBox refuses: %s', (_, value) => {
    if (plain(value)) expect(typebox.Check(value)).toBe(true);
  });
});
