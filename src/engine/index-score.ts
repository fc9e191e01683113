/**
 * The score's arithmetic, unclamped: the index that ranks every household, and the spending and PSA it
 * comes from, recomputed from a household's stated amounts and its peers' (the model's) amounts. The
 * engine's budget computes the same spending (`allocateBudget`); this is the form the explanations read, one category at a time.
 */
import {
  CATEGORIES,
  CATEGORY_INDEX_BY_KEY,
  type Category,
  OTHER_DEBT_INDEX,
  SAVINGS_INDEX,
  SPENDING_CATEGORY_COUNT,
} from '../contract/categories.js';
import type { GivenBudget } from '../contract/schemas.js';
import { roundHalfAwayFromZero } from './rounding.js';
import { monthlySavingAbility } from './score.js';

/** One evaluated household, as the explanations read it. */
export interface ScoreParts {
  /** Take-home pay, annual (`net_annual_income`). */
  readonly netIncome: number;
  /** The stated fixed expenses, annual, as sent (the request's `budget`). */
  readonly stated: GivenBudget;
  /**
   * What households like this one spend, annual, unrounded, CATEGORIES order: the model's amounts
   * (`SpendingModel.predict`) for this profile and place.
   */
  readonly peers: ArrayLike<number>;
  /**
   * The request's `options.rent_free`: the household pays no rent or mortgage, and its housing counts at
   * 0 (stated) on every basis.
   */
  readonly rentFree?: boolean | undefined;
  /**
   * On the benchmark basis (`heldToBenchmarks`), true for each spending category (CATEGORIES order)
   * whose amount in `stated` is its benchmark rather than an amount the caller stated.
   */
  readonly benchmarked?: readonly boolean[] | undefined;
}

/** Stated amounts in CATEGORIES order, undefined where not stated (`statedByIndex`). */
export type StatedAmounts = readonly (number | undefined)[];

/**
 * The stated amounts in CATEGORIES order, undefined where not stated, for a pass over every category:
 * read from the few categories a household states rather than by looking all 38 up by name. The
 * explanation's passes take them as a parameter, so that one household's are read once.
 */
export function statedByIndex(stated: GivenBudget): (number | undefined)[] {
  const amounts = new Array<number | undefined>(CATEGORIES.length).fill(undefined);
  for (const category of Object.keys(stated)) {
    amounts[CATEGORY_INDEX_BY_KEY.get(category)!] = stated[category as Category];
  }
  return amounts;
}

/**
 * The spending the PSA subtracts: stated amounts as sent, the model's amount for every spending category
 * not stated, other debt payments 0 unless stated, savings never (docs/api.md, "Score"). Added in
 * CATEGORIES order, the spending categories then other debt payments, as the engine adds them, so that
 * it gives the engine's PSA to the double. `stated` is `statedByIndex(parts.stated)`, for a caller that
 * has read it already.
 */
export function statedSpending(
  parts: ScoreParts,
  stated: StatedAmounts = statedByIndex(parts.stated),
): number {
  let spending = 0;
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) spending += stated[i] ?? parts.peers[i]!;
  return spending + (stated[OTHER_DEBT_INDEX] ?? 0);
}

/** The returned PSA: monthly, whole units, halves away from zero. */
export const wholePsa = (netIncome: number, spending: number): number =>
  roundHalfAwayFromZero(monthlySavingAbility(netIncome, spending));

/** The stated savings amount, 0 when not stated. */
export const statedSavings = (parts: ScoreParts): number => parts.stated[CATEGORIES[SAVINGS_INDEX]!] ?? 0;

/**
 * An index in points with one decimal: the score's formula 80 + 100 × (12 × PSA − savings) / net without
 * the clamp to 0–100, from the returned whole-unit PSA as the score is. Computed in tenths like the score
 * (`scoreTenths`), so that the clamped index is the score exactly.
 */
export function indexPoints(psa: number, savings: number, netIncome: number): number {
  return roundHalfAwayFromZero(800 + (1000 * (12 * psa - savings)) / netIncome) / 10;
}

/** An index clamped to 0–100: the score it is the unclamped form of. */
export const clampedScore = (index: number): number => Math.min(100, Math.max(0, index));

export interface Indices {
  /** The PSA, monthly, whole units. */
  readonly psa: number;
  /** The main score, unclamped. */
  readonly index: number;
  /** The SAViNGS score, unclamped. */
  readonly savingsIndex: number;
}

/** The PSA and both indices of a household from a spending (`statedSpending` or a benchmark basis). */
export function indicesOf(parts: ScoreParts, spending: number): Indices {
  const psa = wholePsa(parts.netIncome, spending);
  return {
    psa,
    index: indexPoints(psa, 0, parts.netIncome),
    savingsIndex: indexPoints(psa, statedSavings(parts), parts.netIncome),
  };
}
