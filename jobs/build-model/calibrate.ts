/**
 * Calibrates the fitted 2014 structure to the 2023 published margins by raking: multiplicative factors per
 * category on age and income (smooth: piecewise linear in log-factor between cut centres, flat beyond, so
 * no cliff at a bracket edge), tenure, region and composition (the household type the profile
 * gives, or the mixture over P(type | profile) when it does not: src/model/composition.ts). The model's weighted mean over the
 * calibration population (reweight.ts) in each published cut is driven to the cut's 2023 mean.
 * The area table is not raked: its rural cut (2020 Census definition) is not the microdata's rural
 * (rural-effects.ts); the rural contrast is the microdata's, shrunk, and the area table a check.
 *
 * A smooth factor spills over into neighbouring cuts (and income cuts are pre-tax quintiles while the
 * factor lives on take-home income), so a plain "multiply by target/model" update oscillates; each smooth
 * dimension takes a Newton step instead: the Jacobian of the cut log-means in the knot log-factors is a
 * small row-stochastic matrix, solved exactly.
 */
import type { SpendingCategory } from './ce-categories.js';
import { householdTypeIndex } from './composition.js';
import type { Household } from './extract-households.js';
import type { CutDimension, CutTargets } from './published.js';

export const AGE_CUTS = [
  ['Under 25 years', 0, 25, 22],
  ['25-34 years', 25, 35, 30],
  ['35-44 years', 35, 45, 40],
  ['45-54 years', 45, 55, 50],
  ['55-64 years', 55, 65, 60],
  ['65-74 years', 65, 75, 70],
  ['75 years and older', 75, 200, 80],
] as const;
export const INCOME_CUTS = [
  'Lowest 20 percent',
  'Second 20 percent',
  'Third 20 percent',
  'Fourth 20 percent',
  'Highest 20 percent',
] as const;
export const REGION_CUTS = ['Northeast', 'Midwest', 'South', 'West'] as const;

export const COMPOSITION_CUTS = [
  'Married couple consumer units',
  'One parent, at least one child under 18',
  'Single person and other consumer units',
] as const;

export const CUT_NAMES: Readonly<Record<CutDimension, readonly string[]>> = {
  age: AGE_CUTS.map(([cut]) => cut),
  income: INCOME_CUTS,
  tenure: ['Renter', 'Homeowner'],
  region: REGION_CUTS,
  area: ['Rural', 'Urban'],
  composition: COMPOSITION_CUTS,
};

/**
 * Index into CUT_NAMES[dimension] of the published cut of every household (−1: in none, or weight 0).
 * Income quintiles are weighted quintiles of income before taxes (FINCBTXM, imputed), as in the published
 * tables since 2013; the extract's INC_RANK does not follow FINCBTXM (its bottom decile has a mean take-home
 * of $51k) and is not used.
 */
export function cutIndex(
  households: readonly Household[],
  weights: Float64Array,
  dimension: CutDimension,
): Int32Array {
  if (dimension === 'income') {
    const order = households
      .map((_, i) => i)
      .filter((i) => weights[i]! > 0)
      .sort((a, b) => households[a]!.grossIncome - households[b]!.grossIncome || a - b);
    const total = order.reduce((s, i) => s + weights[i]!, 0);
    const out = new Int32Array(households.length).fill(-1);
    let cumulative = 0;
    for (const i of order) {
      out[i] = Math.min(4, Math.floor(((cumulative + weights[i]! / 2) / total) * 5));
      cumulative += weights[i]!;
    }
    return out;
  }
  return Int32Array.from(households, (h, i) => {
    if (weights[i] === 0) return -1;
    switch (dimension) {
      case 'age':
        return AGE_CUTS.findIndex(([, lo, hi]) => h.age >= lo && h.age < hi);
      case 'tenure':
        return h.isHomeowner ? 1 : 0;
      case 'region':
        return h.region >= 1 && h.region <= 4 ? h.region - 1 : -1;
      case 'area':
        return h.urban ? 1 : 0;
      default:
        return householdTypeIndex(h.famType);
    }
  });
}

/** The all-CU column every published table carries next to its cuts. */
const ALL_CUS = 'All consumer units';

