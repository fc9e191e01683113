/**
 * The regression design shared by fitting and table building: log take-home income and age enter through
 * restricted cubic splines (smooth, linear in the tails), household size through ln(size) and its square,
 * tenure as renter / owner with mortgage / owner without (each with its own income slope), urbanity,
 * Census region and the log of the state price parity of the category's RPP component.
 */
export const COLUMNS = {
  intercept: 0,
  income: 1, // u, then 3 spline terms
  age: 5, // a, then 3 spline terms
  size: 9, // ln s, (ln s)²
  mortgage: 11,
  outright: 12,
  mortgageSlope: 13,
  outrightSlope: 14,
  urban: 15,
  region: 16, // midwest, south, west (northeast is the base)
  price: 19,
} as const;
export const P = 20;

/** Clamp income to the range the data support (2014 dollars): spline tails are linear beyond it anyway. */
export const INCOME_FLOOR = 2_000;
export const INCOME_CEILING = 400_000;
/** Age knots (years): the published age bands' centres. */
export const AGE_KNOTS = [23, 35, 50, 65, 80] as const;
export const SIZE_MAX = 8;
/** Centre of the tenure×income slopes, ln($40,000), so tenure main effects read at a typical income. */
export const INCOME_CENTRE = Math.log(40_000);

export function incomeU(takeHome: number): number {
  return Math.log(Math.min(Math.max(takeHome, INCOME_FLOOR), INCOME_CEILING));
}

/** Restricted cubic spline terms (Harrell), scaled by the knot span so coefficients are comparable. */
export function splineTerms(x: number, knots: readonly number[], out: Float64Array, at: number): void {
  const k = knots.length;
  const last = knots[k - 1]!;
  const before = knots[k - 2]!;
  const scale = (last - knots[0]!) ** 2;
  const cube = (v: number) => (v > 0 ? v * v * v : 0);
  for (let j = 0; j < k - 2; j++) {
    const tj = knots[j]!;
    out[at + j] =
      (cube(x - tj) -
        (cube(x - before) * (last - tj)) / (last - before) +
        (cube(x - last) * (before - tj)) / (last - before)) /
      scale;
  }
}

export interface DesignInput {
  u: number;
  age: number;
  size: number;
  /** 0 renter, 1 owner with mortgage, 2 owner without. */
  tenure: number;
  urban: boolean;
  /** 1 northeast … 4 west. */
  region: number;
  logPrice: number;
}

export function designRow(
  input: DesignInput,
  incomeKnots: readonly number[],
  out: Float64Array,
  at: number,
): void {
  out.fill(0, at, at + P);
  out[at + COLUMNS.intercept] = 1;
  // Centred so the intercept is a typical household's level and the normal equations are well scaled.
  out[at + COLUMNS.income] = input.u - INCOME_CENTRE;
  splineTerms(input.u, incomeKnots, out, at + COLUMNS.income + 1);
  out[at + COLUMNS.age] = (input.age - 50) / 10;
  splineTerms(input.age, AGE_KNOTS, out, at + COLUMNS.age + 1);
  const logSize = Math.log(Math.min(Math.max(input.size, 1), SIZE_MAX));
  out[at + COLUMNS.size] = logSize;
  out[at + COLUMNS.size + 1] = logSize * logSize;
  if (input.tenure === 1) {
    out[at + COLUMNS.mortgage] = 1;
    out[at + COLUMNS.mortgageSlope] = input.u - INCOME_CENTRE;
  } else if (input.tenure === 2) {
    out[at + COLUMNS.outright] = 1;
    out[at + COLUMNS.outrightSlope] = input.u - INCOME_CENTRE;
  }
  out[at + COLUMNS.urban] = input.urban ? 1 : 0;
  if (input.region >= 2) out[at + COLUMNS.region + input.region - 2] = 1;
  out[at + COLUMNS.price] = input.logPrice;
}
