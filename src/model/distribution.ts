/**
 * Ranges from the artifact's distribution section: per spending category the 25th, 50th and 75th
 * percentile of a year's spending of households like this one, and the effective number of survey
 * households behind them (docs/model.md, "Distributions"). A percentile is the model's mean times the
 * section's ratio for the profile's tenure slot, interpolated linearly in ln take-home between the
 * section's grid points and held at the grid's ends; the effective count is interpolated alike.
 */
import { RANGE_PERCENTILES, RANGE_TENURE_SLOTS, type SpendingDistribution } from './artifact.js';
import type { Profile } from './types.js';

const PERCENTILES = RANGE_PERCENTILES.length;
const UNKNOWN_TENURE = RANGE_TENURE_SLOTS.indexOf('unknown');
/** Take-home below $1 has no meaningful logarithm; the grid starts far above it anyway. */
const MIN_INCOME = 1;

/** The slot of a profile's tenure: as stated, or the unknown slot when not given. */
export const rangeTenureSlot = (isHomeowner: boolean | undefined): number =>
  isHomeowner === undefined ? UNKNOWN_TENURE : isHomeowner ? 1 : 0;

/**
 * Writes the percentiles of the `n` spending categories into `out` ([category][RANGE_PERCENTILES]) from
 * the model's means `means` (CATEGORIES order) for `profile`; returns the effective count of households.
 */
export function writeRanges(
  distribution: SpendingDistribution,
  n: number,
  profile: Profile,
  means: ArrayLike<number>,
  out: Float64Array,
): number {
  const { uMin, uStep, points } = distribution.incomeGrid;
  const u = Math.log(Math.max(profile.net_annual_income, MIN_INCOME));
  const t = Math.min(Math.max((u - uMin) / uStep, 0), points - 1);
  const k = Math.min(Math.floor(t), points - 2);
  const f = t - k;
  const slot = rangeTenureSlot(profile.is_homeowner);
  const row = (slot * points + k) * n * PERCENTILES;
  const next = row + n * PERCENTILES;
  const { ratio, peers } = distribution;
  for (let at = 0; at < n * PERCENTILES; at++) {
    const lo = ratio[row + at]!;
    out[at] = means[Math.floor(at / PERCENTILES)]! * (lo + f * (ratio[next + at]! - lo));
  }
  const lo = peers[slot * points + k]!;
  return lo + f * (peers[slot * points + k + 1]! - lo);
}

/** What the schema cannot say: the tables' lengths, given by the section's grid and `n` categories. */
export function distributionLengthProblems(distribution: SpendingDistribution, n: number): string[] {
  const { points } = distribution.incomeGrid;
  const slots = RANGE_TENURE_SLOTS.length;
  const expected: [keyof SpendingDistribution, number, string][] = [
    [
      'ratio',
      slots * points * n * PERCENTILES,
      `${slots} tenure slots × ${points} grid points × ${n} categories × ${PERCENTILES} percentiles`,
    ],
    ['peers', slots * points, `${slots} tenure slots × ${points} grid points`],
  ];
  return expected
    .filter(([key, length]) => (distribution[key] as readonly number[]).length !== length)
    .map(
      ([key, length, why]) =>
        `/distribution/${key} has ${(distribution[key] as readonly number[]).length} entries; it must have ${length} (${why})`,
    );
}
