/**
 * The fixed-shape check (the batch job's validation of its refilled request) against `checkRequest`, which
 * it stands in for: on bodies whose keys are exactly the shape's fields, the same request or the same
 * refusal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/contract/categories.js';
import { LIMITS } from '../../src/contract/limits.js';
import { checkRequest, FixedShapeRequests, type ShapeField } from '../../src/contract/validate.js';
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

/** Every body's outcome, as the batch job gets them: the values column by column, checked at once. */
function outcomes(shape: readonly ShapeField[], rows: readonly (readonly unknown[])[]) {
  const requests = new FixedShapeRequests(shape);
  const values = shape.map((_, f) => rows.map((row) => row[f]));
  const refused = new Uint8Array(rows.length);
  requests.refuse(values, rows.length, refused);
  // Each copied out of the reused body before the next row is asked for.
  return rows.map((_, row) =>
    refused[row] === 1 ? undefined : structuredClone(requests.request(values, row)),
  );
}

describe('FixedShapeRequests', () => {
  it('property: rows of a shape → the request checkRequest gives for each body, or refused where it refuses', () => {
    let accepted = 0;
    let bodies = 0;
    fc.assert(
      fc.property(shapeAndBodies, ([shape, rows]) => {
        // One check per shape, many bodies: the batch job's use.
        const got = outcomes(shape, rows);
        rows.forEach((values, row) => {
          const expected = checkRequest(bodyOf(shape, values));
          bodies++;
          if (expected !== undefined) accepted++;
          expect(got[row]).toEqual(expected);
        });
      }),
      { numRuns: 1_000 },
    );
    // Both outcomes must be well represented for the agreement to mean anything.
    expect(accepted / bodies).toBeGreaterThan(0.1);
    expect(accepted / bodies).toBeLessThan(0.9);
  });

  it('unit: a 5-digit ZIP → the reused body itself; ZIP+4 → a normalised copy, like checkRequest', () => {
    const requests = new FixedShapeRequests(fieldsOf('demographics', ['zip', 'net_annual_income']));
    const values = [
      ['35210', '35210-1234'],
      [41_004, 41_004],
    ];
    const refused = new Uint8Array(2);
    requests.refuse(values, 2, refused);
    expect([...refused]).toEqual([0, 0]);
    expect(requests.request(values, 0)).toBe(requests.body);
    expect(requests.request(values, 1)).toEqual({
      demographics: { zip: '35210', net_annual_income: 41_004 },
    });
    expect(requests.body.demographics.zip).toBe('35210-1234');
  });

  it('unit: a shape without a required field → every row refused', () => {
    const requests = new FixedShapeRequests(fieldsOf('demographics', ['zip', 'age']));
    const refused = new Uint8Array(2);
    requests.refuse(
      [
        ['35210', '10001'],
        [40, 50],
      ],
      2,
      refused,
    );
    expect([...refused]).toEqual([1, 1]);
  });

  it.each([
    ['a field the section does not have', fieldsOf('budget', ['age']), /budget has no field "age"/],
    ['a field listed twice', fieldsOf('demographics', ['zip', 'zip']), /listed twice/],
  ])('unit: built with %s → throws', (_, shape, message) => {
    expect(() => new FixedShapeRequests(shape)).toThrow(message);
  });
});
