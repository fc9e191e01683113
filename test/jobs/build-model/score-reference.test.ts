import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildScoreReference,
  DEFAULT_REFERENCE_INPUTS,
  SCORE_REFERENCE_PATH,
  serializeScoreReference,
  weightedQuantiles,
} from '../../../jobs/build-model/score-reference.js';

describe('weightedQuantiles', () => {
  it('equal weights: the quantiles of the values, lowest at 0 and highest at 1', () => {
    const q = weightedQuantiles([3, 1, 2, 4], [1, 1, 1, 1]);
    expect(q).toHaveLength(1001);
    expect([q[0], q[250], q[251], q[500], q[750], q[1000]]).toEqual([1, 1, 2, 2, 3, 4]);
  });

  it('one heavy value: covers the share of the weight it holds', () => {
    // 10 holds 90 % of the weight: every quantile from 0.1 on is 10.
    const q = weightedQuantiles([10, 0], [9, 1]);
    expect([q[0], q[100], q[101], q[1000]]).toEqual([0, 0, 10, 10]);
  });
});

describe('data/model/score-reference.json', () => {
  it('rebuilt from the committed model, population and geography: the same bytes', async () => {
    const rebuilt = serializeScoreReference(await buildScoreReference(DEFAULT_REFERENCE_INPUTS));
    expect(rebuilt === readFileSync(SCORE_REFERENCE_PATH, 'utf8')).toBe(true);
  }, 60_000);
});