/** Dimensions whose levels are within this (in ln) of the common level are matched exactly. */
const LEVEL_TOLERANCE = Math.log(1.025);

/**
 * The published tables can disagree on the all-CU level a category has in the calibration population: each
 * dimension's implied mean (its cut means weighted by the population's cut shares). Over the 2014 CUs they
 * did (area type most: 19 % rural in 2023 vs 8 % of the 2014 CUs); over the population reweighted to the
 * 2023 CU counts (reweight.ts) every implied level is its table's all-CU mean and they agree to 0.25 %.
 * Raking to conflicting margins cannot converge (the last dimension raked wins); instead every dimension's
 * targets are rescaled to one common level per category, chosen so that as many dimensions as possible are
 * within 2.5 % of their own level (ties: the smallest largest gap), and the within-dimension contrasts are
 * matched exactly.
 *
 * Suppressed cells (BLS "c/") are filled first (fillSuppressed, split by `fitted`: per category, the fitted
 * model's mean for every household).
 */
export function harmonizeLevels(
  households: readonly Household[],
  categories: readonly SpendingCategory[],
  targets: Readonly<Record<CutDimension, CutTargets>>,
  fitted: readonly Float64Array[],
): Record<CutDimension, CutTargets> {
  const w = Float64Array.from(households, (h) => (h.region > 0 ? h.weight : 0));
  const dims = Object.keys(CUT_NAMES) as CutDimension[];
  const members = dims.map((d) => cutIndex(households, w, d));
  const shares = dims.map((d, k) => {
    const s = new Float64Array(CUT_NAMES[d].length);
    members[k]!.forEach((j, i) => {
      if (j >= 0) s[j]! += w[i]!;
    });
    const total = s.reduce((a, b) => a + b, 0);
    return s.map((x) => x / total);
  });
  const out = Object.fromEntries(
    dims.map((d) => [d, new Map([...targets[d]].map(([cut, m]) => [cut, new Map(m)]))]),
  ) as Record<CutDimension, CutTargets>;
  categories.forEach((category, c) => {
    dims.forEach((d, k) => {
      fillSuppressed(
        out[d],
        category,
        d,
        shares[k]!,
        cutMeans(fitted[c]!, w, members[k]!, shares[k]!.length),
      );
    });
    const levels = dims.map((d, k) => {
      let s = 0;
      for (let j = 0; j < CUT_NAMES[d].length; j++) {
        const t = out[d].get(CUT_NAMES[d][j]!)?.get(category);
        if (t === undefined || !(t > 0)) return Number.NaN;
        s += shares[k]![j]! * t;
      }
      return Math.log(s);
    });
    const known = levels.filter(Number.isFinite);
    if (known.length === 0) return;
    let best = known[0]!;
    let bestCount = -1;
    let bestGap = Number.POSITIVE_INFINITY;
    for (const a of known)
      for (const b of known) {
        const level = (a + b) / 2;
        const gaps = known.map((l) => Math.abs(l - level));
        const count = gaps.filter((g) => g <= LEVEL_TOLERANCE).length;
        const gap = Math.max(...gaps.filter((g) => g <= LEVEL_TOLERANCE), 0);
        if (count > bestCount || (count === bestCount && gap < bestGap - 1e-12)) {
          best = level;
          bestCount = count;
          bestGap = gap;
        }
      }
    dims.forEach((d, k) => {
      if (!Number.isFinite(levels[k]!)) return;
      const factor = Math.exp(best - levels[k]!);
      for (const cut of CUT_NAMES[d]) {
        const m = out[d].get(cut)!;
        m.set(category, m.get(category)! * factor);
      }
    });
  });
  return out;
}

/**
 * Published columns that pool some of a dimension's cuts, besides the all-CU column: education by age
 * publishes "65 years and older" while its 75+ cell is suppressed.
 */
const POOLED_CUTS: Partial<Record<CutDimension, ReadonlyMap<string, readonly string[]>>> = {
  age: new Map([['65 years and older', ['65-74 years', '75 years and older']]]),
};

