/** The budget-constrained price response (src/model/price.ts) on hand-made parities and shares. */
import { describe, expect, it } from 'vitest';
import { logPriceLevel, type PriceBudget, writeLogPriceFactors } from '../../src/model/price.js';

// Three categories keyed to components 1 (goods), 2 (housing) and 4 (other) of RPP_COMPONENTS.
const COMPONENT = [1, 2, 4];
const ELASTICITY = [0, 0.75, 1.06];
const BUDGET = { totalElasticity: 0.25, share: [0.4, 0.2, 0.4] };
/** ln parities: all 115, goods 105, housing 170, utilities 100, other 110. */
const DEAR = [115, 105, 170, 100, 110].map((rpp) => Math.log(rpp / 100));

function factors(logRpp: number[], budget: PriceBudget | undefined): number[] {
  const out = new Float64Array(COMPONENT.length);
  writeLogPriceFactors(logRpp, COMPONENT, ELASTICITY, budget, out);
  return Array.from(out, Math.exp);
}

describe('writeLogPriceFactors', () => {
  it('a dear place: the share-weighted total moves by the price level to the total elasticity only', () => {
    const level = logPriceLevel(DEAR, COMPONENT, BUDGET.share);
    const total = factors(DEAR, BUDGET).reduce((sum, f, c) => sum + BUDGET.share[c]! * f, 0);
    expect(total).toBeCloseTo(Math.exp(BUDGET.totalElasticity * level), 12);
  });

  it('a dear place: the shares move toward housing, and goods fall below national', () => {
    const [goods, housing, other] = factors(DEAR, BUDGET) as [number, number, number];
    expect(housing).toBeGreaterThan(other);
    expect(other).toBeGreaterThan(goods);
    expect(goods).toBeLessThan(1);
  });

  it('national prices: every factor is 1', () => {
    for (const f of factors([0, 0, 0, 0, 0], BUDGET)) expect(f).toBeCloseTo(1, 12);
  });

  it('no budget: each factor is its own elasticity times its parity', () => {
    expect(factors(DEAR, undefined)).toEqual(COMPONENT.map((k, c) => Math.exp(ELASTICITY[c]! * DEAR[k]!)));
  });
});
