/**
 * Smooths the artifact's age factors across the calibration's age knots (docs/model.md, "Age curves").
 *
 * The calibration rakes each category's age factor piecewise-linearly in ln between the published age
 * bands' centres (22, 30, …, 80), so every category's slope changes at each knot, and where most
 * categories turn the same way the total turns in one year: a New York renter at $100k take-home spent
 * $80.5k at 30, $81.6k at 31 after falling from $88.2k at 18, and turned again at 70. A Gaussian kernel
 * in age (AGE_BANDWIDTH years; a local-linear fit, so that the ends of the table keep their slope) spreads each turn over the
 * neighbouring years; the raking rounds that follow see the smoothed curves, so the published age cuts
 * still hold (validation table 2).
 */

/** Standard deviation of the kernel, years: a third of the 8–10 years between knots. */
const AGE_BANDWIDTH = 3;
/** The kernel is cut at this many standard deviations. */
const KERNEL_REACH = 3;

/** Each category's ln age factor, local-linear smoothed with a Gaussian kernel in age; `age` is [category][age]. */
export function smoothAgeCurves(age: readonly number[], ages: number): number[] {
  const reach = Math.ceil(KERNEL_REACH * AGE_BANDWIDTH);
  const kernel = Array.from({ length: 2 * reach + 1 }, (_, j) =>
    Math.exp(-0.5 * ((j - reach) / AGE_BANDWIDTH) ** 2),
  );
  const out: number[] = [];
  for (let start = 0; start < age.length; start += ages) {
    const ln = age.slice(start, start + ages).map(Math.log);
    for (let a = 0; a < ages; a++) {
      // Weighted least squares of ln on (j − a): the fitted value at a, α = (S2·T0 − S1·T1) / (S0·S2 − S1²).
      let [s0, s1, s2, t0, t1] = [0, 0, 0, 0, 0];
      for (let j = Math.max(0, a - reach); j <= Math.min(ages - 1, a + reach); j++) {
        const k = kernel[j - a + reach]!;
        const d = j - a;
        s0 += k;
        s1 += k * d;
        s2 += k * d * d;
        t0 += k * ln[j]!;
        t1 += k * d * ln[j]!;
      }
      out.push(Math.exp((s2 * t0 - s1 * t1) / (s0 * s2 - s1 * s1)));
    }
  }
  return out;
}
