/**
 * The fixed-shape check (the batch job's validation of its refilled request) against `checkRequest`, which
 * it stands in for: on bodies whose keys are exactly the shape's fields, the same request or the same
 * refusal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { LIMITS } from '../../src/contract/limits.js';
import { checkRequest, fixedShapeCheck, type ShapeField } from '../../src/contract/validate.js';
import { amount, demographicValues, mostly } from './arbitraries.js';

/** Wrong values of every kind a batch cell can become (numbers, booleans, text), and some valid ones. */
const anyCell: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -10, max: 200 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, LIMITS.amountMax, LIMITS.amountMax + 1, LIMITS.ageMin - 0.5, LIMITS.householdMax + 1),
  fc.string({ maxLength: 6 }),
  fc.constantFrom('12345', '12345-6789', '1234', '1234a', 'married_couple', 'one parent'),
  fc.boolean(),
);
const DEMOGRAPHIC_VALUES: Record<string, fc.Arbitrary<unknown>> = demographicValues(anyCell);
const fieldsOf = (section: ShapeField['section'], names: readonly string[]) =>
  names.map((name): ShapeField => ({ section, name }));
/** Every field, the two required ones first. */
const ALL_FIELDS = [
  ...fieldsOf('demographics', Object.keys(DEMOGRAPHIC_VALUES)),
  ...fieldsOf('budget', CATEGORIES),
];

/** A shape (usually with both required fields first), and bodies of it: every field present, often undefined. */
const shapeAndBodies = fc
  .tuple(
    fc.subarray(ALL_FIELDS, { minLength: 1 }),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(ALL_FIELDS.slice(0, 2)) },
      { weight: 1, arbitrary: fc.constant([]) },
    ),
  )
  .map(([some, required]) => [...new Set([...required, ...some])])
  .chain((shape) =>
    fc.tuple(
      fc.constant(shape),
      fc.array(
        fc.tuple(
          ...shape.map(({ section, name }, i) => {
            const value = section === 'demographics' ? DEMOGRAPHIC_VALUES[name]! : mostly(amount, anyCell);
            // A required field's cell is seldom empty (`undefined`), an optional one's often.
            return fc.option(value, { nil: undefined, freq: i < 2 ? 20 : 3 });
          }),
        ),
        { minLength: 1, maxLength: 20 },
      ),
    ),
  );

function bodyOf(shape: readonly ShapeField[], values: readonly unknown[]) {
  const demographics: Record<string, unknown> = {};
  const budget: Record<string, unknown> = {};
  shape.forEach(({ section, name }, i) => {
    (section === 'demographics' ? demographics : budget)[name] = values[i];
  });
  return shape.some(({ section }) => section === 'budget') ? { demographics, budget } : { demographics };
}

describe('fixedShapeCheck', () => {
  it('gives the request checkRequest gives, or refuses what it refuses, on bodies of the shape', () => {
    let accepted = 0;
    let bodies = 0;
    fc.assert(
      fc.property(shapeAndBodies, ([shape, rows]) => {
        // One check per shape, many bodies: the batch job's use.
        const check = fixedShapeCheck(shape);
        for (const values of rows) {
          const body = bodyOf(shape, values);
          const expected = checkRequest(body);
          bodies++;
          if (expected !== undefined) accepted++;
          expect(check(body)).toEqual(expected);
        }
      }),
      { numRuns: 1_000 },
    );
    // Both outcomes must be well represented for the agreement to mean anything.
    expect(accepted / bodies).toBeGreaterThan(0.1);
    expect(accepted / bodies).toBeLessThan(0.9);
  });

  it('returns the body itself for a 5-digit ZIP and a normalised copy for ZIP+4, like checkRequest', () => {
    const check = fixedShapeCheck(fieldsOf('demographics', ['zip', 'net_annual_income']));
    const plain = { demographics: { zip: '35210', net_annual_income: 41_004 } };
    expect(check(plain)).toBe(plain);
    const plus4 = { demographics: { zip: '35210-1234', net_annual_income: 41_004 } };
    expect(check(plus4)).toEqual(plain);
    expect(plus4.demographics.zip).toBe('35210-1234');
  });

  it('refuses every body of a shape without a required field', () => {
    const check = fixedShapeCheck(fieldsOf('demographics', ['zip', 'age']));
    expect(check({ demographics: { zip: '35210', age: 40 } })).toBeUndefined();
  });

  it.each([
    ['a field the section does not have', fieldsOf('budget', ['age']), /budget has no field "age"/],
    ['a field listed twice', fieldsOf('demographics', ['zip', 'zip']), /listed twice/],
  ])('throws when built with %s', (_, shape, message) => {
    expect(() => fixedShapeCheck(shape)).toThrow(message);
  });
});
