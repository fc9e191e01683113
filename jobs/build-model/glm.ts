/**
 * Weighted generalised linear models by iteratively reweighted least squares: Poisson pseudo-likelihood
 * (log link; handles zero spenders and keeps predictions positive) and logistic regression.
 */
export type Link = 'log' | 'logit';

/** Tiny ridge on the normal equations so a column that is all zero in the data cannot make them singular. */
const RIDGE = 1e-8;
const MAX_ITERATIONS = 40;
const TOLERANCE = 1e-9;

/** `x` is row-major (rows × p); returns β. Observations with weight 0 are ignored. */
export function fitGlm(
  x: Float64Array,
  p: number,
  y: Float64Array,
  w: Float64Array,
  link: Link,
): Float64Array {
  const rows = y.length;
  let sumW = 0;
  let sumWY = 0;
  for (let i = 0; i < rows; i++) {
    sumW += w[i]!;
    sumWY += w[i]! * y[i]!;
  }
  const mean = Math.min(
    Math.max(sumWY / sumW, 1e-12),
    link === 'logit' ? 1 - 1e-12 : Number.POSITIVE_INFINITY,
  );
  const beta = new Float64Array(p);
  beta[0] = link === 'log' ? Math.log(mean) : Math.log(mean / (1 - mean));
  const xtwx = new Float64Array(p * p);
  const xtwz = new Float64Array(p);
  let previous = Number.POSITIVE_INFINITY;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    xtwx.fill(0);
    xtwz.fill(0);
    let deviance = 0;
    for (let i = 0; i < rows; i++) {
      const wi = w[i]!;
      if (wi === 0) continue;
      const row = i * p;
      let eta = 0;
      for (let j = 0; j < p; j++) eta += x[row + j]! * beta[j]!;
      let mu: number;
      let variance: number;
      if (link === 'log') {
        mu = Math.exp(eta);
        variance = mu;
      } else {
        mu = 1 / (1 + Math.exp(-eta));
        variance = Math.max(mu * (1 - mu), 1e-12);
      }
      // Working response z = η + (y − μ)/μ'(η); μ'(η) equals the variance for both canonical links.
      const z = eta + (y[i]! - mu) / variance;
      const weight = wi * variance;
      deviance += wi * (y[i]! - mu) ** 2;
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
    const next = solveSymmetric(xtwx, xtwz, p);
    beta.set(next);
    if (Math.abs(previous - deviance) <= TOLERANCE * Math.max(1, deviance)) break;
    previous = deviance;
  }
  return beta;
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