/**
 * Fills a category's suppressed cells (BLS "c/") of one dimension in place. A published column pooling some
 * cuts (the all-CU column pools them all) has the CU-count-weighted mean of its cuts as its mean, and the
 * calibration population has the 2023 CU shares (reweight.ts), so its suppressed cuts together hold what
 * its published cuts leave. Left free, they cannot absorb the level the other dimensions set and every
 * published cut of the dimension ends off by the gap (cash contributions by age: 6 %; toys by age, 4 of 7
 * cuts suppressed: 8 %). One suppressed cut takes the whole remainder; several share it by the fitted
 * structure (`fittedMeans`, the 2014 model's mean per cut), scaled by one common factor: the least change
 * from the fitted contrasts that meets the published total. Narrower pools are filled first, so the
 * all-CU remainder is only split among cuts no narrower column pins down. A remainder ≤ 0 (published
 * rounding against a tiny suppressed cut) leaves the cells suppressed; calibrate then ties them to a neighbour.
 */
export function fillSuppressed(
  targets: CutTargets,
  category: SpendingCategory,
  dimension: CutDimension,
  shares: Float64Array,
  fittedMeans: Float64Array,
): void {
  const cuts = CUT_NAMES[dimension];
  const pools: [string, readonly string[]][] = [...(POOLED_CUTS[dimension] ?? []), [ALL_CUS, cuts]];
  for (const [column, pooled] of pools) {
    const mean = targets.get(column)?.get(category);
    if (mean === undefined) continue;
    const missing: number[] = [];
    let remainder = 0;
    let fittedMissing = 0;
    for (const cut of pooled) {
      const j = cuts.indexOf(cut);
      const value = targets.get(cut)!.get(category);
      remainder += shares[j]! * mean;
      if (value === undefined) {
        missing.push(j);
        fittedMissing += shares[j]! * fittedMeans[j]!;
      } else remainder -= shares[j]! * value;
    }
    if (missing.length === 0 || !(remainder > 0)) continue;
    for (const j of missing)
      targets.get(cuts[j]!)!.set(category, (fittedMeans[j]! * remainder) / fittedMissing);
  }
}

/** Weighted mean of `values` over the households of each of `m` cuts. */
function cutMeans(values: Float64Array, w: Float64Array, member: Int32Array, m: number): Float64Array {
  const sums = new Float64Array(m);
  const totals = new Float64Array(m);
  member.forEach((j, i) => {
    if (j < 0) return;
    sums[j]! += w[i]! * values[i]!;
    totals[j]! += w[i]!;
  });
  return sums.map((s, j) => s / totals[j]!);
}

/** Piecewise-linear interpolation of log-factors at knots xs (ascending), flat outside. */
export function smoothFactor(xs: readonly number[], logFactors: Float64Array, x: number): number {
  const last = xs.length - 1;
  if (x <= xs[0]!) return Math.exp(logFactors[0]!);
  if (x >= xs[last]!) return Math.exp(logFactors[last]!);
  let j = 0;
  while (x > xs[j + 1]!) j++;
  const f = (x - xs[j]!) / (xs[j + 1]! - xs[j]!);
  return Math.exp(logFactors[j]! + f * (logFactors[j + 1]! - logFactors[j]!));
}

export interface Calibration {
  /** Per category: log-factors at the age-cut centres and at the income-cut knots (u, 2014 dollars). */
  readonly ageLog: Float64Array[];
  readonly incomeLog: Float64Array[];
  readonly incomeKnots: number[];
  /** Per category: factor for renter, owner; per region 1…4; per HOUSEHOLD_TYPES. */
  readonly tenure: Float64Array[];
  readonly region: Float64Array[];
  readonly composition: Float64Array[];
}

/** Sweeps over the dimensions; stops earlier once every cut is within CONVERGED (in ln) of its target. */
const SWEEPS = 50;
const CONVERGED = 1e-7;

/** The raked dimensions (not area: see the module comment). */
type RakedDimension = Exclude<CutDimension, 'area'>;
const DIMENSIONS: readonly RakedDimension[] = ['age', 'income', 'tenure', 'region', 'composition'];

/** Weights of the piecewise-linear hat functions at x (flat outside the knots); sums to 1. */
export function hatWeights(xs: readonly number[], x: number, out: Float64Array): void {
  out.fill(0);
  const last = xs.length - 1;
  if (x <= xs[0]!) out[0] = 1;
  else if (x >= xs[last]!) out[last] = 1;
  else {
    let j = 0;
    while (x > xs[j + 1]!) j++;
    const f = (x - xs[j]!) / (xs[j + 1]! - xs[j]!);
    out[j] = 1 - f;
    out[j + 1] = f;
  }
}

