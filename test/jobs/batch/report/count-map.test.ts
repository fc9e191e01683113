import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CountMap,
  describeEntries,
  nearestRank,
  PERCENTILES,
  SortedCounts,
} from '../../../../jobs/batch/report/count-map.js';
import { pairsOf } from './fixtures.js';

const countMapOf = (values: readonly number[]) => {
  const map = new CountMap();
  for (const value of values) map.add(value);
  return map;
};

describe('describeEntries', () => {
  it('for any list of integers, each percentile is the sorted value at nearest rank ⌈P·n/100⌉', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -10_000, max: 10_000 }), { minLength: 1, maxLength: 500 }),
        (values) => {
          const sorted = [...values].sort((a, b) => a - b);
          const facts = describeEntries(countMapOf(values).sorted())!;
          for (const p of PERCENTILES) {
            expect(facts.percentiles[p]).toBe(sorted[Math.ceil((p * sorted.length) / 100) - 1]);
          }
          expect(facts.count).toBe(values.length);
          expect(facts.sum).toBe(BigInt(values.reduce((a, b) => a + b, 0)));
          expect([facts.min, facts.max]).toEqual([sorted[0], sorted.at(-1)]);
        },
      ),
    );
  });

  it('for any list, each percentile is the smallest value with at least P % of the values at or below it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 300 }), (values) => {
        const facts = describeEntries(countMapOf(values).sorted())!;
        for (const p of PERCENTILES) {
          const atOrBelow = (x: number) => values.filter((v) => v <= x).length;
          const candidates = values.filter((x) => 100 * atOrBelow(x) >= p * values.length);
          expect(facts.percentiles[p]).toBe(Math.min(...candidates));
        }
      }),
    );
  });

  it('when values are large, keeps the sum exact beyond 2^53', () => {
    const map = new CountMap();
    map.add(9_000_000, 2_000_000_000);
    // 9e6 × 2e9 = 1.8e16 > 2^53 ≈ 9.007e15
    expect(describeEntries(map.sorted())!.sum).toBe(18_000_000_000_000_000n);
  });

  it('for any values and counts around 2^53, the sum is the exact BigInt sum (doubles while safe, then BigInt)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 20 })),
          { minLength: 1, maxLength: 50 },
        ),
        (entries) => {
          const map = new CountMap();
          for (const [value, count] of entries) map.add(value, count);
          const exact = entries.reduce((total, [value, count]) => total + BigInt(value) * BigInt(count), 0n);
          expect(describeEntries(map.sorted())!.sum).toBe(exact);
        },
      ),
    );
  });

  it('when there are no values, returns null', () => {
    expect(describeEntries(new CountMap().sorted())).toBeNull();
  });
});

describe('nearestRank', () => {
  it('for 10 values, puts the 25th percentile at rank 3 and the 1st at rank 1', () => {
    expect(nearestRank(10, 25)).toBe(3); // ⌈2.5⌉
    expect(nearestRank(10, 1)).toBe(1); // ⌈0.1⌉
    expect(nearestRank(10, 90)).toBe(9);
  });
});

describe('CountMap', () => {
  it('when given a fractional value, throws instead of losing exactness', () => {
    expect(() => new CountMap().add(1.5)).toThrow(/not a safe integer/);
  });

  it('for any values, near or far from the first (window and sparse map), sorts them with exact counts', () => {
    const value = fc.oneof(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -200_000, max: 200_000 }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 400 }), (values) => {
        const expected = new Map<number, number>();
        for (const v of values) expected.set(v, (expected.get(v) ?? 0) + 1);
        expect(pairsOf(countMapOf(values).sorted())).toEqual([...expected].sort((a, b) => a[0] - b[0]));
      }),
    );
  });

  it('when a count passes 2^32 − 1, keeps it exact', () => {
    const map = new CountMap();
    map.add(4, 3);
    map.add(5, 0xffff_fff0);
    map.add(5, 0x20);
    map.add(5, 2 ** 40);
    map.add(6);
    expect(pairsOf(map.sorted())).toEqual([
      [4, 3],
      [5, 0xffff_fff0 + 0x20 + 2 ** 40],
      [6, 1],
    ]);
  });
});

describe('SortedCounts.fromPairs', () => {
  it('when pairs are unsorted or repeat a value, sorts them and adds the counts', () => {
    const sorted = SortedCounts.fromPairs([
      [5, 2],
      [-70_000, 1],
      [5, 3],
      [90_000, 4],
    ]);
    expect(pairsOf(sorted)).toEqual([
      [-70_000, 1],
      [5, 5],
      [90_000, 4],
    ]);
    expect(sorted.total()).toBe(10);
  });
});
