import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCORE_REFERENCE_PATH } from '../../jobs/build-model/score-reference.js';
import type { OperationRequest } from '../../src/contract/schemas.js';
import { fairLendingRequest } from '../../src/engine/fair-lending.js';
import { ScoreDetails, scoreColumns, scoreDetails } from '../../src/engine/score-details.js';
import { parseScoreReference, percentileOf } from '../../src/engine/score-reference.js';
import { loadEngine, loadScoreReference } from '../../src/runtime/load-engine.js';
import { Compile } from '../../src/vendor/typebox.js';
import { benchmarksOf, partsOf, scoredSample, shippedParts } from './scored-sample.js';

const shipped = await shippedParts();
const reference = parseScoreReference(JSON.parse(readFileSync(SCORE_REFERENCE_PATH, 'utf8')), 'reference');
const detailsSchema = Compile(ScoreDetails);

/** The README's Birmingham renter, with food stated at $100 and $300 a month of other debt. */
const request: OperationRequest = {
  demographics: { zip: '35210', net_annual_income: 41_004, age: 25, is_homeowner: false },
  budget: { food_home: 100, other_debt_payments: 3600 },
};

function detailsOf(options: Partial<Parameters<typeof scoreDetails>[0]> = {}) {
  const figures = shipped.engine.householdFigures(request);
  if (!figures.ok) throw new Error('rejected');
  return scoreDetails({
    parts: partsOf(shipped, request),
    benchmarks: benchmarksOf(shipped, request),
    reference,
    geoLevel: figures.value.geography.level,
    modelVersion: shipped.engine.modelVersion,
    ...options,
  });
}

describe('scoreDetails for the Birmingham renter', () => {
  it('default basis: the engine PSA, the index, its percentile, the debt reason and the food flag', () => {
    const details = detailsOf();
    expect(detailsSchema.Check(details)).toBe(true);
    // Shipped model: PSA 481 − 3,600 / 12 = 181; index 80 + 100 × 2,172 / 41,004 = 85.30 → 85.3.
    expect([details.basis, details.psa, details.index, details.savings_index]).toEqual([
      'stated',
      181,
      85.3,
      85.3,
    ]);
    expect(details.percentile).toBeGreaterThan(50);
    expect(details.reasons.map((r) => r.code)).toEqual(['OTHER_DEBT_PAYMENTS']);
    expect(details.flags.map((f) => f.category)).toEqual(['food_home']);
    expect(details.geo_level).toBe('zip');
    expect(details.lending).toBeUndefined();
  });

  it('benchmark basis: food at USDA Thrifty for one, PSA −144 (228 with no stated food, less $72 and $300 of debt)', () => {
    // $100 of food is below its benchmark: the greatest of the shipped model's mean $3,137, its median and
    // USDA Thrifty for one person (size not given), $4,004.43; (4,004.43 − 3,137) / 12 = 72 a month.
    // Index 80 + 100 × 12 × (−144) / 41,004 = 75.79 → 75.8.
    const details = detailsOf({ basis: 'benchmark' });
    expect([details.basis, details.psa, details.index]).toEqual(['benchmark', -144, 75.8]);
  });

  it('a loan of $200 a month: lender mode with the stressed payment, its surplus and its reason', () => {
    const { lending } = detailsOf({ loan: { monthly_payment: 200 } });
    // 200 × 1.25 = 250; surplus 181 − 250 = −69; index 80 + 100 × 12 × (−69) / 41,004 = 77.98 → 78.0.
    expect(lending).toMatchObject({ stressed_payment: 250, surplus: -69, index: 78, score: 78 });
    // Debt 100 × 3,600 / 41,004 = 8.8 points before the loan's 100 × 3,000 / 41,004 = 7.3.
    expect(lending?.reasons.map((r) => r.code)).toEqual(['OTHER_DEBT_PAYMENTS', 'LOAN_PAYMENT']);
  });
});

describe('scoreColumns over outlay sample --rows 500', () => {
  it('every row, on both bases: the same index, savings index, percentile and reasons as scoreDetails', () => {
    for (const { parts, benchmarks, request } of scoredSample(shipped, 500)) {
      for (const basis of ['stated', 'benchmark'] as const) {
        const options = { basis, benchmarks };
        const details = scoreDetails({ parts, reference, geoLevel: 'zip', modelVersion: 'm', ...options });
        expect(scoreColumns(parts, reference, options), JSON.stringify(request)).toEqual({
          outlay_index: details.index,
          savings_index: details.savings_index,
          outlay_percentile: details.percentile,
          reason_codes: details.reasons.map((r) => r.code).join(';'),
        });
      }
    }
  });
});

describe('scoreDetails with the fair-lending profile', () => {
  it('the percentile: read off the fair-lending reference table', () => {
    const fair = fairLendingRequest(request);
    const details = scoreDetails({
      parts: partsOf(shipped, fair),
      benchmarks: benchmarksOf(shipped, fair),
      reference,
      geoLevel: 'zip',
      modelVersion: 'm',
      profile: 'fair-lending',
    });
    expect(details.profile).toBe('fair-lending');
    expect(details.percentile).toBe(percentileOf(reference.fairLendingIndex, details.index));
  });
});

const loaded = await loadEngine();

describe('the engine loaded with the shipped reference', () => {
  it('explainedScore: the score response and the details scoreDetails gives for its parts', () => {
    const result = loaded.explainedScore({ ...request, loan: { monthly_payment: 200 } });
    if (!result.ok) throw new Error('rejected');
    const { details, ...score } = result.value;
    expect({ ok: true, value: score }).toEqual(loaded.score({ ...request, loan: { monthly_payment: 200 } }));
    expect(details).toEqual(detailsOf({ loan: { monthly_payment: 200 } }));
  });

  it('options.basis benchmark: the contract values are the benchmark basis PSA and clamped indices', () => {
    const result = loaded.score({ ...request, options: { basis: 'benchmark' } });
    expect(result).toEqual({
      ok: true,
      // PSA −144 (the test above): index 75.8.
      value: { 'Predicted Saving Ability': '-144', OUTLAY: '75.8', SAViNGS: '75.8' },
    });
  });

  it('gross income below take-home: flagged GROSS_BELOW_TAKE_HOME with both amounts, the score unchanged', () => {
    const withGross = (gross: number) => {
      const demographics = { ...request.demographics, gross_annual_income: gross };
      const result = loaded.explainedScore({ ...request, demographics });
      if (!result.ok) throw new Error('rejected');
      const { details, ...score } = result.value;
      return { score, details: details as ScoreDetails };
    };
    const [low, high] = [withGross(1), withGross(90_000)];
    expect(low.details.flags[0]).toEqual({
      code: 'GROSS_BELOW_TAKE_HOME',
      category: null,
      stated: 1,
      benchmark: 41_004,
    });
    expect(high.details.flags.map((f) => f.code)).not.toContain('GROSS_BELOW_TAKE_HOME');
    expect(detailsSchema.Check(low.details)).toBe(true);
    expect(low.score).toEqual(high.score);
    expect(low.details.index).toBe(high.details.index);
  });

  it('a reference built with another model: refused, naming both versions', async () => {
    await expect(loadScoreReference(SCORE_REFERENCE_PATH, '9.9.9+other')).rejects.toThrow(
      /built with model 1\.0\.0\+\w+, not the loaded model 9\.9\.9\+other/,
    );
  });
});
