import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCORE_REFERENCE_PATH } from '../../jobs/build-model/score-reference.js';
import type { OperationRequest } from '../../src/contract/schemas.js';
import { fairLendingRequest } from '../../src/engine/fair-lending.js';
import { ScoreDetails, scoreColumns, scoreDetails } from '../../src/engine/score-details.js';
import { parseScoreReference, percentileOf } from '../../src/engine/score-reference.js';
import { loadEngine, loadScoreReference } from '../../src/runtime/load-engine.js';
import { Compile } from '../../src/vendor/typebox.js';
import { partsOf, scoredSample, shippedParts } from './scored-sample.js';

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
    // Shipped model: PSA 665 − 3,600 / 12 = 365; index 80 + 100 × 4,380 / 41,004 = 90.68 → 90.7.
    expect([details.basis, details.psa, details.index, details.savings_index]).toEqual([
      'stated',
      365,
      90.7,
      90.7,
    ]);
    expect(details.percentile).toBeGreaterThan(50);
    expect(details.reasons.map((r) => r.code)).toEqual(['OTHER_DEBT_PAYMENTS']);
    expect(details.flags.map((f) => f.category)).toEqual(['food_home']);
    expect(details.geo_level).toBe('zip');
    expect(details.lending).toBeUndefined();
  });

  it('benchmark basis: food held to the peers mean, PSA 119 (419 with no stated food, less $300 of monthly debt)', () => {
    const details = detailsOf({ basis: 'benchmark' });
    expect([details.basis, details.psa]).toEqual(['benchmark', 119]);
  });

  it('a loan of $200 a month: lender mode with the stressed payment, its surplus and its reason', () => {
    const { lending } = detailsOf({ loan: { monthly_payment: 200 } });
    // 200 × 1.25 = 250; surplus 365 − 250 = 115; index 80 + 100 × 1,380 / 41,004 = 83.37 → 83.4.
    expect(lending).toMatchObject({ stressed_payment: 250, surplus: 115, index: 83.4, score: 83.4 });
    // Debt 100 × 3,600 / 41,004 = 8.8 points before the loan's 100 × 3,000 / 41,004 = 7.3.
    expect(lending?.reasons.map((r) => r.code)).toEqual(['OTHER_DEBT_PAYMENTS', 'LOAN_PAYMENT']);
  });
});

describe('scoreColumns over outlay sample --rows 500', () => {
  it('every row, on both bases: the same index, savings index, percentile and reasons as scoreDetails', () => {
    for (const { parts, request } of scoredSample(shipped, 500)) {
      for (const basis of ['stated', 'benchmark'] as const) {
        const details = scoreDetails({ parts, reference, geoLevel: 'zip', modelVersion: 'm', basis });
        expect(scoreColumns(parts, reference, { basis }), JSON.stringify(request)).toEqual({
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
    expect({ ok: true, value: score }).toEqual(loaded.score(request));
    expect(details).toEqual(detailsOf({ loan: { monthly_payment: 200 } }));
  });

  it('options.basis benchmark: the contract values are the benchmark basis PSA and clamped indices', () => {
    const result = loaded.score({ ...request, options: { basis: 'benchmark' } });
    expect(result).toEqual({
      ok: true,
      value: { 'Predicted Saving Ability': '119', OUTLAY: '83.5', SAViNGS: '83.5' },
    });
  });

  it('a reference built with another model: refused, naming both versions', async () => {
    await expect(loadScoreReference(SCORE_REFERENCE_PATH, '9.9.9+other')).rejects.toThrow(
      /built with model 1\.0\.0\+\w+, not the loaded model 9\.9\.9\+other/,
    );
  });
});
