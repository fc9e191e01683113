/**
 * `OUTLAY_FULL_TESTS=1` (CI's first pass; README, "Quick start") runs the heavy checks at full size; a
 * maintainer's run takes the smaller size, which proves the same invariants on fewer cases.
 */
export const FULL_TESTS = process.env.OUTLAY_FULL_TESTS === '1';

/** `full` under OUTLAY_FULL_TESTS=1, else `quick`. */
export const sizedForRun = (full: number, quick: number): number => (FULL_TESTS ? full : quick);