export function calibrate(
  households: readonly Household[],
  u: Float64Array,
  base: Float64Array[],
  categories: readonly SpendingCategory[],
  targets: Readonly<Record<CutDimension, CutTargets>>,
): Calibration {
  const n = households.length;
  const w = Float64Array.from(households, (h) => (h.region > 0 ? h.weight : 0));
  const ageKnots = AGE_CUTS.map((c) => c[3] as number);
  const member = DIMENSIONS.map((d) => cutIndex(households, w, d));
  const incomeKnots = INCOME_CUTS.map((_, j) => weightedMedian(u, w, member[1]!, j));
  const frame: RakingFrame = {
    n,
    w,
    member,
    ageKnots,
    incomeKnots,
    ageBracket: knotBrackets(ageKnots, n, (i) => households[i]!.age),
    incomeBracket: knotBrackets(incomeKnots, n, (i) => u[i]!),
  };
  const result: Calibration = {
    ageLog: [],
    incomeLog: [],
    incomeKnots,
    tenure: [],
    region: [],
    composition: [],
  };
  const mu = new Float64Array(n);
  for (let c = 0; c < categories.length; c++) {
    const logs = rakeCategory(frame, base[c]!, categories[c]!, targets, mu);
    parkLevelInAge(logs);
    result.ageLog.push(logs.age);
    result.incomeLog.push(logs.income);
    result.tenure.push(logs.tenure.map(Math.exp));
    result.region.push(logs.region.map(Math.exp));
    result.composition.push(logs.composition.map(Math.exp));
  }
  return result;
}

/** Every household's lower knot index in one smooth dimension, and the hat weight on that knot. */
interface KnotBracket {
  readonly at: Int32Array;
  readonly lower: Float64Array;
}

/** What the raking of every category reads: weights, cut membership and the smooth dimensions' knots. */
interface RakingFrame {
  readonly n: number;
  readonly w: Float64Array;
  /** Per dimension (DIMENSIONS order), each household's cut index. */
  readonly member: readonly Int32Array[];
  readonly ageKnots: readonly number[];
  readonly incomeKnots: readonly number[];
  readonly ageBracket: KnotBracket;
  readonly incomeBracket: KnotBracket;
}

/** One category's log-factors per raked dimension (knot values for age and income, cut values for the others). */
type LogFactors = Record<RakedDimension, Float64Array>;

/** Every household sits between two knots of each smooth dimension: lower knot index and weight on it. */
function knotBrackets(knots: readonly number[], n: number, x: (i: number) => number): KnotBracket {
  const at = new Int32Array(n);
  const lower = new Float64Array(n);
  const one = new Float64Array(knots.length);
  for (let i = 0; i < n; i++) {
    hatWeights(knots, x(i), one);
    const k = Math.min(
      Math.max(
        one.findIndex((v) => v > 0),
        0,
      ),
      knots.length - 2,
    );
    at[i] = k;
    lower[i] = one[k]!;
  }
  return { at, lower };
}

/** Sweeps the dimensions in turn until no published cut's log-ratio moves more than CONVERGED. */
function rakeCategory(
  frame: RakingFrame,
  base: Float64Array,
  category: SpendingCategory,
  targets: Readonly<Record<CutDimension, CutTargets>>,
  mu: Float64Array,
): LogFactors {
  const logs: LogFactors = {
    age: new Float64Array(frame.ageKnots.length),
    income: new Float64Array(frame.incomeKnots.length),
    tenure: new Float64Array(2),
    region: new Float64Array(4),
    composition: new Float64Array(CUT_NAMES.composition.length),
  };
  for (let sweep = 0, change = 1; sweep < SWEEPS && change > CONVERGED; sweep++) {
    change = 0;
    for (const [d, dim] of DIMENSIONS.entries()) {
      modelMeans(frame, logs, base, mu);
      change = Math.max(change, rakeDimension(frame, logs, mu, d, targets[dim], category));
    }
  }
  return logs;
}

