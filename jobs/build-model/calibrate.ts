/**
 * Calibrates the fitted 2014 structure to the 2023 published margins by raking: multiplicative factors per
 * category on age and income (smooth: piecewise linear in log-factor between cut centres, flat beyond, so
 * no cliff at a bracket edge), tenure, region and area type. The model's weighted mean over the 2014
 * population in each published cut is driven to the cut's 2023 mean.
 *
 * A smooth factor spills over into neighbouring cuts (and income cuts are pre-tax quintiles while the
 * factor lives on take-home income), so a plain "multiply by target/model" update oscillates; each smooth
 * dimension takes a Newton step instead: the Jacobian of the cut log-means in the knot log-factors is a
 * small row-stochastic matrix, solved exactly.
 */
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

/** Published cut each household belongs to, per dimension (null: in none of the cuts). */
export function cutOf(h: Household, dimension: string): string | null {
  switch (dimension) {
    case 'age':
      return AGE_CUTS.find(([, lo, hi]) => h.age >= lo && h.age < hi)?.[0] ?? null;
    case 'income':
      return INCOME_CUTS[Math.min(4, Math.floor(h.incRank * 5))] ?? null;
    case 'tenure':
      return h.isHomeowner ? 'Homeowner' : 'Renter';
    case 'region':
      return REGION_CUTS[h.region - 1] ?? null;
    case 'area':
      return h.urban ? 'Urban' : 'Rural';
    case 'composition':
      return h.famType <= 5
        ? 'Married couple consumer units'
        : h.famType <= 7
          ? 'One parent, at least one child under 18'
          : 'Single person and other consumer units';
    default:
      throw new Error(`unknown cut dimension ${dimension}`);
  }
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
  /** Per category: factor for renter, owner; per region 1…4; rural, urban. */
  readonly tenure: Float64Array[];
  readonly region: Float64Array[];
  readonly area: Float64Array[];
}

const SWEEPS = 40;

