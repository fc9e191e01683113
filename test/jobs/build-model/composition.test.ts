/**
 * The household-type logits of the build (jobs/build-model/composition.ts) on small synthetic households:
 * CE FAM_TYPE groups, and the fitted P(type | known fields) reproducing the shares it was fitted on.
 */
import { describe, expect, it } from 'vitest';
import { fitCompositionLogits, householdTypeIndex } from '../../../jobs/build-model/composition.js';
import type { Household } from '../../../jobs/build-model/extract-households.js';
import { HOUSEHOLD_TYPES } from '../../../src/contract/schemas.js';
import type { ModelArtifact } from '../../../src/model/artifact.js';
import { CompositionWeigher } from '../../../src/model/composition.js';

const household = (n: number, famType: number, members: number): Household => ({
  newid: String(n),
  weight: 1 + (n % 3),
  monthsInScope: 3,
  age: 30 + (n % 40),
  members,
  cutenure: 1,
  isHomeowner: n % 2 === 0,
  stateFips: '01',
  region: 1 + (n % 4),
  urban: true,
  popsize: 0,
  incRank: 0,
  famType,
  grossIncome: 50_000,
  takeHome: 40_000,
  spending: new Float64Array(0),
});

describe('build-model household type', () => {
  it('unit: CE FAM_TYPE 1–5 is married_couple, 6–7 one_parent, 8–9 single_or_other', () => {
    const types = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((f) => HOUSEHOLD_TYPES[householdTypeIndex(f)]);
    expect(types).toEqual([
      ...Array(5).fill('married_couple'),
      'one_parent',
      'one_parent',
      'single_or_other',
      'single_or_other',
    ]);
  });

  it('scenario: only take-home known (one income) → the mixture weights are the population shares', () => {
    // 300 households: famType 2 (married), 7 (one parent), 9 (other) in turn, weights 1, 2, 3 repeating.
    const households = Array.from({ length: 300 }, (_, n) => household(n, [2, 7, 9][n % 3]!, 3));
    const shares = [0, 0, 0];
    for (const h of households) shares[householdTypeIndex(h.famType)]! += h.weight;
    const total = shares.reduce((a, b) => a + b, 0);
    const u = Float64Array.from(households, () => Math.log(40_000));
    const logits = fitCompositionLogits(households, u, [18, 90], 8);
    // Factor rows 1, 10, 100 per type make the mixture read back the three probabilities.
    const artifact = {
      spendingCategories: 1,
      composition: [1, 10, 100],
      compositionLogit: logits,
      ageMin: 18,
      ageMax: 90,
      sizeMax: 8,
      incomeGrid: { uMin: Math.log(1_000), uStep: 0.1, points: 60 },
    } as unknown as ModelArtifact;
    const factors = new CompositionWeigher(artifact);
    factors.weigh({ net_annual_income: 40_000 }, Math.log(40_000));
    const mixed = factors.weights.reduce((sum, weight, type) => sum + weight * factors.factors[type]!, 0);
    expect(mixed).toBeCloseTo((shares[0]! + 10 * shares[1]! + 100 * shares[2]!) / total, 6);
  });
});
