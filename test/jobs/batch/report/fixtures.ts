/** Rows and metadata shared by the report tests. */
import type { SortedCounts } from '../../../../jobs/batch/report/count-map.js';
import type { ScoredRowStats, Summary, SummaryMeta } from '../../../../jobs/batch/report/summary.js';
import type { Distribution } from '../../../../jobs/batch/report/summary-schema.js';

export const META: SummaryMeta = {
  input: 'data/households.csv',
  shard: null,
  modelVersion: 'test-model-1',
  engine: 'local',
  basis: 'stated',
  scoreProfile: 'standard',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:01:00.000Z',
  timings: { read: 10, score: 100 },
};

export const shardMeta = (index: number, count: number): SummaryMeta => ({
  ...META,
  shard: { index, count },
});

export const row = (fields: Partial<ScoredRowStats> = {}): ScoredRowStats => ({
  psa: 0,
  score: 70,
  savingsScore: 65,
  state: 'CA',
  age: 40,
  netIncome: 60_000,
  householdMembers: 2,
  householdType: undefined,
  index: 70,
  percentile: 50,
  reasonCodes: '',
  expenseFlags: '',
  groups: {},
  ...fields,
});

/** A distribution as `[value, count]` pairs, as summary.json lists it. */
export const pairsOf = (sorted: SortedCounts): [number, number][] =>
  Array.from(sorted.values, (value, i) => [value, sorted.counts[i]!]);

/**
 * What summary.json is (the writer's doc comment): `JSON.stringify(…, null, 2)` of the summary with its
 * distributions as `[value, count]` pairs, each pair on one line. Strings are JSON.stringify's, unchanged.
 */
const PAIR_MARK = '\u0000pair:';

export function summaryJsonReference(summary: Summary): string {
  // Each pair stands in as a marked string, replaced below by the pair on one line.
  const marked = (sorted: SortedCounts) =>
    pairsOf(sorted).map(([value, count]) => `${PAIR_MARK}${value},${count}`);
  const asPairs = (d: Distribution) => ({
    psa: marked(d.psa),
    score_x10: marked(d.score_x10),
    savings_score_x10: marked(d.savings_score_x10),
    index_x10: marked(d.index_x10),
    percentile_x10: marked(d.percentile_x10),
  });
  const json = {
    ...summary,
    overall: { ...summary.overall, distribution: asPairs(summary.overall.distribution) },
    dimensions: summary.dimensions.map((d) => ({
      ...d,
      cohorts: d.cohorts.map((c) => ({ ...c, distribution: asPairs(c.distribution) })),
    })),
  };
  return `${JSON.stringify(json, null, 2).replace(/"\\u0000pair:(-?\d+),(\d+)"/g, '[$1, $2]')}\n`;
}
