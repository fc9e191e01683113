import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedCounts } from '../../../../jobs/batch/report/count-map.js';
import {
  mergeSummaries,
  type ScoredRowStats,
  type Summary,
  SummaryBuilder,
} from '../../../../jobs/batch/report/summary.js';
import { parseSummary, serializeSummary } from '../../../../jobs/batch/report/summary-json.js';
import { META, pairsOf, row, shardMeta, summaryJsonReference } from './fixtures.js';

/**
 * Five households and one reject, small enough to check by hand.
 *   PSA sorted: -200, 0, 150, 400, 1000 → n 5, sum 1350, mean 270, one negative (0 is not negative).
 *   Nearest rank ⌈P·5/100⌉: P1, P5, P10 → rank 1 (-200); P25 → ⌈1.25⌉ = 2 (0); P50 → ⌈2.5⌉ = 3 (150);
 *   P75 → ⌈3.75⌉ = 4 (400); P90, P95, P99 → 5 (1000).
 *   Scores 55.0, 60.0, 72.5, 85.0, 90.0 → one per band; mean 362.5 / 5 = 72.5.
 *   Savings scores 50.0, 58.5, 70.0, 80.0, 89.9 → bands 2, 0, 1, 2, 0; mean 348.4 / 5 = 69.68.
 */
const GOLDEN_ROWS: ScoredRowStats[] = [
  row({
    psa: -200,
    score: 55,
    savingsScore: 50,
    state: 'CA',
    age: 30,
    netIncome: 40_000,
    householdMembers: 2,
    groups: { segment: 'a' },
  }),
  row({
    psa: 0,
    score: 60,
    savingsScore: 58.5,
    state: 'CA',
    age: 45,
    netIncome: 60_000,
    householdMembers: 1,
  }),
  row({
    psa: 150,
    score: 72.5,
    savingsScore: 70,
    state: 'TX',
    age: undefined,
    netIncome: 90_000,
    householdMembers: 4,
  }),
  row({
    psa: 400,
    score: 85,
    savingsScore: 80,
    state: null,
    age: 70,
    netIncome: 250_000,
    householdMembers: undefined,
  }),
  row({
    psa: 1000,
    score: 90,
    savingsScore: 89.9,
    state: 'TX',
    age: 24,
    netIncome: 20_000,
    householdMembers: 6,
    groups: { segment: 'b' },
  }),
];

function goldenSummary(): Summary {
  const builder = new SummaryBuilder({ groupBy: ['segment'] });
  for (const r of GOLDEN_ROWS) builder.addScored(r);
  builder.addRejected('/demographics/zip: must be a 5-digit ZIP code or ZIP+4 (12345 or 12345-6789)');
  return builder.finish(META);
}

const cohortValues = (summary: Summary, name: string) =>
  summary.dimensions.find((d) => d.name === name)!.cohorts.map((c) => [c.value, c.rows]);

