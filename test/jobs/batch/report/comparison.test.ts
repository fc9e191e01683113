import { describe, expect, it } from 'vitest';
import { compareSummaries, indexPsi } from '../../../../jobs/batch/report/comparison.js';
import { comparisonText } from '../../../../jobs/batch/report/comparison-text.js';
import { mergeSummaries, SummaryBuilder, type SummaryMeta } from '../../../../jobs/batch/report/summary.js';
import { META, row, STABILITY_FIELD_NAMES, shardMeta } from './fixtures.js';

/** 200 households with incomes spread over the bins, split over `shards` shard summaries when asked. */
function summaryOf(meta: SummaryMeta, shards = 1) {
  const builders = Array.from({ length: shards }, () => new SummaryBuilder({ groupBy: [] }));
  for (let i = 0; i < 200; i += 1) {
    builders[Math.floor((i * shards) / 200)]!.addScored(
      row({
        netIncome: 10_000 + i * 900,
        grossIncome: i % 4 === 0 ? undefined : 12_000 + i * 1000,
        geoLevel: 'zip',
        isHomeowner: i % 2 === 0,
        index: (i % 120) + 0.5,
      }),
    );
  }
  return builders.map((builder, s) => builder.finish(shards === 1 ? meta : shardMeta(s + 1, shards)));
}

describe('compareSummaries', () => {
  it('unit: another model version and price year are each named in a warning; the same run has none', () => {
    const [reference] = summaryOf({ ...META, priceYear: 2024 });
    const [current] = summaryOf({ ...META, modelVersion: 'test-model-2', priceYear: 2025 });
    expect(compareSummaries(reference!, reference!).warnings).toEqual([]);
    const { warnings } = compareSummaries(current!, reference!);
    expect(warnings).toEqual([
      'The model version differs: this run test-model-2, the reference test-model-1 (--model); the outputs may differ because of it, not because of the applicants.',
      'The price year differs: this run 2025, the reference 2024 (the model); the outputs may differ because of it, not because of the applicants.',
    ]);
    expect(comparisonText(compareSummaries(current!, reference!))).toContain(
      'WARNING: The model version differs',
    );
  });

  it('unit: the summary counts every input bin, "not given" included, and every output bin', () => {
    const [summary] = summaryOf(META);
    expect(Object.keys(summary!.bins)).toEqual(STABILITY_FIELD_NAMES);
    expect(summary!.bins.gross_income!['not given']).toBe(50);
    expect(summary!.bins.tenure).toEqual({ owner: 100, renter: 100 });
    for (const bins of Object.values(summary!.bins))
      expect(Object.values(bins).reduce((a, b) => a + b, 0)).toBe(200);
  });

  it('unit: shard summaries merge into the bins, and so the comparison, of the single summary', () => {
    const [single] = summaryOf(META);
    const merged = mergeSummaries(summaryOf(META, 4));
    expect(merged.bins).toEqual(single!.bins);
    const [other] = summaryOf({ ...META, modelVersion: 'x' });
    const { current: _a, ...fromMerged } = compareSummaries(merged, other!);
    const { current: _b, ...fromSingle } = compareSummaries(single!, other!);
    expect(fromMerged).toEqual(fromSingle);
  });

  it('unit: a field one summary lacks (as a lending index will be without loans) is listed with a note, not compared', () => {
    const [reference] = summaryOf(META);
    const [current] = summaryOf(META);
    const withLoans = { ...current!, bins: { ...current!.bins } };
    delete withLoans.bins.index;
    const comparison = compareSummaries(withLoans, reference!);
    expect(comparison.psi.find((f) => f.field === 'index')).toMatchObject({
      psi: null,
      reading: null,
      note: 'not in this run',
    });
    expect(indexPsi(comparison)).toBeNull();
  });
});
