/**
 * The shipped artifact's distribution section through the public API (loadSpendingModel → ranges): the
 * percentiles' order, their tie to the means, interpolation, tenure slots, and the artifact check.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_COUNT, CATEGORY_INDEX, SPENDING_CATEGORY_COUNT } from '../../src/contract/categories.js';
import { type ModelArtifact, RANGE_PERCENTILES } from '../../src/model/artifact.js';
import { DEFAULT_MODEL_PATH, loadSpendingModel } from '../../src/model/load.js';
import { checkArtifact } from '../../src/model/parse.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';
import { NATIONAL } from './places.js';

let model: SpendingModel;
let artifact: ModelArtifact;
beforeAll(async () => {
  model = await loadSpendingModel();
  artifact = JSON.parse(await readFile(DEFAULT_MODEL_PATH, 'utf8'));
});

function rangesOf(profile: Profile) {
  const means = new Float64Array(CATEGORY_COUNT);
  model.predict(profile, NATIONAL, means);
  const out = new Float64Array(SPENDING_CATEGORY_COUNT * RANGE_PERCENTILES.length);
  const peers = model.ranges(profile, means, out);
  return { means, out, peers };
}

describe('SpendingModel.ranges on the shipped artifact', () => {
  it('property: 0 ≤ p25 ≤ p50 ≤ p75 and peers ≥ 1 for take-home $1–$10M, tenure given or not', () => {
    for (let takeHome = 1; takeHome <= 1e7; takeHome *= 1.7) {
      for (const is_homeowner of [true, false, undefined]) {
        const { out, peers } = rangesOf({ net_annual_income: takeHome, age: 40, is_homeowner });
        for (let c = 0; c < SPENDING_CATEGORY_COUNT; c++) {
          const [p25, p50, p75] = out.subarray(3 * c, 3 * c + 3);
          expect(0 <= p25! && p25! <= p50! && p50! <= p75!, `${takeHome} ${c}`).toBe(true);
        }
        expect(peers).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('unit: at a grid point, each percentile is the mean × the renter slot ratio there; peers as stored', () => {
    const { uMin, uStep, points } = artifact.distribution.incomeGrid;
    const g = 8;
    const { means, out, peers } = rangesOf({
      net_annual_income: Math.exp(uMin + g * uStep),
      is_homeowner: false,
    });
    const food = CATEGORY_INDEX.food_home;
    const at = (g * SPENDING_CATEGORY_COUNT + food) * 3;
    const expected = artifact.distribution.ratio.slice(at, at + 3).map((r) => r * means[food]!);
    for (let p = 0; p < 3; p++) expect(out[3 * food + p]).toBeCloseTo(expected[p]!, 6);
    expect(peers).toBeCloseTo(artifact.distribution.peers[g]!, 6);
    expect(points).toBeGreaterThan(g);
  });

  it('food at home for a renter at $40k: median below the mean, p75 above it (right skew)', () => {
    const { means, out } = rangesOf({ net_annual_income: 40_000, age: 30, is_homeowner: false });
    const food = CATEGORY_INDEX.food_home;
    expect(out[3 * food + 1]).toBeLessThan(means[food]!);
    expect(out[3 * food + 2]).toBeGreaterThan(means[food]!);
  });

  it('vehicle purchases for a renter at $30k: p25 is 0 (most households buy no car in a year)', () => {
    const { out } = rangesOf({ net_annual_income: 30_000, is_homeowner: false });
    expect(out[3 * CATEGORY_INDEX.vehicle_purchase_and_lease]).toBe(0);
  });

  it('peers: fewer behind a renter at $250k than at $50k', () => {
    const rich = rangesOf({ net_annual_income: 250_000, is_homeowner: false }).peers;
    const middle = rangesOf({ net_annual_income: 50_000, is_homeowner: false }).peers;
    expect(rich).toBeLessThan(middle / 3);
  });
});

describe('model artifact check of the distribution section', () => {
  it('unit: checkArtifact, a ratio table one entry short → refused, naming its length and why', () => {
    const distribution = { ...artifact.distribution, ratio: artifact.distribution.ratio.slice(1) };
    expect(() => checkArtifact({ ...artifact, distribution })).toThrow(
      /\/distribution\/ratio has 5507 entries; it must have 5508 \(3 tenure slots × 17 grid points × 36 categories × 3 percentiles\)/,
    );
  });

  it('unit: checkArtifact, a negative ratio → refused, naming the entry', () => {
    const ratio = [...artifact.distribution.ratio];
    ratio[4] = -1;
    expect(() => checkArtifact({ ...artifact, distribution: { ...artifact.distribution, ratio } })).toThrow(
      'model artifact: /distribution/ratio/4 must be >= 0 (is -1)',
    );
  });
});
