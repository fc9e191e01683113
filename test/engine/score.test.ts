/** The score values the engine hands out as numbers, and the response texts formatted from them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreTexts, writeScoreValues } from '../../src/engine/score.js';

describe('writeScoreValues and scoreTexts', () => {
  it('property: over 20,000 generated incomes, spendings and savings, each number is exactly Number of its text', () => {
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
      { numRuns: 20_000 },
    );
  });

  // Each expectation worked by hand from docs/api.md, "Score": PSA = (net − spending) / 12 rounded to a
  // whole unit (halves away from zero); score = 80 + 100 × (12 × PSA − savings) / net, clamped to 0–100,
  // one decimal, halves away from zero.
  it.each([
    // docs/api.md's example: (42,000 − 37,308) / 12 = 391; 80 + 100 × 4,692 / 42,000 = 91.171… → 91.2.
    { net: 42_000, spending: 37_308, savings: 0, expected: [391, 91.2, 91.2] },
    // (42,000 − 37,308) / 12 = 391; SAViNGS 80 + 100 × (4,692 − 3,000) / 42,000 = 84.028… → 84.0.
    { net: 42_000, spending: 37_308, savings: 3_000, expected: [391, 91.2, 84] },
    // (50,000 − 54,212) / 12 = −351; 80 + 100 × (−4,212) / 50,000 = 71.576 → 71.6.
    { net: 50_000, spending: 54_212, savings: 0, expected: [-351, 71.6, 71.6] },
    // (60,000 − 59,994) / 12 = 0.5 → 1 (half away from zero); 80 + 100 × 12 / 60,000 = 80.02 → 80.0.
    { net: 60_000, spending: 59_994, savings: 0, expected: [1, 80, 80] },
    // (60,000 − 60,006) / 12 = −0.5 → −1 (half away from zero); 80 − 100 × 12 / 60,000 = 79.98 → 80.0.
    { net: 60_000, spending: 60_006, savings: 0, expected: [-1, 80, 80] },
    // (40,000 − 31,500) / 12 = 708.33… → 708; 80 + 100 × 8,496 / 40,000 = 101.24 → clamped 100.0;
    // SAViNGS 80 + 100 × (8,496 − 6,000) / 40,000 = 86.24 → 86.2.
    { net: 40_000, spending: 31_500, savings: 6_000, expected: [708, 100, 86.2] },
    // (20,000 − 40,000) / 12 = −1,666.67 → −1,667; 80 + 100 × (−20,004) / 20,000 = −20.02 → clamped 0.0.
    { net: 20_000, spending: 40_000, savings: 0, expected: [-1_667, 0, 0] },
    // 800 + 1000 × 12 × 25 / 24,000 = 812.5 tenths exactly → 813 → 81.3 (the half rounds away from zero).
    { net: 24_000, spending: 23_700, savings: 0, expected: [25, 81.3, 81.3] },
  ])(
    'golden: net $net, spending $spending, savings $savings → PSA, OUTLAY, SAViNGS $expected',
    ({ net, spending, savings, expected }) => {
      const values = new Float64Array(3);
      writeScoreValues(net, spending, savings, values);
      expect([...values]).toEqual(expected);
    },
  );

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
