/**
 * Rural effects: per category the rural households' spending over their fitted spending as urban ones,
 * its ln shrunk toward 0 by the between-category variance, and held within its 95 % interval.
 */
import { describe, expect, it } from 'vitest';
import { COLUMNS, P } from '../../../jobs/build-model/design.js';
import type { Household } from '../../../jobs/build-model/extract-households.js';
import { SPENDING } from '../../../jobs/build-model/fit.js';
import { estimateRuralEffects } from '../../../jobs/build-model/rural-effects.js';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../../src/contract/categories.js';
import { testHousehold } from './test-household.js';

const TOYS = CATEGORY_INDEX.toys_and_hobbies;
const FUEL = CATEGORY_INDEX.heating_fuels_other;

/**
 * Rural level and relative spread of each category's spending around it: toys 1.3 times the urban level
 * and noisy (±90 %), heating fuels 3 times (±60 %), far from the others, 0.9 or 1.1 (±10 %).
 */
const level = (c: number) => (c === TOYS ? 1.3 : c === FUEL ? 3 : c % 2 === 0 ? 0.9 : 1.1);
const spread = (c: number) => (c === TOYS ? 0.9 : c === FUEL ? 0.6 : 0.1);

/** 400 rural CUs (the fit predicts each at its category's rural level × 1000) and 400 urban ones. */
const sample: Household[] = Array.from({ length: 800 }, (_, i) => {
  const urban = i >= 400;
  const spending = new Float64Array(CATEGORY_COUNT);
  SPENDING.forEach((_, c) => {
    const around = urban ? 1000 : level(c) * 1000;
    spending[c] = around * (1 + (i % 2 === 0 ? -1 : 1) * spread(c));
  });
  return testHousehold(i, spending, { urban });
});
const predicted = SPENDING.map((_, c) =>
  Float64Array.from(sample, (h) => (h.urban ? 1000 : level(c) * 1000)),
);
// The fit's urban term: urban spending over rural at the same characteristics, 1 / the rural level.
const fitted = {
  beta: SPENDING.map((_, c) => {
    const beta = new Float64Array(P);
    beta[COLUMNS.urban] = -Math.log(level(c));
    return beta;
  }),
};
const effects = estimateRuralEffects(sample, fitted, predicted);

describe('estimateRuralEffects', () => {
  it('raw: rural spending over the urban prediction, on the 400 rural CUs, with a 95 % interval around it', () => {
    for (const e of effects.categories) {
      const c = SPENDING.indexOf(e.category);
      expect(e.households).toBe(400);
      expect(e.raw).toBeCloseTo(level(c), 12);
      expect(e.low).toBeLessThan(e.raw);
      expect(e.high).toBeGreaterThan(e.raw);
    }
    expect(effects.tau).toBeGreaterThan(0);
  });

  it('a noisy ratio (toys, 1.3 ± 90 %) is shrunk toward 1 and shipped, inside its interval', () => {
    const toys = effects.categories[TOYS]!;
    expect(toys.factor).toBe(toys.shrunk);
    expect(toys.held).toBe(false);
    expect(toys.factor).toBeGreaterThan(1);
    expect(toys.factor).toBeLessThan(toys.raw);
    expect(toys.factor).toBeGreaterThanOrEqual(toys.low);
  });

  it('a ratio far from the others (heating fuels, 3) that the shrinkage pulls out of its interval is held at its nearer end', () => {
    const fuel = effects.categories[FUEL]!;
    expect(fuel.shrunk).toBeLessThan(fuel.low);
    expect(fuel.held).toBe(true);
    expect(fuel.factor).toBe(fuel.low);
  });

  it('every shipped factor lies within its interval; the total pools the categories', () => {
    for (const e of effects.categories) {
      expect(e.factor).toBeGreaterThanOrEqual(e.low);
      expect(e.factor).toBeLessThanOrEqual(e.high);
    }
    const mean = SPENDING.reduce((a, _, c) => a + level(c), 0) / SPENDING.length;
    expect(effects.total.raw).toBeCloseTo(mean, 12);
  });
});
