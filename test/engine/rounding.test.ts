import { describe, expect, it } from 'vitest';
import { formatScore, roundHalfAwayFromZero } from '../../src/engine/rounding.js';

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
