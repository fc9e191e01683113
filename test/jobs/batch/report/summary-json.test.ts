import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedCounts } from '../../../../jobs/batch/report/count-map.js';
import { type Summary, SummaryBuilder } from '../../../../jobs/batch/report/summary.js';
import { parseSummary, serializeSummary, summaryChunks } from '../../../../jobs/batch/report/summary-json.js';
import type { Distribution } from '../../../../jobs/batch/report/summary-schema.js';
import { META, row, summaryJsonReference } from './fixtures.js';

const bytesOf = (summary: Summary) => Buffer.concat([...summaryChunks(summary)]);

/** Group values and reject reasons that JSON escapes, that are not ASCII, or that look like a pair. */
const awkwardText = fc.constantFrom(
  'alpha',
  '',
  '<b>&"\\',
  '[  12,  3  ]',
  '[\n-4,\n5\n]',
  '≥90 – ünïcode 🙂',
  'lone \ud800 surrogate',
  'tab\there',
);

/** A summary of real rows (so its shape is the schema's), in cohorts named by `segments`. */
function baseSummary(segments: readonly string[], reasons: readonly string[]): Summary {
  const builder = new SummaryBuilder({ groupBy: ['segment'] });
  segments.forEach((segment, i) => {
    builder.addScored(row({ psa: 100 * i - 300, score: 50 + i, savingsScore: 60, groups: { segment } }));
  });
  for (const reason of reasons) builder.addRejected(reason);
  return builder.finish(META);
}

const MAX = Number.MAX_SAFE_INTEGER;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Whole numbers as CountMap holds them: negative PSAs, -0, the int32 edges, safe ones up to 2^53 − 1. */
const wholeValue = fc.oneof(
  fc.integer({ min: -60_000, max: 60_000 }),
  fc.constantFrom(0, -0, -1, 9, 10, INT32_MIN - 1, INT32_MIN, INT32_MAX, INT32_MAX + 1, MAX, -MAX),
  fc.maxSafeInteger(),
);
const wholeCount = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: MAX }));

const pairsArbitrary = fc.array(fc.tuple(wholeValue, wholeCount), { maxLength: 40 });

/**
 * Many pairs from a seed (thousands through fast-check's arrays would make each run slow): a sorted run of
 * PSAs from a negative start, so a distribution can span several 64 KB chunks.
 */
const bulkArbitrary = fc.record({ length: fc.integer({ min: 0, max: 12_000 }), seed: fc.nat() });

function bulkCounts({ length, seed }: { length: number; seed: number }): SortedCounts {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state;
  };
  const values = new Float64Array(length);
  const counts = new Float64Array(length);
  let value = -40_000 - (next() % 1_000_000);
  for (let i = 0; i < length; i++) {
    value += 1 + (next() % 7);
    values[i] = value;
    counts[i] = next() % 16 === 0 ? next() * 65_536 + next() + 1 : 1 + (next() % 40);
  }
  return new SortedCounts(values, counts);
}

const sortedCountsOf = (pairs: readonly (readonly [number, number])[]) =>
  new SortedCounts(
    Float64Array.from(pairs, ([v]) => v),
    Float64Array.from(pairs, ([, c]) => c),
  );

const distributionArbitrary = fc.record({
  psa: fc.oneof(pairsArbitrary.map(sortedCountsOf), bulkArbitrary.map(bulkCounts)),
  score_x10: pairsArbitrary.map(sortedCountsOf),
  savings_score_x10: pairsArbitrary.map(sortedCountsOf),
});

/** The distributions the tests vary; the index and percentile ones are empty. */
type VariedDistribution = Pick<Distribution, 'psa' | 'score_x10' | 'savings_score_x10'>;

const withDistributions = (summary: Summary, distributions: VariedDistribution[]): Summary => {
  let next = 0;
  const take = (): Distribution => {
    const { psa, score_x10, savings_score_x10 } = distributions[next++ % distributions.length]!;
    const empty = sortedCountsOf([]);
    return { psa, score_x10, savings_score_x10, index_x10: empty, percentile_x10: empty };
  };
  return {
    ...summary,
    overall: { ...summary.overall, distribution: take() },
    dimensions: summary.dimensions.map((d) => ({
      ...d,
      cohorts: d.cohorts.map((c) => ({ ...c, distribution: take() })),
    })),
  };
};

describe('summaryChunks', () => {
  it('for random summaries and distributions, equals the JSON.stringify reference byte for byte', () => {
    fc.assert(
      fc.property(
        fc.array(awkwardText, { maxLength: 4 }),
        fc.array(awkwardText, { maxLength: 3 }),
        fc.array(distributionArbitrary, { minLength: 1, maxLength: 4 }),
        (segments, reasons, distributions) => {
          const summary = withDistributions(baseSummary(segments, reasons), distributions);
          expect(bytesOf(summary).equals(Buffer.from(summaryJsonReference(summary), 'utf8'))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('for distributions of 328,008 pairs in all, yields chunks of about 64 KB that join into the reference', () => {
    const summary = withDistributions(baseSummary(['a', 'b'], ['zip']), [
      {
        psa: bulkCounts({ length: 40_000, seed: 1 }),
        score_x10: bulkCounts({ length: 1_001, seed: 2 }),
        savings_score_x10: bulkCounts({ length: 0, seed: 3 }),
      },
    ]);
    const cohorts = [summary.overall, ...summary.dimensions.flatMap((d) => d.cohorts)];
    expect(cohorts.length * 41_001).toBe(328_008);
    const chunks = [...summaryChunks(summary)];
    expect(chunks.length).toBeGreaterThan(20);
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(1 << 16);
      expect(chunk.length).toBeLessThan((1 << 16) + 1024);
    }
    expect(Buffer.concat(chunks).toString('utf8')).toBe(summaryJsonReference(summary));
  });

  it('when a value is -0, writes 0 as the former template text did', () => {
    const summary = withDistributions(baseSummary([], []), [
      {
        psa: sortedCountsOf([[-0, 3]]),
        score_x10: sortedCountsOf([]),
        savings_score_x10: sortedCountsOf([[0, 1]]),
      },
    ]);
    const text = serializeSummary(summary);
    expect(text).toContain('"psa": [\n        [0, 3]\n      ]');
    expect(text).toBe(summaryJsonReference(summary));
  });

  it('when values or counts are not safe integers (never from CountMap), writes them as the template did', () => {
    const odd = [2 ** 53, -(2 ** 53) - 2, 1e21, 0.5, -1.5e-7, Number.NaN];
    const summary = withDistributions(baseSummary([], []), [
      {
        psa: sortedCountsOf(odd.map((v, i) => [v, i + 1] as const)),
        score_x10: sortedCountsOf([[1, 2.5]]),
        savings_score_x10: sortedCountsOf([]),
      },
    ]);
    const text = serializeSummary(summary);
    const indent = ' '.repeat(8);
    expect(text).toContain(odd.map((v, i) => `${indent}[${v}, ${i + 1}]`).join(',\n'));
    expect(text).toContain(`${indent}[1, 2.5]\n`);
  });

  it('for a summary read back from its text, writes the same bytes again', () => {
    const summary = withDistributions(baseSummary(['x', 'y'], []), [
      {
        psa: bulkCounts({ length: 5_000, seed: 9 }),
        score_x10: sortedCountsOf([
          [-0, 1],
          [MAX, MAX],
        ]),
        savings_score_x10: sortedCountsOf([]),
      },
    ]);
    const text = serializeSummary(summary);
    expect(serializeSummary(parseSummary(text, 'summary'))).toBe(text);
  });
});
