/**
 * Weighted generalised linear models by iteratively reweighted least squares: Poisson pseudo-likelihood
 * (log link; handles zero spenders and keeps predictions positive) and logistic regression.
 *
 * Robustness (the first version diverged silently): y is divided by its weighted mean so the normal
 * equations are well scaled whatever the category's dollar level; every IRLS step that raises the deviance
 * is halved until it does not; iteration stops on a relative deviance change below TOLERANCE and throws if
 * it has not converged, so a bad fit can never reach the artifact.
 */
export type Link = 'log' | 'logit';

/** Tiny ridge on the normal equations so a column that is all zero in the data cannot make them singular. */
const RIDGE = 1e-8;
const MAX_ITERATIONS = 60;
const MAX_HALVINGS = 30;
const TOLERANCE = 1e-10;

export interface GlmFit {
  readonly beta: Float64Array;
  /** Heteroskedasticity-robust (sandwich) standard errors of β: the model is a pseudo-likelihood. */
  readonly se: Float64Array;
  readonly iterations: number;
}

/**
 * `x` is row-major (rows × p); `offset` (optional, per row) enters the linear predictor with coefficient 1.
 * Observations with weight 0 are ignored.
 */
export function fitGlm(
  x: Float64Array,
  p: number,
  y: Float64Array,
  w: Float64Array,
  link: Link,
  offset?: Float64Array,
): GlmFit {
  const { sumW, sumWY } = weightedSums(y, w);
  // Poisson: fit y / scale (scale-invariant estimator) and add ln(scale) back to the intercept at the end.
  const scale = link === 'log' ? Math.max(sumWY / sumW, 1e-12) : 1;
  const ys = Float64Array.from(y, (v) => v / scale);
  const problem: GlmProblem = { x, p, ys, w, link, offset, eta: new Float64Array(y.length) };
  let beta = startingBeta(p, link, sumWY / sumW);
  linearPredictor(problem, beta);
  let current = deviance(problem);
  const xtwx = new Float64Array(p * p);
  const xtwz = new Float64Array(p);
  let iteration = 0;
  let converged = false;
  while (iteration < MAX_ITERATIONS && !converged) {
    iteration++;
    normalEquations(x, p, ys, w, link, problem.eta, offset, xtwx, xtwz);
    const target = solveSymmetric(xtwx, xtwz, p);
    const { trial, next } = halvedStep(problem, beta, target, current);
    if (!(next <= current * (1 + 1e-12))) {
      linearPredictor(problem, beta);
      converged = true; // no descent direction left: β is at the optimum to machine precision
      break;
    }
    converged = Math.abs(current - next) <= TOLERANCE * Math.max(1, Math.abs(next));
    beta = trial;
    current = next;
  }
  if (!converged) throw new Error(`GLM (${link}) did not converge in ${MAX_ITERATIONS} iterations`);
  const se = sandwich(x, p, ys, w, link, problem.eta, offset);
  if (link === 'log') beta[0]! += Math.log(scale);
  return { beta, se, iterations: iteration };
}

/** One fit's data (y already scaled) and the linear predictor η, which the IRLS steps update in place. */
interface GlmProblem {
  readonly x: Float64Array;
  readonly p: number;
  readonly ys: Float64Array;
  readonly w: Float64Array;
  readonly link: Link;
  readonly offset: Float64Array | undefined;
  readonly eta: Float64Array;
}

function weightedSums(y: Float64Array, w: Float64Array): { sumW: number; sumWY: number } {
  let sumW = 0;
  let sumWY = 0;
  for (let i = 0; i < y.length; i++) {
    sumW += w[i]!;
    sumWY += w[i]! * y[i]!;
  }
  return { sumW, sumWY };
}

/** β = 0 except the intercept: 0 for the scaled Poisson fit, the logit of the clamped weighted mean otherwise. */
function startingBeta(p: number, link: Link, weightedMean: number): Float64Array {
  const beta = new Float64Array(p);
  const mean = link === 'log' ? 1 : Math.min(Math.max(weightedMean, 1e-9), 1 - 1e-9);
  beta[0] = link === 'log' ? 0 : Math.log(mean / (1 - mean));
  return beta;
}

/** η = offset + Xβ on the rows with non-zero weight. */
function linearPredictor({ x, p, w, offset, eta }: GlmProblem, b: Float64Array): void {
  for (let i = 0; i < eta.length; i++) {
    if (w[i] === 0) continue;
    const row = i * p;
    let e = offset ? offset[i]! : 0;
    for (let j = 0; j < p; j++) e += x[row + j]! * b[j]!;
    eta[i] = e;
  }
}

/** The deviance at the current η. */
function deviance({ ys, w, link, eta }: GlmProblem): number {
  let d = 0;
  for (let i = 0; i < eta.length; i++) {
    const wi = w[i]!;
    if (wi === 0) continue;
    const yi = ys[i]!;
    if (link === 'log') {
      const mu = Math.exp(eta[i]!);
      d += 2 * wi * ((yi > 0 ? yi * Math.log(yi / mu) : 0) - (yi - mu));
    } else {
      const mu = 1 / (1 + Math.exp(-eta[i]!));
      d -= 2 * wi * (yi * Math.log(Math.max(mu, 1e-300)) + (1 - yi) * Math.log(Math.max(1 - mu, 1e-300)));
    }
  }
  return d;
}

