/** BatchEncoder's Arrow layout: where each category's column starts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { categoryStride } from '../../../../jobs/batch/score/encode.js';

const INT32_PER_CACHE_LINE = 16;

describe('categoryStride', () => {
  it('property: any batch size → room for every row, an odd number of 64-byte cache lines', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (rows) => {
        const stride = categoryStride(rows);
        expect(stride).toBeGreaterThanOrEqual(rows);
        expect(stride % INT32_PER_CACHE_LINE).toBe(0);
        expect((stride / INT32_PER_CACHE_LINE) % 2).toBe(1);
        // No more than two lines of slack.
        expect(stride - rows).toBeLessThan(2 * INT32_PER_CACHE_LINE);
      }),
    );
  });

  it('golden: the default batch of 2,048 rows (128 lines) → 2,064 values (129 lines), not a power of two', () => {
    expect(categoryStride(2048)).toBe(2064);
    expect(categoryStride(2064)).toBe(2064);
    expect(categoryStride(1)).toBe(16);
  });
});
