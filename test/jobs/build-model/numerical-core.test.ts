/**
 * The model build's numerical core against reference values computed once by an independent implementation
 * (reference/make-reference.py: scipy's trust-region optimiser on the exact likelihoods, the spline terms
 * solved from their defining conditions and checked against scipy's natural cubic spline, raking through
 * its convex dual). The inputs are synthetic and stored with the reference values in
 * reference/numerical-core.json, which also records the command and the numpy and scipy versions; the
 * tests need neither Python nor the raw data.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CUT_NAMES } from '../../../jobs/build-model/calibrate.js';
import { designRow, P, splineTerms } from '../../../jobs/build-model/design.js';
import type { Household } from '../../../jobs/build-model/extract-households.js';
import { fitGlm, type Link } from '../../../jobs/build-model/glm.js';
import type { CutDimension } from '../../../jobs/build-model/published.js';
import { reweightTo2023 } from '../../../jobs/build-model/reweight.js';

interface GlmCase {
  name: string;
  link: Link;
  p: number;
  x: number[];
  y: number[];
  w: number[];
  offset?: number[];
  beta: number[];
  se: number[];
}
interface SplineCase {
  name: string;
  knots: number[];
  x: number[];
  terms: number[][];
}
interface RakingHousehold {
  age: number;
  isHomeowner: boolean;
  region: number;
  urban: boolean;
  famType: number;
  weight: number;
}
interface Reference {
  glm: GlmCase[];
  spline: SplineCase[];
  design: { incomeKnots: number[]; rows: { input: Parameters<typeof designRow>[0]; row: number[] }[] };
  raking: {
    households: RakingHousehold[];
    counts: Record<string, number[]>;
    weights: number[];
  };
}

const reference = JSON.parse(
  readFileSync(new URL('./reference/numerical-core.json', import.meta.url), 'utf8'),
) as Reference;

/**
 * Largest gap allowed, relative to the reference value (absolute where it is below 1), about ten times the
 * largest gap measured with numpy 2.4 / scipy 1.17 (GLM 9.5e-9, splines 7e-18, raking 7.2e-12): IRLS stops
 * on a relative deviance change of 1e-10 and carries a 1e-8 ridge; a closed form and a solved one agree to
 * rounding; IPF stops once no factor moves more than 1e-10.
 */
const GLM_TOLERANCE = 1e-7;
const SPLINE_TOLERANCE = 1e-13;
const RAKING_TOLERANCE = 1e-10;

function expectClose(actual: ArrayLike<number>, expected: readonly number[], tolerance: number): void {
  expect(actual.length).toBe(expected.length);
  const gaps = expected.map((e, i) => Math.abs(actual[i]! - e) / Math.max(1, Math.abs(e)));
  expect(Math.max(...gaps)).toBeLessThanOrEqual(tolerance);
}

describe('fitGlm against scipy maximum likelihood', () => {
  it.each(reference.glm.map((c) => [c.name, c] as const))(
    '%s: coefficients and sandwich standard errors equal the reference',
    (_, c) => {
      const fit = fitGlm(
        Float64Array.from(c.x),
        c.p,
        Float64Array.from(c.y),
        Float64Array.from(c.w),
        c.link,
        c.offset ? Float64Array.from(c.offset) : undefined,
      );
      expectClose(fit.beta, c.beta, GLM_TOLERANCE);
      expectClose(fit.se, c.se, GLM_TOLERANCE);
    },
  );
});

describe('splineTerms (restricted cubic spline) against terms solved from their definition', () => {
  it.each(reference.spline.map((c) => [c.name, c] as const))(
    '%s: every term at every point, inside, at and beyond the knots, equals the reference',
    (_, c) => {
      const out = new Float64Array(c.knots.length - 2);
      c.x.forEach((x, i) => {
        splineTerms(x, c.knots, out, 0);
        expectClose(out, c.terms[i]!, SPLINE_TOLERANCE);
      });
    },
  );
});

describe('designRow', () => {
  it('every tenure, region and clamped size: the 20 columns equal the documented layout', () => {
    const out = new Float64Array(P);
    for (const { input, row } of reference.design.rows) {
      designRow(input, reference.design.incomeKnots, out, 0);
      expectClose(out, row, SPLINE_TOLERANCE);
    }
  });
});

describe('reweightTo2023 (raking) against the raking dual solved by scipy', () => {
  it('400 synthetic households, five dimensions: raked weights equal the reference; region 0 and weight 0 keep theirs', () => {
    const { households, counts, weights } = reference.raking;
    const full: Household[] = households.map((h, i) => ({
      ...h,
      newid: String(i),
      monthsInScope: 3,
      members: 2,
      cutenure: h.isHomeowner ? 1 : 4,
      stateFips: '01',
      popsize: 0,
      incRank: 0,
      grossIncome: 50_000,
      takeHome: 45_000,
      spending: new Float64Array(0),
    }));
    const published = (d: CutDimension) => {
      const column = counts[d];
      if (!column) throw new Error(`the reference has no counts for ${d}`);
      return new Map(CUT_NAMES[d].map((cut, j) => [cut, column[j]!]));
    };
    const raked = reweightTo2023(full, published).map((h) => h.weight);
    expectClose(raked, weights, RAKING_TOLERANCE);
  });
});