describe('SummaryBuilder on five hand-checked households', () => {
  const summary = goldenSummary();

  it('counts rows in as scored plus rejected, with the reason', () => {
    expect(summary.counts).toEqual({
      rows_in: 6,
      rows_scored: 5,
      rows_rejected: 1,
      rejected_by_reason: {
        '/demographics/zip: must be a 5-digit ZIP code or ZIP+4 (12345 or 12345-6789)': 1,
      },
    });
  });

  it('reports the exact PSA mean, extremes, nearest-rank percentiles and negative share', () => {
    const { histogram, ...psa } = summary.overall.psa;
    expect(psa).toEqual({
      mean: 270,
      min: -200,
      max: 1000,
      percentiles: {
        p1: -200,
        p5: -200,
        p10: -200,
        p25: 0,
        p50: 150,
        p75: 400,
        p90: 1000,
        p95: 1000,
        p99: 1000,
      },
      negative_count: 1,
      negative_share: 0.2,
    });
  });

  it('bins the PSA histogram in $100 steps from -$200 to $1,100', () => {
    // Range P1..P99 = 1200; the first round width with 20 bins ≥ 1200 is 100 (50 × 20 = 1000 is too short).
    const bins = summary.overall.psa.histogram;
    expect(bins).toHaveLength(13);
    expect(bins[0]).toEqual({ from: -200, to: -100, count: 1 });
    expect(bins.at(-1)).toEqual({ from: 1000, to: 1100, count: 1 });
    expect(bins.map((b) => b.count)).toEqual([1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1]);
  });

  it('puts scores in the bands <60, 60–70, 70–80, 80–90, ≥90 with one-decimal means', () => {
    expect(summary.overall.score.bands.map((b) => [b.label, b.count])).toEqual([
      ['<60', 1],
      ['60–70', 1],
      ['70–80', 1],
      ['80–90', 1],
      ['≥90', 1],
    ]);
    expect(summary.overall.score.mean).toBe(72.5);
    expect(summary.overall.savings_score.bands.map((b) => b.count)).toEqual([2, 0, 1, 2, 0]);
    expect(summary.overall.savings_score.mean).toBe(69.68);
    expect(summary.overall.savings_score.percentiles?.p50).toBe(70);
  });

  it('places households in default cohorts by band, in band order, with unknown last', () => {
    expect(cohortValues(summary, 'state')).toEqual([
      ['CA', 2],
      ['TX', 2],
      ['unknown', 1],
    ]);
    expect(cohortValues(summary, 'age_band')).toEqual([
      ['15–24', 1],
      ['25–34', 1],
      ['45–54', 1],
      ['65–74', 1],
      ['unknown', 1],
    ]);
    expect(cohortValues(summary, 'income_band')).toEqual([
      ['under $25k', 1],
      ['$25k–50k', 1],
      ['$50k–75k', 1],
      ['$75k–100k', 1],
      ['$200k+', 1],
    ]);
    expect(cohortValues(summary, 'household_size')).toEqual([
      ['1', 1],
      ['2', 1],
      ['4', 1],
      ['5+', 1],
      ['unknown', 1],
    ]);
    expect(cohortValues(summary, 'segment')).toEqual([
      ['a', 1],
      ['b', 1],
      ['unknown', 3],
    ]);
  });

  it('computes cohort statistics from the cohort rows only', () => {
    const california = summary.dimensions[0]!.cohorts[0]!;
    // PSA -200 and 0: mean -100, median at rank ⌈0.5·2⌉ = 1 → -200, half negative.
    expect([california.psa.mean, california.psa.percentiles?.p50, california.psa.negative_share]).toEqual([
      -100, -200, 0.5,
    ]);
  });

  it('keeps the exact distributions sorted by value', () => {
    expect(pairsOf(summary.overall.distribution.psa)).toEqual([
      [-200, 1],
      [0, 1],
      [150, 1],
      [400, 1],
      [1000, 1],
    ]);
    expect(pairsOf(summary.overall.distribution.savings_score_x10)).toEqual([
      [500, 1],
      [585, 1],
      [700, 1],
      [800, 1],
      [899, 1],
    ]);
  });

  it('round-trips through summary.json text unchanged', () => {
    expect(parseSummary(serializeSummary(summary), 'golden')).toEqual(summary);
  });

  it('writes summary.json as JSON.stringify(…, 2) with each [value, count] pair on one line', () => {
    expect(serializeSummary(summary)).toBe(summaryJsonReference(summary));
  });
});

describe('SummaryBuilder input checks', () => {
  it('when a score has more than one decimal, throws', () => {
    expect(() => new SummaryBuilder({ groupBy: [] }).addScored(row({ score: 70.25 }))).toThrow(/one decimal/);
  });

  it('when PSA is fractional, throws', () => {
    expect(() => new SummaryBuilder({ groupBy: [] }).addScored(row({ psa: 10.5 }))).toThrow(/whole number/);
  });

  it('when nothing was scored, reports null statistics instead of NaN', () => {
    const builder = new SummaryBuilder({ groupBy: [] });
    builder.addRejected('bad');
    const summary = builder.finish(META);
    expect(summary.overall.psa.mean).toBeNull();
    expect(summary.overall.psa.histogram).toEqual([]);
    expect(summary.counts.rows_in).toBe(1);
  });
});

const rowArbitrary = fc.record({
  psa: fc.integer({ min: -8_000, max: 30_000 }),
  scoreX10: fc.integer({ min: 0, max: 1000 }),
  savingsX10: fc.integer({ min: 0, max: 1000 }),
  state: fc.constantFrom('CA', 'TX', 'NY', null),
  age: fc.option(fc.integer({ min: 15, max: 120 }), { nil: undefined }),
  netIncome: fc.integer({ min: 1, max: 400_000 }),
  householdMembers: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
  householdType: fc.option(fc.constantFrom('married_couple', 'single_person'), { nil: undefined }),
  indexX10: fc.integer({ min: -5000, max: 3000 }),
  percentileX10: fc.integer({ min: 0, max: 1000 }),
  reasonCodes: fc.constantFrom('', 'INCOME_BELOW_PEER_SPENDING', 'HIGH_FOOD_HOME;OTHER_DEBT_PAYMENTS'),
  expenseFlags: fc.constantFrom('', 'BELOW_PEERS:food_home'),
  segment: fc.constantFrom('alpha', 'beta', '<b>&"', ''),
  rejectReason: fc.option(fc.constantFrom('zip', 'income'), { nil: undefined, freq: 5 }),
  shard: fc.nat(),
});

type GeneratedRow = typeof rowArbitrary extends fc.Arbitrary<infer T> ? T : never;

