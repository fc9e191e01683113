/** The batch encoder's reading of the engine's score texts. */
import { describe, expect, it } from 'vitest';
import { decimalValue } from '../../../jobs/score/encode.js';

describe('decimalValue', () => {
  it('unit: every score text 0.0–100.0 and PSA -100000–100000 → exactly Number(text)', () => {
    for (let tenths = 0; tenths <= 1000; tenths++) {
      const text = (tenths / 10).toFixed(1);
      expect(Object.is(decimalValue(text), Number(text))).toBe(true);
    }
    for (let psa = -100_000; psa <= 100_000; psa += 7) {
      const text = String(psa);
      expect(Object.is(decimalValue(text), Number(text))).toBe(true);
    }
  });

  it.each([
    '-0',
    '0.1',
    '-12.25',
    '123456789012345',
    '1234567890123456789',
    '1e3',
    '',
    '-',
    '.5',
    '5.',
    'abc',
  ])('unit: text "%s" → the value Number gives', (text) => {
    expect(Object.is(decimalValue(text), Number(text))).toBe(true);
  });
});
