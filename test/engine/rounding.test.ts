import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatScore, roundHalfAwayFromZero, roundNonNegative } from '../../src/engine/rounding.js';

/** The largest double below x > 0. */
function doubleBelow(x: number): number {
  const bits = new BigUint64Array(new Float64Array([x]).buffer);
  bits[0]! -= 1n;
  return new Float64Array(bits.buffer)[0]!;
}

/**
 * Non-negative doubles of every magnitude, with whole numbers, halves and the doubles just below them
 * (where a floor or a rounding is most easily off by one) overweighted.
 */
const nonNegative = fc.oneof(
  fc.double({ min: 0, noNaN: true }),
  fc.integer({ min: 0, max: 2 ** 31 }).map((n) => n / 2),
  fc.tuple(fc.integer({ min: 1, max: 1e8 }), fc.constantFrom(0, 0.5)).map(([n, at]) => doubleBelow(n + at)),
  fc.double({ min: 2 ** 51, max: 2 ** 54, noNaN: true }),
);

describe('roundHalfAwayFromZero', () => {
  it.each([
    [0.5, 1],
    [1.5, 2],
    [2.5, 3],
    [-0.5, -1],
    [-2.5, -3],
    [2.4999, 2],
    [-2.4999, -2],
    // The classic floor(x + 0.5) bug would give 1 here.
    [0.49999999999999994, 0],
  ])('rounds %d to %d (halves away from zero)', (x, expected) => {
    expect(roundHalfAwayFromZero(x)).toBe(expected);
  });

  it('never returns negative zero for a negative number, so "-0" cannot reach a response', () => {
    expect(Object.is(roundHalfAwayFromZero(-0.2), 0)).toBe(true);
  });

  it.each([
    [0],
    [-0],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [Number.MIN_VALUE],
    [2 ** 52 - 0.5],
    [-(2 ** 52 - 0.5)],
    [2 ** 53 + 2],
    [1e8 + 0.5],
  ])('rounds %d to the same double as Math.round of its magnitude, sign restored', (x) => {
    const expected = x < 0 ? -Math.round(-x) + 0 : Math.round(x);
    expect(Object.is(roundHalfAwayFromZero(x), expected)).toBe(true);
  });
});

describe('roundNonNegative', () => {
  it('property: any double > 0 → the same double as roundHalfAwayFromZero (and Math.round)', () => {
    fc.assert(
      fc.property(
        nonNegative.filter((x) => x > 0),
        (x) =>
          Object.is(roundNonNegative(x), roundHalfAwayFromZero(x)) &&
          Object.is(roundNonNegative(x), Math.round(x)),
      ),
      { numRuns: 20_000 },
    );
  });

  it.each([
    [0, 0],
    [-0, 0],
    [Number.NaN, Number.NaN],
    [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
    [0.49999999999999994, 0],
    [2 ** 52 - 0.5, 2 ** 52],
  ])('unit: %d → %d (−0 to +0, which the budget writes as 0 either way)', (x, expected) => {
    expect(Object.is(roundNonNegative(x), expected)).toBe(true);
  });
});

describe('roundHalfAwayFromZero over many values', () => {
  it('property: any double → Math.round of its magnitude, sign restored', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          nonNegative,
          nonNegative.map((x) => -x),
        ),
        (x) => {
          const expected = x < 0 ? -Math.round(-x) + 0 : Math.round(x);
          return Object.is(roundHalfAwayFromZero(x), expected);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

describe('formatScore', () => {
  it.each([
    [0, '0.0'],
    [91.2, '91.2'],
    [80, '80.0'],
    [100, '100.0'],
  ])('unit: a score of %d points → %s', (points, expected) => {
    expect(formatScore(points)).toBe(expected);
  });

  it('unit: every t / 10 for t = 0…1000 → the text whose Number is that double', () => {
    for (let tenths = 0; tenths <= 1000; tenths++) {
      const text = formatScore(tenths / 10);
      expect(text).toBe(`${Math.floor(tenths / 10)}.${tenths % 10}`);
      expect(Number(text)).toBe(tenths / 10);
    }
  });

  it.each([[91.25], [100.1], [-0.1], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    'unit: %d, not a whole number of tenths from 0 to 100 → throws instead of rounding',
    (points) => {
      expect(() => formatScore(points)).toThrow(/is not a score/);
    },
  );
});
