/**
 * Calibrates the fitted 2014 structure to the 2023 published margins by raking: multiplicative factors per
 * category on age and income (smooth: piecewise linear in log-factor between cut centres, flat beyond, so
 * no cliff at a bracket edge), tenure, region and area type. The model's weighted mean over the 2014
 * population in each published cut is driven to the cut's 2023 mean.
 */
import type { SpendingCategory } from './ce-categories.js';
import type { Household } from './extract-households.js';
import type { CutTargets } from './published.js';

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

const SWEEPS = 25;

export function calibrate(
  households: readonly Household[],
  u: Float64Array,
  base: Float64Array[],
  categories: readonly SpendingCategory[],
  targets: Readonly<Record<'age' | 'income' | 'tenure' | 'region' | 'area', CutTargets>>,
): Calibration {
  const n = households.length;
  const w = Float64Array.from(households, (h) => (h.region > 0 ? h.weight : 0));
  const ageKnots = AGE_CUTS.map((c) => c[3] as number);
  const incomeKnots = INCOME_CUTS.map((cut) =>
    weightedMedian(households, u, w, (h) => cutOf(h, 'income') === cut),
  );
  const dims = ['age', 'income', 'tenure', 'region', 'area'] as const;
  const membership = dims.map((d) => households.map((h) => cutOf(h, d)));
  const result: Calibration = {
    ageLog: [],
    incomeLog: [],
    incomeKnots,
    tenure: [],
    region: [],
    area: [],
  };
  for (let c = 0; c < categories.length; c++) {
    const category = categories[c]!;
    const ageLog = new Float64Array(AGE_CUTS.length);
    const incomeLog = new Float64Array(INCOME_CUTS.length);
    const tenure = Float64Array.of(1, 1);
    const region = Float64Array.of(1, 1, 1, 1);
    const area = Float64Array.of(1, 1);
    const factor = (i: number) => {
      const h = households[i]!;
      return (
        smoothFactor(ageKnots, ageLog, h.age) *
        smoothFactor(incomeKnots, incomeLog, u[i]!) *
        tenure[h.isHomeowner ? 1 : 0]! *
        region[h.region - 1]! *
        area[h.urban ? 1 : 0]!
      );
    };
    const mu = new Float64Array(n);
    for (let sweep = 0; sweep < SWEEPS; sweep++) {
      dims.forEach((dim, d) => {
        for (let i = 0; i < n; i++) mu[i] = w[i]! > 0 ? base[c]![i]! * factor(i) : 0;
        const sums = new Map<string, [number, number]>();
        for (let i = 0; i < n; i++) {
          const cut = membership[d]![i];
          if (cut === null || cut === undefined || w[i] === 0) continue;
          const s = sums.get(cut) ?? [0, 0];
          s[0] += w[i]! * mu[i]!;
          s[1] += w[i]!;
          sums.set(cut, s);
        }
        const ratio = (cut: string) => {
          const target = targets[dim].get(cut)?.get(category);
          const s = sums.get(cut);
          if (target === undefined || !s) throw new Error(`no ${dim} cut ${cut}`);
          const model = s[0] / s[1];
          return model > 0 && target > 0 ? target / model : 1;
        };
        const scale = (cuts: readonly string[], factors: Float64Array, log: boolean) => {
          cuts.forEach((cut, j) => {
            // Smooth factors spill into neighbouring cuts; half steps keep the raking from oscillating.
            factors[j] = log ? factors[j]! + 0.5 * Math.log(ratio(cut)) : factors[j]! * ratio(cut);
          });
        };
        if (dim === 'age')
          scale(
            AGE_CUTS.map(([cut]) => cut),
            ageLog,
            true,
          );
        else if (dim === 'income') scale(INCOME_CUTS, incomeLog, true);
        else if (dim === 'tenure') scale(['Renter', 'Homeowner'], tenure, false);
        else if (dim === 'region') scale(REGION_CUTS, region, false);
        else scale(['Rural', 'Urban'], area, false);
      });
    }
    result.ageLog.push(ageLog);
    result.incomeLog.push(incomeLog);
    result.tenure.push(tenure);
    result.region.push(region);
    result.area.push(area);
  }
  return result;
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
