/**
 * Reason codes: what lowers a score, from the score's own arithmetic, largest effect first. The main
 * index is, exactly before rounding,
 *
 *     80 + 100 × (net − Σ peers(c)) / net − Σ over stated c of 100 × (stated(c) − peers(c)) / net
 *
 * (peers(c): the model's amount for this profile, 0 for other debt payments), so each term below 80 is
 * a reason worth its term in points: take-home below what peers spend, and each stated expense above
 * what peers spend on it. The SAViNGS index subtracts the savings target too, and the lending index the
 * stressed loan payment. The published table of codes, wordings and computations is docs/scores.md.
 *
 * A reason names an amount and a category, never age, household type or marital status (US Regulation B,
 * 12 CFR 1002.9: reasons must be specific and must not be prohibited bases).
 */
import {
  CATEGORIES,
  type Category,
  OTHER_DEBT_INDEX,
  SPENDING_CATEGORY_COUNT,
} from '../contract/categories.js';
import { CATEGORY_DESCRIPTIONS } from './category-kinds.js';
import { type ScoreParts, statedAmount, statedSavings } from './index-score.js';
import { roundHalfAwayFromZero } from './rounding.js';

/** At most this many reasons per score, as adverse-action notices commonly give (four key factors). */
export const MAX_REASONS = 4;

export interface Reason {
  readonly code: string;
  readonly text: string;
  /** How many points of the index this reason takes away, unrounded. */
  readonly points: number;
}

const SPENDING_CATEGORIES = CATEGORIES.slice(0, SPENDING_CATEGORY_COUNT);

/** The code of a stated spending category above what peers spend on it. */
export const abovePeersCode = (category: Category): string => `HIGH_${category.toUpperCase()}`;

export const INCOME_CODE = 'INCOME_BELOW_PEER_SPENDING';
export const DEBT_CODE = 'OTHER_DEBT_PAYMENTS';
export const SAVINGS_CODE = 'SAVINGS_TARGET';
export const LOAN_CODE = 'LOAN_PAYMENT';

/** Every code, in the order ties are broken (and docs/scores.md lists them). */
export const REASON_CODES: readonly string[] = [
  INCOME_CODE,
  DEBT_CODE,
  ...SPENDING_CATEGORIES.map(abovePeersCode),
  SAVINGS_CODE,
  LOAN_CODE,
];
const TIE_ORDER = new Map(REASON_CODES.map((code, i) => [code, i]));

const dollarFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
/** Whole dollars, e.g. "$2,202". */
export const dollars = (amount: number): string => dollarFormat.format(roundHalfAwayFromZero(amount));
/** A share of take-home pay in percent, one decimal, e.g. "5.1%". */
const percentOf = (amount: number, netIncome: number) =>
  `${(roundHalfAwayFromZero((1000 * amount) / netIncome) / 10).toFixed(1)}%`;

/** The reasons every index shares: take-home below peer spending, stated expenses above peers'. */
function sharedReasons(parts: ScoreParts): Reason[] {
  const { netIncome, peers } = parts;
  const points = (dollarsOver: number) => (100 * dollarsOver) / netIncome;
  const reasons: Reason[] = [];
  let peerSpending = 0;
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) peerSpending += peers[i]!;
  if (peerSpending > netIncome) {
    reasons.push({
      code: INCOME_CODE,
      text: `Take-home pay of ${dollars(netIncome)} a year is ${dollars(peerSpending - netIncome)} below the ${dollars(peerSpending)} that comparable households spend`,
      points: points(peerSpending - netIncome),
    });
  }
  const debt = statedAmount(parts, CATEGORIES[OTHER_DEBT_INDEX]!) ?? 0;
  if (debt > 0) {
    reasons.push({
      code: DEBT_CODE,
      text: `Other debt payments of ${dollars(debt)} a year take ${percentOf(debt, netIncome)} of take-home pay`,
      points: points(debt),
    });
  }
  SPENDING_CATEGORIES.forEach((category, i) => {
    const stated = statedAmount(parts, category);
    if (stated === undefined || !(stated > peers[i]!)) return;
    const { label } = CATEGORY_DESCRIPTIONS[category];
    reasons.push({
      code: abovePeersCode(category),
      text: `Stated ${label} of ${dollars(stated)} a year is ${dollars(stated - peers[i]!)} above the ${dollars(peers[i]!)} that comparable households spend`,
      points: points(stated - peers[i]!),
    });
  });
  return reasons;
}

/** The largest MAX_REASONS of `reasons`, largest first, ties in REASON_CODES order. */
function largestFirst(reasons: Reason[]): Reason[] {
  return reasons
    .sort((a, b) => b.points - a.points || TIE_ORDER.get(a.code)! - TIE_ORDER.get(b.code)!)
    .slice(0, MAX_REASONS);
}

/** The reasons of the main score (OUTLAY) and its index. */
export const scoreReasons = (parts: ScoreParts): Reason[] => largestFirst(sharedReasons(parts));

/** The reasons of the SAViNGS score: the main score's, and the stated savings target. */
export function savingsReasons(parts: ScoreParts): Reason[] {
  const reasons = sharedReasons(parts);
  const savings = statedSavings(parts);
  if (savings > 0) {
    reasons.push({
      code: SAVINGS_CODE,
      text: `The stated savings target of ${dollars(savings)} a year is ${percentOf(savings, parts.netIncome)} of take-home pay`,
      points: (100 * savings) / parts.netIncome,
    });
  }
  return largestFirst(reasons);
}

/**
 * The reasons of the lending index: the main score's, and the proposed loan payment as stressed
 * (`stressedPayment`, monthly; lending.ts).
 */
export function lendingReasons(parts: ScoreParts, monthlyPayment: number, stressedPayment: number): Reason[] {
  const reasons = sharedReasons(parts);
  if (stressedPayment > 0) {
    reasons.push({
      code: LOAN_CODE,
      text: `The proposed loan payment of ${dollars(monthlyPayment)} a month, ${dollars(stressedPayment)} with the stress buffer, is ${percentOf(12 * stressedPayment, parts.netIncome)} of take-home pay`,
      points: (1200 * stressedPayment) / parts.netIncome,
    });
  }
  return largestFirst(reasons);
}
