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
import { type ScoreParts, statedByIndex, statedSavings } from './index-score.js';
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

/** `abovePeersCode` of each spending category, CATEGORIES order. */
const ABOVE_PEERS_CODES = SPENDING_CATEGORIES.map(abovePeersCode);

export const INCOME_CODE = 'INCOME_BELOW_PEER_SPENDING';
export const DEBT_CODE = 'OTHER_DEBT_PAYMENTS';
export const SAVINGS_CODE = 'SAVINGS_TARGET';
export const LOAN_CODE = 'LOAN_PAYMENT';

/** Every code, in the order ties are broken (and docs/scores.md lists them). */
export const REASON_CODES: readonly string[] = [
  INCOME_CODE,
  DEBT_CODE,
  ...ABOVE_PEERS_CODES,
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
const dollars = (amount: number): string => dollarFormat.format(roundHalfAwayFromZero(amount));
/** A share of take-home pay in percent, one decimal, e.g. "5.1%". */
const percentOf = (amount: number, netIncome: number) =>
  `${(roundHalfAwayFromZero((1000 * amount) / netIncome) / 10).toFixed(1)}%`;

/** A reason before it is worded: the batch output needs only the codes. */
interface Candidate {
  readonly code: string;
  readonly points: number;
  words(): string;
}

/** The reasons every index shares: take-home below peer spending, stated expenses above peers'. */
function sharedCandidates(parts: ScoreParts): Candidate[] {
  const { netIncome, peers } = parts;
  const points = (dollarsOver: number) => (100 * dollarsOver) / netIncome;
  const candidates: Candidate[] = [];
  let peerSpending = 0;
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) peerSpending += peers[i]!;
  if (peerSpending > netIncome) {
    candidates.push({
      code: INCOME_CODE,
      points: points(peerSpending - netIncome),
      words: () =>
        `Take-home pay of ${dollars(netIncome)} a year is ${dollars(peerSpending - netIncome)} below the ${dollars(peerSpending)} that comparable households spend`,
    });
  }
  const stated = statedByIndex(parts.stated);
  const debt = stated[OTHER_DEBT_INDEX] ?? 0;
  if (debt > 0) {
    candidates.push({
      code: DEBT_CODE,
      points: points(debt),
      words: () =>
        `Other debt payments of ${dollars(debt)} a year take ${percentOf(debt, netIncome)} of take-home pay`,
    });
  }
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) {
    const amount = stated[i];
    const peer = peers[i]!;
    if (amount === undefined || !(amount > peer)) continue;
    candidates.push({
      code: ABOVE_PEERS_CODES[i]!,
      points: points(amount - peer),
      words: () =>
        `Stated ${CATEGORY_DESCRIPTIONS[SPENDING_CATEGORIES[i]!].label} of ${dollars(amount)} a year is ${dollars(amount - peer)} above the ${dollars(peer)} that comparable households spend`,
    });
  }
  return candidates;
}

/** The largest MAX_REASONS of `candidates`, largest first, ties in REASON_CODES order. */
function largestFirst(candidates: Candidate[]): Candidate[] {
  return candidates
    .sort((a, b) => b.points - a.points || TIE_ORDER.get(a.code)! - TIE_ORDER.get(b.code)!)
    .slice(0, MAX_REASONS);
}

const worded = (candidates: Candidate[]): Reason[] =>
  largestFirst(candidates).map(({ code, points, words }) => ({ code, text: words(), points }));

/** The reasons of the main score (OUTLAY) and its index. */
export const scoreReasons = (parts: ScoreParts): Reason[] => worded(sharedCandidates(parts));

/** The codes of `scoreReasons`, without their wordings (the batch output's `reason_codes`). */
export const scoreReasonCodes = (parts: ScoreParts): string[] =>
  largestFirst(sharedCandidates(parts)).map((candidate) => candidate.code);

/** The reasons of the SAViNGS score: the main score's, and the stated savings target. */
export function savingsReasons(parts: ScoreParts): Reason[] {
  const candidates = sharedCandidates(parts);
  const savings = statedSavings(parts);
  if (savings > 0) {
    candidates.push({
      code: SAVINGS_CODE,
      points: (100 * savings) / parts.netIncome,
      words: () =>
        `The stated savings target of ${dollars(savings)} a year is ${percentOf(savings, parts.netIncome)} of take-home pay`,
    });
  }
  return worded(candidates);
}

/**
 * The reasons of the lending index: the main score's, and the proposed loan payment as stressed
 * (`stressedPayment`, monthly; lending.ts).
 */
export function lendingReasons(parts: ScoreParts, monthlyPayment: number, stressedPayment: number): Reason[] {
  const candidates = sharedCandidates(parts);
  if (stressedPayment > 0) {
    candidates.push({
      code: LOAN_CODE,
      points: (1200 * stressedPayment) / parts.netIncome,
      words: () =>
        `The proposed loan payment of ${dollars(monthlyPayment)} a month, ${dollars(stressedPayment)} with the stress buffer, is ${percentOf(12 * stressedPayment, parts.netIncome)} of take-home pay`,
    });
  }
  return worded(candidates);
}
