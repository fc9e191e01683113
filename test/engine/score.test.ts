/** The score values the engine hands out as numbers, and the response texts formatted from them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreTexts, writeScoreValues } from '../../src/engine/score.js';

describe('writeScoreValues and scoreTexts', () => {
  it('property: over 100,000 generated incomes, spendings and savings, each number is exactly Number of its text', () => {
    const values = new Float64Array(3);
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 100_000_000, noNaN: true }),
        fc.double({ min: 0, max: 200_000_000, noNaN: true }),
        fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1_000_000, noNaN: true })),
        (netIncome, spending, savings) => {
          writeScoreValues(netIncome, spending, savings, values);
          const texts = scoreTexts(values);
          for (let i = 0; i < 3; i++) expect(Object.is(values[i], Number(texts[i]))).toBe(true);
        },
      ),
      { numRuns: 100_000 },
    );
  });

  it('unit: every score from 0.0 to 100.0 → its text has one decimal, and its number is Number of the text', () => {
    const values = new Float64Array(3);
    // Net income 12,000 and spending 12,000 − 12·psa make the main score 800 + psa tenths, so PSA
    // −800…200 walks every score from 0.0 to 100.0.
    const seen = new Set<string>();
    for (let psa = -800; psa <= 200; psa++) {
      writeScoreValues(12_000, 12_000 - 12 * psa, 0, values);
      const texts = scoreTexts(values);
      expect(texts[0]).toBe(String(psa));
      expect(texts[1]).toMatch(/^\d{1,3}\.\d$/);
      expect(Object.is(values[1], Number(texts[1]))).toBe(true);
      seen.add(texts[1]!);
    }
    expect(seen.size).toBe(1001);
  });
});
