import { describe, expect, it } from 'vitest';
import { formatScoreTenths, roundHalfAwayFromZero } from '../../src/engine/rounding.js';

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

describe('formatScoreTenths', () => {
  it.each([
    [0, '0.0'],
    [912, '91.2'],
    [1000, '100.0'],
  ])('formats %d tenths as %s', (tenths, expected) => {
    expect(formatScoreTenths(tenths)).toBe(expected);
  });
});