/**
 * Step-halving: moves from β toward the IRLS solution until the deviance does not increase. Returns the last
 * trial β (η is left at it) and its deviance; the caller checks whether it is a descent.
 */
function halvedStep(
  problem: GlmProblem,
  beta: Float64Array,
  target: Float64Array,
  current: number,
): { trial: Float64Array; next: number } {
  let step = 1;
  let trial: Float64Array = target;
  let next = Number.POSITIVE_INFINITY;
  for (let halving = 0; halving <= MAX_HALVINGS; halving++) {
    trial = Float64Array.from(beta, (b, j) => b + step * (target[j]! - b));
    linearPredictor(problem, trial);
    next = deviance(problem);
    if (Number.isFinite(next) && next <= current * (1 + 1e-12)) break;
    step /= 2;
  }
  return { trial, next };
}

/** X'WX and X'Wz at the current linear predictor (lower triangle mirrored, ridge added). */
function normalEquations(
  x: Float64Array,
  p: number,
  y: Float64Array,
  w: Float64Array,
  link: Link,
  eta: Float64Array,
  offset: Float64Array | undefined,
  xtwx: Float64Array,
  xtwz: Float64Array,
): void {
  xtwx.fill(0);
  xtwz.fill(0);
  for (let i = 0; i < y.length; i++) {
    const wi = w[i]!;
    if (wi === 0) continue;
    const row = i * p;
    const [mu, variance] = moments(link, eta[i]!);
    // Working response z = η − offset + (y − μ)/μ'(η); μ'(η) equals the variance for both canonical links.
    const z = eta[i]! - (offset ? offset[i]! : 0) + (y[i]! - mu) / variance;
    const weight = wi * variance;
    for (let j = 0; j < p; j++) {
      const xj = x[row + j]! * weight;
      xtwz[j]! += xj * z;
      for (let k = 0; k <= j; k++) xtwx[j * p + k]! += xj * x[row + k]!;
    }
  }
  for (let j = 0; j < p; j++) {
    xtwx[j * p + j]! += RIDGE * (xtwx[j * p + j]! + 1);
    for (let k = 0; k < j; k++) xtwx[k * p + j] = xtwx[j * p + k]!;
  }
}

function moments(link: Link, eta: number): [number, number] {
  if (link === 'log') {
    const mu = Math.exp(eta);
    return [mu, Math.max(mu, 1e-300)];
  }
  const mu = 1 / (1 + Math.exp(-eta));
  return [mu, Math.max(mu * (1 - mu), 1e-12)];
}

/** Robust covariance A⁻¹ B A⁻¹ with A = X'WVX, B = Σ w²(y − μ)² x x'; returns the square roots of its diagonal. */
function sandwich(
  x: Float64Array,
  p: number,
  y: Float64Array,
  w: Float64Array,
  link: Link,
  eta: Float64Array,
  offset: Float64Array | undefined,
): Float64Array {
  const a = new Float64Array(p * p);
  const b = new Float64Array(p * p);
  normalEquations(x, p, y, w, link, eta, offset, a, new Float64Array(p));
  for (let i = 0; i < y.length; i++) {
    const wi = w[i]!;
    if (wi === 0) continue;
    const r = wi * (y[i]! - moments(link, eta[i]!)[0]);
    const row = i * p;
    for (let j = 0; j < p; j++)
      for (let k = 0; k < p; k++) b[j * p + k]! += r * r * x[row + j]! * x[row + k]!;
  }
  const inverse = new Float64Array(p * p);
  for (let j = 0; j < p; j++) {
    const unit = new Float64Array(p);
    unit[j] = 1;
    inverse.set(solveSymmetric(Float64Array.from(a), unit, p), j * p);
  }
  const se = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    let v = 0;
    for (let k = 0; k < p; k++)
      for (let l = 0; l < p; l++) v += inverse[j * p + k]! * b[k * p + l]! * inverse[l * p + j]!;
    se[j] = Math.sqrt(Math.max(v, 0));
  }
  return se;
}

/** Cholesky solve of A·x = b for symmetric positive definite A (p × p, row-major); A is overwritten. */
function solveSymmetric(a: Float64Array, b: Float64Array, p: number): Float64Array {
  for (let j = 0; j < p; j++) {
    let d = a[j * p + j]!;
    for (let k = 0; k < j; k++) d -= a[j * p + k]! ** 2;
    const root = Math.sqrt(Math.max(d, 1e-300));
    a[j * p + j] = root;
    for (let i = j + 1; i < p; i++) {
      let s = a[i * p + j]!;
      for (let k = 0; k < j; k++) s -= a[i * p + k]! * a[j * p + k]!;
      a[i * p + j] = s / root;
    }
  }
  const x = Float64Array.from(b);
  for (let i = 0; i < p; i++) {
    let s = x[i]!;
    for (let k = 0; k < i; k++) s -= a[i * p + k]! * x[k]!;
    x[i] = s / a[i * p + i]!;
  }
  for (let i = p - 1; i >= 0; i--) {
    let s = x[i]!;
    for (let k = i + 1; k < p; k++) s -= a[k * p + i]! * x[k]!;
    x[i] = s / a[i * p + i]!;
  }
  return x;
}
