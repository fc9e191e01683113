/**
 * The engine's rounding rules, in one place. Everything is computed at full double precision and rounded
 * only when a response is built. Halves round away from zero (0.5 → 1, −0.5 → −1, 2.5 → 3): symmetric
 * for negative PSA values and the rule most callers expect from a spreadsheet, unlike banker's rounding.
 */

/**
 * 2^52: the doubles from 2^52 to 2^53 are the whole numbers, so adding it to an x in [0, 2^52) and taking
 * it away again rounds x to the nearest whole number (halves to even), exactly.
 */
const WHOLE = 2 ** 52;

/**
 * `Math.floor(x)` for x in [0, 2^52) and NaN (−0 gives +0), without `Math.floor`: the nearest whole number,
 * less one where that is above x. V8 compiles `Math.floor` to `vroundsd dst, dst, src`, whose result keeps
 * the upper half of dst's previous value, so the instruction waits for whatever last wrote that register.
 * In some compilations of the budget's loop that was the running sum of the previous category's amounts:
 * every category's roundings then waited for the one before, about 8 cycles each on Intel cores (3 on AMD
 * Zen), and the allocation took about twice its CPU (bench/analysis/engine.md in git history, "Math.floor's false
 * dependency"). Additions, a comparison and its conversion to a number wait only for their operands.
 */
export const floorBelowWhole = (x: number): number => {
  const nearest = x + WHOLE - WHOLE;
  return nearest - +(nearest > x);
};

/**
 * `Math.floor(x)` for any x ≥ 0, NaN and +∞ (−0 gives +0): from 2^52 every double is whole, and NaN and
 * +∞ are returned as they are. `floorBelowWhole`'s two lines written out rather than called: with the
 * call, V8 inlined less into the budget's allocation, 450 instructions more per evaluation (counted with
 * bench/stack/engine-instructions.ts).
 */
export const floorOfNonNegative = (x: number): number => {
  if (!(x < WHOLE)) return x;
  const nearest = x + WHOLE - WHOLE;
  return nearest - +(nearest > x);
};

/**
 * `Math.round(x)` for x ≥ 0, NaN and +∞ (−0 gives +0): the nearest whole number, and a half (the one case
 * where rounding to even and rounding half up differ) taken up; for every x > 0 the same as
 * `roundHalfAwayFromZero`, without its tests for the sign. The budget rounds with it the amounts that are
 * never negative: the income and the given amounts (the contract validates them) and the model's amounts
 * (`checkArtifact` checks the tables they come from). Exact: x − nearest is a multiple of x's spacing no larger
 * than ½, so it has no rounding error (no `floor(x + 0.5)` error at 0.49999999999999994), and it is ½
 * exactly when it is ½ or more: `>=`, which compiles to fewer instructions than `===`. The comparison is
 * added as a number, not branched on (it is random); see `floorBelowWhole` for why not Math.floor.
 */
export function roundNonNegative(x: number): number {
  if (!(x < WHOLE)) return x;
  const nearest = x + WHOLE - WHOLE;
  return nearest + +(x - nearest >= 0.5);
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