/** μ = base × exp(sum of the household's log-factors), for every household with weight. */
function modelMeans(frame: RakingFrame, logs: LogFactors, base: Float64Array, mu: Float64Array): void {
  const { n, w, ageBracket, incomeBracket } = frame;
  const [, , tenureCut, regionCut, compositionCut] = frame.member as [
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
  ];
  for (let i = 0; i < n; i++) {
    if (w[i] === 0) continue;
    const a = ageBracket.at[i]!;
    const b = incomeBracket.at[i]!;
    const fa = ageBracket.lower[i]!;
    const fb = incomeBracket.lower[i]!;
    let log =
      fa * logs.age[a]! + (1 - fa) * logs.age[a + 1]! + fb * logs.income[b]! + (1 - fb) * logs.income[b + 1]!;
    log += logs.tenure[tenureCut[i]!]! + logs.composition[compositionCut[i]!]!;
    if (regionCut[i]! >= 0) log += logs.region[regionCut[i]!]!;
    mu[i] = base[i]! * Math.exp(log);
  }
}

/** One raking step on dimension `d`; returns the largest |log(target / model)| over its published cuts. */
function rakeDimension(
  frame: RakingFrame,
  logs: LogFactors,
  mu: Float64Array,
  d: number,
  targets: CutTargets,
  category: SpendingCategory,
): number {
  const dim = DIMENSIONS[d]!;
  const cuts = CUT_NAMES[dim];
  const smooth = dim === 'age' ? frame.ageBracket : dim === 'income' ? frame.incomeBracket : null;
  const { sums, weights, jacobian } = cutTotals(frame, frame.member[d]!, mu, cuts.length, smooth);
  const residual = Float64Array.from(cuts, (cut, j) => {
    const target = targets.get(cut)?.get(category);
    if (!targets.has(cut) || weights[j] === 0) throw new Error(`no ${dim} cut ${cut}`);
    const model = sums[j]! / weights[j]!;
    return target !== undefined && model > 0 && target > 0 ? Math.log(target / model) : Number.NaN;
  });
  let change = 0;
  for (const r of residual) if (Number.isFinite(r)) change = Math.max(change, Math.abs(r));
  if (smooth) newtonStep(logs[dim], jacobian, residual, sums);
  else shiftCuts(logs[dim], residual);
  return change;
}

/**
 * Per cut: Σ w·μ, Σ w, and for a smooth dimension the Jacobian's numerators (Σ w·μ·hat weight of each knot).
 */
function cutTotals(
  { n, w }: RakingFrame,
  member: Int32Array,
  mu: Float64Array,
  m: number,
  smooth: KnotBracket | null,
): { sums: Float64Array; weights: Float64Array; jacobian: Float64Array } {
  const sums = new Float64Array(m);
  const weights = new Float64Array(m);
  const jacobian = new Float64Array(m * m);
  for (let i = 0; i < n; i++) {
    const j = member[i]!;
    if (j < 0 || w[i] === 0) continue;
    sums[j]! += w[i]! * mu[i]!;
    weights[j]! += w[i]!;
    if (smooth) {
      const k = smooth.at[i]!;
      const f = smooth.lower[i]!;
      jacobian[j * m + k]! += w[i]! * mu[i]! * f;
      jacobian[j * m + k + 1]! += w[i]! * mu[i]! * (1 - f);
    }
  }
  return { sums, weights, jacobian };
}

/** A cut dimension moves each cut by its residual; a suppressed cut (no published mean) by the others' mean. */
function shiftCuts(logs: Float64Array, residual: Float64Array): void {
  const known = residual.filter(Number.isFinite);
  const mean = known.reduce((a, b) => a + b, 0) / Math.max(known.length, 1);
  for (let j = 0; j < logs.length; j++) logs[j]! += Number.isFinite(residual[j]!) ? residual[j]! : mean;
}

