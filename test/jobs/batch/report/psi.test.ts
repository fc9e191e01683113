import { describe, expect, it } from 'vitest';
import { PSI_SHARE_FLOOR, populationStabilityIndex, psiReading } from '../../../../jobs/batch/report/psi.js';

/**
 * Reference values computed independently with python3 (math.log, float64), from the formula
 * Σ (a − e)·ln(a / e) over shares, each share floored at 0.0001 and bins empty on both sides skipped:
 *
 *   def psi(e, a, floor=1e-4):
 *       te, ta = sum(e), sum(a); s = 0
 *       for x, y in zip(e, a):
 *           if x == 0 and y == 0: continue
 *           pe = max(x / te, floor); pa = max(y / ta, floor); s += (pa - pe) * math.log(pa / pe)
 *       return s
 */
const PYTHON_VALUES = [
  // By hand: −0.1·ln 0.8 + 0.05·ln(0.35/0.3) + 0.05·ln 1.25 = 0.022314 + 0.007708 + 0.011157.
  { reference: [50, 30, 20], current: [40, 35, 25], psi: 0.04117906668849437 },
  // The empty reference bin counts as a share of 0.0001: (0.01 − 0.0001)·ln(100) = 0.045591, + 0.001054.
  { reference: [100, 0, 900], current: [90, 10, 900], psi: 0.04664478999786038 },
  { reference: [1, 2, 3, 4], current: [4, 3, 2, 1], psi: 0.9128696382935673 },
  // One row in 10,000 is the floor itself: the bin adds nothing; only the other bin's tiny move counts.
  { reference: [10_000, 0], current: [9_999, 1], psi: 1.000050003333363e-8 },
];

describe('populationStabilityIndex', () => {
  it.each(PYTHON_VALUES)('unit: $reference against $current gives the python value $psi', (c) => {
    expect(populationStabilityIndex(c.reference, c.current)).toBeCloseTo(c.psi, 14);
  });

  it('unit: identical shares give exactly 0, whatever the row counts and empty bins', () => {
    expect(populationStabilityIndex([100, 0, 900], [100, 0, 900])).toBe(0);
    expect(populationStabilityIndex([1, 2, 0, 3], [2, 4, 0, 6])).toBe(0);
  });

  it('unit: symmetric in the two runs (each term is (a − e)·ln(a / e))', () => {
    expect(populationStabilityIndex([40, 35, 25], [50, 30, 20])).toBeCloseTo(0.04117906668849437, 14);
  });

  it('unit: no rows on either side gives null; bins that do not line up are a caller bug', () => {
    expect(populationStabilityIndex([0, 0], [1, 2])).toBeNull();
    expect(populationStabilityIndex([1, 2], [0, 0])).toBeNull();
    expect(() => populationStabilityIndex([1, 2], [1, 2, 3])).toThrow(/2 reference bins but 3/);
  });

  it('unit: the floor is one row in 10,000', () => {
    expect(PSI_SHARE_FLOOR).toBe(0.0001);
  });
});

describe('psiReading', () => {
  it('unit: under 0.10 stable, 0.10 to 0.25 watch, above 0.25 shifted (the bounds read as watch)', () => {
    expect([0, 0.0999, 0.1, 0.25, 0.2501, 3].map(psiReading)).toEqual([
      'stable',
      'stable',
      'watch',
      'watch',
      'shifted',
      'shifted',
    ]);
  });
});
