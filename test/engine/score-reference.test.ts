import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCORE_REFERENCE_COMMAND, SCORE_REFERENCE_PATH } from '../../jobs/build-model/score-reference.js';
import { parseScoreReference, percentileOf, QUANTILE_STEPS } from '../../src/engine/score-reference.js';
import { loadSpendingModel } from '../../src/model/load.js';

/** A table of 1,001 quantiles 0, 0.1, …, 100: the index itself is the percentile. */
const identity = Array.from({ length: QUANTILE_STEPS + 1 }, (_, k) => k / 10);

describe('percentileOf', () => {
  it('between two quantiles: interpolates linearly', () => {
    expect(percentileOf(identity, 12.34)).toBe(12.3);
    expect(percentileOf([0, 10, 20], 15)).toBe(75);
  });

  it('below the lowest and above the highest quantile: 0 and 100', () => {
    expect(percentileOf(identity, -5)).toBe(0);
    expect(percentileOf(identity, 250)).toBe(100);
  });

  it('a value several quantiles share: the middle of their run', () => {
    // Quantiles 1 to 3 of 4 are 10: the run's middle is step 2 of 4, 50 %.
    expect(percentileOf([0, 10, 10, 10, 20], 10)).toBe(50);
    expect(percentileOf([5, 5, 5, 20, 30], 5)).toBe(25);
  });

  it('any two indices: the larger never has the smaller percentile, all within 0–100', () => {
    const reference = readReference();
    fc.assert(
      fc.property(
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        (a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const [p, q] = [
            percentileOf(reference.outlayIndex, low),
            percentileOf(reference.outlayIndex, high),
          ];
          expect(p).toBeLessThanOrEqual(q);
          expect(p).toBeGreaterThanOrEqual(0);
          expect(q).toBeLessThanOrEqual(100);
        },
      ),
    );
  });
});

function readReference() {
  return parseScoreReference(JSON.parse(readFileSync(SCORE_REFERENCE_PATH, 'utf8')), SCORE_REFERENCE_PATH);
}

describe('the shipped score reference', () => {
  it('data/model/score-reference.json: parses, and was built with the shipped model', async () => {
    const model = await loadSpendingModel();
    expect(readReference().modelVersion, `rebuild it: ${SCORE_REFERENCE_COMMAND}`).toBe(model.version);
  });

  it('the reference median: sits at the 50th percentile', () => {
    const { outlayIndex } = readReference();
    // Quantile 500 of 1,000 is the weighted median (73.9 for the shipped model).
    expect(percentileOf(outlayIndex, outlayIndex[500]!)).toBeCloseTo(50, 0);
  });

  it('a file with a decreasing quantile: is refused, naming the position', () => {
    const bad = { ...readReference(), outlayIndex: [...identity].reverse() };
    expect(() => parseScoreReference(bad, 'bad.json')).toThrow(
      /bad.json: outlayIndex must be non-decreasing \(at position 1\)/,
    );
  });

  it('a file of another shape: is refused, naming the file', () => {
    expect(() => parseScoreReference({ format: 'x' }, 'other.json')).toThrow(
      /other.json is not an Outlay score reference/,
    );
  });
});
