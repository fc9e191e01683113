/**
 * The engine's rounding rules, in one place. Everything is computed at full double precision and rounded
 * only when a response is built. Halves round away from zero (0.5 → 1, −0.5 → −1, 2.5 → 3): symmetric
 * for negative PSA values and the rule most callers expect from a spreadsheet, unlike banker's rounding.
 */

/** Round to the nearest whole unit, halves away from zero; never returns −0. */
export function roundHalfAwayFromZero(x: number): number {
  // Math.round is exact (no `floor(x + 0.5)` error at 0.49999999999999994) but rounds halves towards +∞.
  return x < 0 ? -Math.round(-x) + 0 : Math.round(x);
}

/** Scores are reported in tenths of a point from 0.0 to 100.0; their 1,001 strings are built once. */
export const SCORE_TENTHS_MAX = 1000;

const SCORE_STRINGS: readonly string[] = Array.from(
  { length: SCORE_TENTHS_MAX + 1 },
  (_, tenths) => `${Math.floor(tenths / 10)}.${tenths % 10}`,
);

/** `tenths` is a whole number in 0..1000; returns e.g. "91.2". */
export const formatScoreTenths = (tenths: number): string => SCORE_STRINGS[tenths]!;
