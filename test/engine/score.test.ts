/** The score values the engine hands to the batch job as numbers, beside the response texts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeScoreValues } from '../../src/engine/score.js';

describe('writeScoreValues', () => {
  it('property: over 100,000 generated incomes, spendings and savings, each number is exactly Number of its text', () => {
    const texts = ['', '', ''];
    const values = new Float64Array(3);
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 100_000_000, noNaN: true }),
        fc.double({ min: 0, max: 200_000_000, noNaN: true }),
        fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1_000_000, noNaN: true })),
        (netIncome, spending, savings) => {
          writeScoreValues(netIncome, spending, savings, texts, values);
          for (let i = 0; i < 3; i++) expect(Object.is(values[i], Number(texts[i]))).toBe(true);
        },
      ),
      { numRuns: 100_000 },
    );
  });

  it('unit: every score from 0.0 to 100.0 → its number is Number of its text', () => {
    const texts = ['', '', ''];
    const values = new Float64Array(3);
    // Net income 12,000 and spending 12,000 − 12·psa make the main score 800 + psa tenths, so PSA
    // −800…200 walks every score from 0.0 to 100.0.
    const seen = new Set<string>();
    for (let psa = -800; psa <= 200; psa++) {
      writeScoreValues(12_000, 12_000 - 12 * psa, 0, texts, values);
      expect(texts[0]).toBe(String(psa));
      expect(Object.is(values[1], Number(texts[1]))).toBe(true);
      seen.add(texts[1]!);
    }
    expect(seen.size).toBe(1001);
  });
});