/** A smooth dimension takes a Newton step on its knots: `jacobian` holds numerators, `sums` the row sums. */
function newtonStep(
  logs: Float64Array,
  jacobian: Float64Array,
  residual: Float64Array,
  sums: Float64Array,
): void {
  const m = logs.length;
  for (let j = 0; j < m; j++) {
    if (Number.isFinite(residual[j]!)) {
      for (let k = 0; k < m; k++) jacobian[j * m + k]! /= sums[j]!;
      continue;
    }
    // A suppressed cut's knot follows its neighbour (flat), so it cannot drift into a cliff.
    const neighbour = j === 0 ? 1 : j - 1;
    jacobian.fill(0, j * m, (j + 1) * m);
    jacobian[j * m + j] = 1;
    jacobian[j * m + neighbour] = -1;
    residual[j] = logs[neighbour]! - logs[j]!;
  }
  const step = solve(jacobian, residual, m);
  for (let k = 0; k < m; k++) logs[k]! += step[k]!;
}

/**
 * The level is shared by all five raked dimensions; park it in the age factors (a constant added to every knot is a
 * constant factor, since the hat weights sum to one) so the others read as relative effects.
 */
function parkLevelInAge(logs: LogFactors): void {
  for (const dim of ['income', 'tenure', 'region', 'composition'] as const) {
    const values = logs[dim];
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    for (let j = 0; j < values.length; j++) values[j]! -= mean;
    for (let j = 0; j < logs.age.length; j++) logs.age[j]! += mean;
  }
}

/** Two calibrations applied one after the other, as one (log-factors add, factors multiply). */
export function combine(a: Calibration, b: Calibration): Calibration {
  const add = (x: Float64Array[], y: Float64Array[]) => x.map((v, c) => v.map((e, j) => e + y[c]![j]!));
  const times = (x: Float64Array[], y: Float64Array[]) => x.map((v, c) => v.map((e, j) => e * y[c]![j]!));
  return {
    ageLog: add(a.ageLog, b.ageLog),
    incomeLog: add(a.incomeLog, b.incomeLog),
    incomeKnots: a.incomeKnots,
    tenure: times(a.tenure, b.tenure),
    region: times(a.region, b.region),
    composition: times(a.composition, b.composition),
  };
}

/** Gaussian elimination with partial pivoting for the small (≤ 7×7) Newton systems; `a` is overwritten. */
function solve(a: Float64Array, b: Float64Array, m: number): Float64Array {
  const x = Float64Array.from(b);
  for (let col = 0; col < m; col++) {
    swapInPivot(a, x, m, col);
    eliminateBelow(a, x, m, col);
  }
  backSubstitute(a, x, m);
  return x;
}

/** Moves the row with the largest |a[r][col]| (r ≥ col) to row `col`. */
function swapInPivot(a: Float64Array, x: Float64Array, m: number, col: number): void {
  let pivot = col;
  for (let r = col + 1; r < m; r++) if (Math.abs(a[r * m + col]!) > Math.abs(a[pivot * m + col]!)) pivot = r;
  if (pivot === col) return;
  for (let k = 0; k < m; k++) [a[col * m + k], a[pivot * m + k]] = [a[pivot * m + k]!, a[col * m + k]!];
  [x[col], x[pivot]] = [x[pivot]!, x[col]!];
}

function eliminateBelow(a: Float64Array, x: Float64Array, m: number, col: number): void {
  const d = a[col * m + col]!;
  for (let r = col + 1; r < m; r++) {
    const f = a[r * m + col]! / d;
    for (let k = col; k < m; k++) a[r * m + k]! -= f * a[col * m + k]!;
    x[r]! -= f * x[col]!;
  }
}

/** Solves the upper-triangular system left by the elimination, in place in x. */
function backSubstitute(a: Float64Array, x: Float64Array, m: number): void {
  for (let r = m - 1; r >= 0; r--) {
    let s = x[r]!;
    for (let k = r + 1; k < m; k++) s -= a[r * m + k]! * x[k]!;
    x[r] = s / a[r * m + r]!;
  }
}

/** Weighted median of u over the households in cut j. */
function weightedMedian(u: Float64Array, w: Float64Array, cut: Int32Array, j: number): number {
  const xs = Array.from(u.keys())
    .filter((i) => cut[i] === j)
    .sort((a, b) => u[a]! - u[b]! || a - b);
  const total = xs.reduce((s, i) => s + w[i]!, 0);
  let cumulative = 0;
  for (const i of xs) {
    cumulative += w[i]!;
    if (cumulative >= total / 2) return u[i]!;
  }
  throw new Error('empty income cut');
}