type Dimension = 'age' | 'income' | 'tenure' | 'region' | 'area';
const DIMENSIONS: readonly Dimension[] = ['age', 'income', 'tenure', 'region', 'area'];
const DISCRETE_CUTS: Readonly<Record<'tenure' | 'region' | 'area', readonly string[]>> = {
  tenure: ['Renter', 'Homeowner'],
  region: REGION_CUTS,
  area: ['Rural', 'Urban'],
};

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
  targets: Readonly<Record<Dimension, CutTargets>>,
): Calibration {
  const n = households.length;
  const w = Float64Array.from(households, (h) => (h.region > 0 ? h.weight : 0));
  const ageKnots = AGE_CUTS.map((c) => c[3] as number);
  const incomeKnots = INCOME_CUTS.map((cut) =>
    weightedMedian(households, u, w, (h) => cutOf(h, 'income') === cut),
  );
  const cutNames: Record<Dimension, readonly string[]> = {
    age: AGE_CUTS.map(([cut]) => cut),
    income: INCOME_CUTS,
    ...DISCRETE_CUTS,
  };
  // Cut index of every household per dimension (−1: none).
  const member = DIMENSIONS.map((d) =>
    Int32Array.from(households, (h) => cutNames[d].indexOf(cutOf(h, d) ?? '')),
  );
  // Hat weights of every household on the age and income knots, computed once.
  const hats = (knots: readonly number[], x: (i: number) => number) => {
    const all = new Float64Array(n * knots.length);
    const one = new Float64Array(knots.length);
    for (let i = 0; i < n; i++) {
      hatWeights(knots, x(i), one);
      all.set(one, i * knots.length);
    }
    return all;
  };
  const ageHat = hats(ageKnots, (i) => households[i]!.age);
  const incomeHat = hats(incomeKnots, (i) => u[i]!);
  const result: Calibration = { ageLog: [], incomeLog: [], incomeKnots, tenure: [], region: [], area: [] };
  const mu = new Float64Array(n);
  for (let c = 0; c < categories.length; c++) {
    const category = categories[c]!;
    const logs: Record<Dimension, Float64Array> = {
      age: new Float64Array(ageKnots.length),
      income: new Float64Array(incomeKnots.length),
      tenure: new Float64Array(2),
      region: new Float64Array(4),
      area: new Float64Array(2),
    };
    const update = () => {
      for (let i = 0; i < n; i++) {
        if (w[i] === 0) continue;
        let log = 0;
        for (let k = 0; k < ageKnots.length; k++) log += ageHat[i * ageKnots.length + k]! * logs.age[k]!;
        for (let k = 0; k < incomeKnots.length; k++)
          log += incomeHat[i * incomeKnots.length + k]! * logs.income[k]!;
        for (const [d, dim] of [
          [2, 'tenure'],
          [3, 'region'],
          [4, 'area'],
        ] as const) {
          const j = member[d]![i]!;
          if (j >= 0) log += logs[dim][j]!;
        }
        mu[i] = base[c]![i]! * Math.exp(log);
      }
    };
    for (let sweep = 0; sweep < SWEEPS; sweep++) {
      DIMENSIONS.forEach((dim, d) => {
        update();
        const cuts = cutNames[dim];
        const m = cuts.length;
        const sums = new Float64Array(m);
        const weights = new Float64Array(m);
        const smooth = dim === 'age' ? ageHat : dim === 'income' ? incomeHat : null;
        const jacobian = new Float64Array(m * m);
        for (let i = 0; i < n; i++) {
          const j = member[d]![i]!;
          if (j < 0 || w[i] === 0) continue;
          sums[j]! += w[i]! * mu[i]!;
          weights[j]! += w[i]!;
          if (smooth) for (let k = 0; k < m; k++) jacobian[j * m + k]! += w[i]! * mu[i]! * smooth[i * m + k]!;
        }
        const residual = Float64Array.from(cuts, (cut, j) => {
          const target = targets[dim].get(cut)?.get(category);
          if (target === undefined || weights[j] === 0) throw new Error(`no ${dim} cut ${cut}`);
          const model = sums[j]! / weights[j]!;
          return model > 0 && target > 0 ? Math.log(target / model) : 0;
        });
        if (!smooth) {
          for (let j = 0; j < m; j++) logs[dim][j]! += residual[j]!;
          return;
        }
        for (let j = 0; j < m; j++) for (let k = 0; k < m; k++) jacobian[j * m + k]! /= sums[j]!;
        const step = solve(jacobian, residual, m);
        for (let k = 0; k < m; k++) logs[dim][k]! += step[k]!;
      });
    }
    result.ageLog.push(logs.age);
    result.incomeLog.push(logs.income);
    result.tenure.push(logs.tenure.map(Math.exp));
    result.region.push(logs.region.map(Math.exp));
    result.area.push(logs.area.map(Math.exp));
  }
  return result;
}

/** Gaussian elimination with partial pivoting for the small (≤ 7×7) Newton systems; `a` is overwritten. */
function solve(a: Float64Array, b: Float64Array, m: number): Float64Array {
  const x = Float64Array.from(b);
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(a[r * m + col]!) > Math.abs(a[pivot * m + col]!)) pivot = r;
    if (pivot !== col) {
      for (let k = 0; k < m; k++) [a[col * m + k], a[pivot * m + k]] = [a[pivot * m + k]!, a[col * m + k]!];
      [x[col], x[pivot]] = [x[pivot]!, x[col]!];
    }
    const d = a[col * m + col]!;
    for (let r = col + 1; r < m; r++) {
      const f = a[r * m + col]! / d;
      for (let k = col; k < m; k++) a[r * m + k]! -= f * a[col * m + k]!;
      x[r]! -= f * x[col]!;
    }
  }
  for (let r = m - 1; r >= 0; r--) {
    let s = x[r]!;
    for (let k = r + 1; k < m; k++) s -= a[r * m + k]! * x[k]!;
    x[r] = s / a[r * m + r]!;
  }
  return x;
}

function weightedMedian(
  households: readonly Household[],
  u: Float64Array,
  w: Float64Array,
  keep: (h: Household) => boolean,
): number {
  const xs = households
    .flatMap((h, i) => (keep(h) && w[i]! > 0 ? [{ u: u[i]!, w: w[i]! }] : []))
    .sort((a, b) => a.u - b.u);
  const total = xs.reduce((s, x) => s + x.w, 0);
  let cumulative = 0;
  for (const x of xs) {
    cumulative += x.w;
    if (cumulative >= total / 2) return x.u;
  }
  throw new Error('empty income cut');
}