function addRow(builder: SummaryBuilder, r: GeneratedRow): void {
  if (r.rejectReason !== undefined) {
    builder.addRejected(r.rejectReason);
    return;
  }
  builder.addScored({
    psa: r.psa,
    score: r.scoreX10 / 10,
    savingsScore: r.savingsX10 / 10,
    state: r.state,
    age: r.age,
    netIncome: r.netIncome,
    householdMembers: r.householdMembers,
    householdType: r.householdType,
    index: r.indexX10 / 10,
    percentile: r.percentileX10 / 10,
    reasonCodes: r.reasonCodes,
    expenseFlags: r.expenseFlags,
    groups: { segment: r.segment },
  });
}

const withoutMeta = ({ meta: _meta, ...rest }: Summary) => rest;

describe('SummaryBuilder overall distributions', () => {
  it('for random rows, equal the sum of the cohorts of every dimension, whichever has the fewest', () => {
    const keys = ['psa', 'score_x10', 'savings_score_x10'] as const;
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 300 }), (rows) => {
        const builder = new SummaryBuilder({ groupBy: ['segment'] });
        for (const r of rows) addRow(builder, r);
        const summary = builder.finish(META);
        const overall = keys.map((key) => pairsOf(summary.overall.distribution[key]));
        for (const dimension of summary.dimensions) {
          const summed = keys.map((key) =>
            pairsOf(
              SortedCounts.fromPairs(
                dimension.cohorts.flatMap((cohort) => pairsOf(cohort.distribution[key])),
              ),
            ),
          );
          expect(summed, dimension.name).toEqual(overall);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('mergeSummaries', () => {
  it('for random rows split into random shards, equals the single-run summary exactly (meta aside)', () => {
    fc.assert(
      fc.property(
        fc.array(rowArbitrary, { maxLength: 300 }),
        fc.integer({ min: 1, max: 6 }),
        (rows, shardCount) => {
          const single = new SummaryBuilder({ groupBy: ['segment'] });
          const shards = Array.from(
            { length: shardCount },
            () => new SummaryBuilder({ groupBy: ['segment'] }),
          );
          for (const r of rows) {
            addRow(single, r);
            addRow(shards[r.shard % shardCount]!, r);
          }
          // Through the JSON text and in reverse order, as `outlay merge` would read them.
          const shardSummaries = shards
            .map((builder, i) => builder.finish(shardMeta(i + 1, shardCount)))
            .map((s) => parseSummary(serializeSummary(s), 'shard'))
            .reverse();
          const merged = mergeSummaries(shardSummaries);
          expect(withoutMeta(merged)).toEqual(withoutMeta(single.finish(META)));
          expect(merged.meta.merged_shards).toBe(shardCount);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('spans the shards in its meta: earliest start, latest finish, timings summed', () => {
    const one = {
      ...shardMeta(1, 2),
      startedAt: '2026-01-01T00:00:05.000Z',
      finishedAt: '2026-01-01T00:02:00.000Z',
    };
    const two = {
      ...shardMeta(2, 2),
      startedAt: '2026-01-01T00:00:01.000Z',
      finishedAt: '2026-01-01T00:01:00.000Z',
    };
    const merged = mergeSummaries([one, two].map((meta) => new SummaryBuilder({ groupBy: [] }).finish(meta)));
    expect(merged.meta).toMatchObject({
      shard: null,
      started_at: '2026-01-01T00:00:01.000Z',
      finished_at: '2026-01-01T00:02:00.000Z',
      timings: { read: 20, score: 200 },
    });
  });

  const empty = (meta = META, groupBy: string[] = []) => new SummaryBuilder({ groupBy }).finish(meta);

  it.each([
    ['no summaries', [], /no summaries/],
    ['a missing shard', [empty(shardMeta(1, 3)), empty(shardMeta(3, 3))], /missing shard 2\/3/],
    [
      'a shard given twice',
      [empty(shardMeta(1, 2)), empty(shardMeta(1, 2)), empty(shardMeta(2, 2))],
      /shard 1\/2 is given more than once/,
    ],
    ['different shard counts', [empty(shardMeta(1, 2)), empty(shardMeta(2, 3))], /different shardings/],
    ['two whole-input summaries', [empty(), empty()], /only the shards of one run/],
    [
      'a whole-input summary among shards',
      [empty(), empty(shardMeta(1, 1))],
      /cannot be merged with shard summaries/,
    ],
    [
      'different model versions',
      [empty(shardMeta(1, 2)), empty({ ...shardMeta(2, 2), modelVersion: 'other' })],
      /different model versions: test-model-1 vs other/,
    ],
    [
      'different --group-by columns',
      [empty(shardMeta(1, 2), ['a']), empty(shardMeta(2, 2), ['b'])],
      /different --group-by/,
    ],
    [
      'different inputs',
      [empty(shardMeta(1, 2)), empty({ ...shardMeta(2, 2), input: 'other.csv' })],
      /different inputs/,
    ],
  ])('when given %s, throws a clear message', (_name, summaries, message) => {
    expect(() => mergeSummaries(summaries)).toThrow(message);
  });
});
