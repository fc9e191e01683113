/** Rows and metadata shared by the report tests. */
import type { SortedCounts } from '../../src/report/count-map.js';
import type { ScoredRowStats, SummaryMeta } from '../../src/report/summary.js';

export const META: SummaryMeta = {
  input: 'data/households.csv',
  shard: null,
  modelVersion: 'test-model-1',
  engine: 'local',
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
  groups: {},
  ...fields,
});

/** A distribution as `[value, count]` pairs, as summary.json lists it. */
export const pairsOf = (sorted: SortedCounts): [number, number][] =>
  Array.from(sorted.values, (value, i) => [value, sorted.counts[i]!]);
