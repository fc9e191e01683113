/**
 * The engine's rounding rules, in one place. Everything is computed at full double precision and rounded
 * only when a response is built. Halves round away from zero (0.5 → 1, −0.5 → −1, 2.5 → 3): symmetric
 * for negative PSA values and the rule most callers expect from a spreadsheet, unlike banker's rounding.
 */

/**
 * `Math.round(x)` for x > 0, NaN and +∞, from the floor and the fractional part: in the engine's loops it
 * costs a quarter of `Math.round` (measured, V8 11 on x64). Exact: x − floor(x) is the exact fractional
 * part (no `floor(x + 0.5)` error at 0.49999999999999994), so x − fraction is floor(x) exactly, and
 * floor(x) + 1 is exact below 2^53, above which every double is whole. The comparison is added as a
 * number, not branched on (it is random); the branch on a NaN fraction (x NaN or +∞) is never taken.
 *
 * x − fraction rather than floor(x): the interpreter hands out a whole floor as a small integer, so V8
 * compiled floor(x) + 1 as an int32 addition, with a check that the floor is one, an overflow check and
 * a conversion back to a double: 6 instructions more per rounding, 4 % of the evaluation's
 * (bench/analysis/engine.md, ninth round). A `const`, not a function declaration, which is a mutable
 * binding: the compiled loops that inline `roundHalfAwayFromZero` loaded and checked it again on every
 * rounding.
 */
const roundHalfUp = (x: number): number => {
  const fraction = x - Math.floor(x);
  return Number.isNaN(fraction) ? x : x - fraction + +(fraction >= 0.5);
};

/**
 * Round to the nearest whole unit, halves away from zero; a negative x never gives −0 (±0 is returned
 * as it is, NaN and ±∞ too).
 */
export function roundHalfAwayFromZero(x: number): number {
  if (x < 0) return -roundHalfUp(-x) + 0;
  return x === 0 ? x : roundHalfUp(x);
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
    throw new Error(`outlay: ${points} is not a score (a whole number of tenths from 0 to 100)`);
  }
  return text;
}
