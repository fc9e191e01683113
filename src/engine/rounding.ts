/**
 * The engine's rounding rules, in one place. Everything is computed at full double precision and rounded
 * only when a response is built. Halves round away from zero (0.5 → 1, −0.5 → −1, 2.5 → 3): symmetric
 * for negative PSA values and the rule most callers expect from a spreadsheet, unlike banker's rounding.
 */

/**
 * `Math.round(x)` for x ≥ 0, NaN and +∞ (−0 gives +0): the nearest whole number, a half taken up. The
 * budget rounds with it the amounts that are never negative: the income and the given amounts (the
 * contract validates them) and the model's amounts (`checkArtifact` checks the tables they come from).
 * Exact: x − floor(x) has no rounding error, so there is no `floor(x + 0.5)` error at 0.49999999999999994.
 */
export function roundNonNegative(x: number): number {
  const whole = Math.floor(x);
  // Added as a number, not branched on: which way an amount rounds is random (see apportion.ts).
  return whole + Number(x - whole >= 0.5);
}

/**
 * Round to the nearest whole unit, halves away from zero; a negative x never gives −0 (±0 is returned
 * as it is, NaN and ±∞ too).
 */
export function roundHalfAwayFromZero(x: number): number {
  if (x < 0) return -roundNonNegative(-x) + 0;
  return x === 0 ? x : roundNonNegative(x);
}

/** Scores are reported in tenths of a point from 0.0 to 100.0; their 1,001 strings are built once. */
export const SCORE_TENTHS_MAX = 1000;

const SCORE_STRINGS: readonly string[] = Array.from(
  { length: SCORE_TENTHS_MAX + 1 },
  (_, tenths) => `${Math.floor(tenths / 10)}.${tenths % 10}`,
);

/**
 * The whole number of tenths t that a score worth `points` stands for (scores are t / 10), or NaN when it
 * has more than one decimal or is not finite: t / 10 × 10 is t within a rounding, never a tenth away.
 */
export function tenthsOfScore(points: number): number {
  const tenths = Math.round(points * 10);
  return Math.abs(points * 10 - tenths) <= 1e-6 ? tenths : Number.NaN;
}

/**
 * The text of a score worth `points` (t / 10 for t tenths, the double its text denotes), e.g. "91.2" or
 * "80.0". A value that is not a whole number of tenths from 0 to 100 has no text: it throws rather than
 * write a rounded score.
 */
export function formatScore(points: number): string {
  const text = SCORE_STRINGS[tenthsOfScore(points)];
  if (text === undefined) {
    throw new Error(`${points} is not a score (a whole number of tenths from 0 to 100)`);
  }
  return text;
}

/**
 * The text of an unclamped index worth `points` (a whole number of tenths), one decimal, e.g. "134.3",
 * "-12.5" or "0.0": `toFixed` writes a tenth's double exactly, and -0 is written as 0.
 */
export function formatIndex(points: number): string {
  if (Number.isNaN(tenthsOfScore(points))) throw new Error(`${points} is not an index (whole tenths)`);
  return (points === 0 ? 0 : points).toFixed(1);
}
