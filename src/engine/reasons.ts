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
import { type ScoreParts, type StatedAmounts, statedByIndex, statedSavings } from './index-score.js';
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
/** Positions in REASON_CODES. */
const INCOME_RANK = REASON_CODES.indexOf(INCOME_CODE);
const DEBT_RANK = REASON_CODES.indexOf(DEBT_CODE);
/** The first spending category's; category i's is this + i. */
const ABOVE_PEERS_RANK = REASON_CODES.indexOf(ABOVE_PEERS_CODES[0]!);
const SAVINGS_RANK = REASON_CODES.indexOf(SAVINGS_CODE);
const LOAN_RANK = REASON_CODES.indexOf(LOAN_CODE);

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

/**
 * A reason before it is worded: its code's position in REASON_CODES, and its points. The batch output
 * needs only the codes, so the words are made from the parts afterwards, for the reasons kept (a closure
 * per candidate cost every scored row its allocation).
 */
interface Candidate {
  readonly rank: number;
  readonly points: number;
}

/** Points of the index that `dollarsOver` a year of take-home pay is worth. */
const pointsOf = (dollarsOver: number, netIncome: number) => (100 * dollarsOver) / netIncome;

/** What peers spend on the spending categories together. */
function peerSpending(peers: ArrayLike<number>): number {
  let spending = 0;
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) spending += peers[i]!;
  return spending;
}

/**
 * The reasons every index shares: take-home below peer spending, stated expenses above peers'. `stated`
 * is `statedByIndex(parts.stated)`, read once by a caller that has it.
 */
function sharedCandidates(parts: ScoreParts, stated: StatedAmounts): Candidate[] {
  const { netIncome, peers } = parts;
  const candidates: Candidate[] = [];
  const spending = peerSpending(peers);
  if (spending > netIncome) {
    candidates.push({ rank: INCOME_RANK, points: pointsOf(spending - netIncome, netIncome) });
  }
  const debt = stated[OTHER_DEBT_INDEX] ?? 0;
  if (debt > 0) candidates.push({ rank: DEBT_RANK, points: pointsOf(debt, netIncome) });
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) {
    const amount = stated[i];
    const peer = peers[i]!;
    if (amount === undefined || !(amount > peer)) continue;
    candidates.push({ rank: ABOVE_PEERS_RANK + i, points: pointsOf(amount - peer, netIncome) });
  }
  return candidates;
}

/** The words of a reason `sharedCandidates` gives. */
function sharedWords(rank: number, parts: ScoreParts, stated: StatedAmounts): string {
  const { netIncome, peers } = parts;
  if (rank === INCOME_RANK) {
    const spending = peerSpending(peers);
    return `Take-home pay of ${dollars(netIncome)} a year is ${dollars(spending - netIncome)} below the ${dollars(spending)} that comparable households spend`;
  }
  if (rank === DEBT_RANK) {
    const debt = stated[OTHER_DEBT_INDEX]!;
    return `Other debt payments of ${dollars(debt)} a year take ${percentOf(debt, netIncome)} of take-home pay`;
  }
  const i = rank - ABOVE_PEERS_RANK;
  const amount = stated[i]!;
  const peer = peers[i]!;
  const label = CATEGORY_DESCRIPTIONS[SPENDING_CATEGORIES[i]!].label;
  // On the benchmark basis a category may count at its benchmark, above anything the caller stated.
  const counted =
    parts.benchmarked?.[i] === true
      ? `${label[0]!.toUpperCase()}${label.slice(1)} counted at its benchmark of`
      : `Stated ${label} of`;
  return `${counted} ${dollars(amount)} a year is ${dollars(amount - peer)} above the ${dollars(peer)} that comparable households spend`;
}

/** The largest MAX_REASONS of `candidates`, largest first, ties in REASON_CODES order. */
function largestFirst(candidates: Candidate[]): Candidate[] {
  return candidates.sort((a, b) => b.points - a.points || a.rank - b.rank).slice(0, MAX_REASONS);
}

/**
 * The reasons kept of `candidates`, worded: an index's own reason (savings, loan) by `ownWords`, the
 * others as `sharedCandidates` gives them.
 */
function worded(parts: ScoreParts, candidates: Candidate[], ownWords?: () => string): Reason[] {
  const stated = statedByIndex(parts.stated);
  return largestFirst(candidates).map(({ rank, points }) => ({
    code: REASON_CODES[rank]!,
    text: rank === SAVINGS_RANK || rank === LOAN_RANK ? ownWords!() : sharedWords(rank, parts, stated),
    points,
  }));
}

/** The reasons of the main score (OUTLAY) and its index. */
export const scoreReasons = (parts: ScoreParts): Reason[] =>
  worded(parts, sharedCandidates(parts, statedByIndex(parts.stated)));

/**
 * The codes of `scoreReasons`, without their wordings (the batch output's `reason_codes`). `stated` is
 * `statedByIndex(parts.stated)`, for a caller that has read it already.
 */
export const scoreReasonCodes = (
  parts: ScoreParts,
  stated: StatedAmounts = statedByIndex(parts.stated),
): string[] =>
  largestFirst(sharedCandidates(parts, stated)).map((candidate) => REASON_CODES[candidate.rank]!);

/** The reasons of the SAViNGS score: the main score's, and the stated savings target. */
export function savingsReasons(parts: ScoreParts): Reason[] {
  const candidates = sharedCandidates(parts, statedByIndex(parts.stated));
  const savings = statedSavings(parts);
  if (savings > 0) candidates.push({ rank: SAVINGS_RANK, points: pointsOf(savings, parts.netIncome) });
  return worded(
    parts,
    candidates,
    () =>
      `The stated savings target of ${dollars(savings)} a year is ${percentOf(savings, parts.netIncome)} of take-home pay`,
  );
}

/**
 * The reasons of the lending index: the main score's, and the proposed loan payment as stressed
 * (`stressedPayment`, monthly; lending.ts).
 */
export function lendingReasons(parts: ScoreParts, monthlyPayment: number, stressedPayment: number): Reason[] {
  const candidates = sharedCandidates(parts, statedByIndex(parts.stated));
  if (stressedPayment > 0) {
    candidates.push({ rank: LOAN_RANK, points: (1200 * stressedPayment) / parts.netIncome });
  }
  return worded(
    parts,
    candidates,
    () =>
      `The proposed loan payment of ${dollars(monthlyPayment)} a month, ${dollars(stressedPayment)} with the stress buffer, is ${percentOf(12 * stressedPayment, parts.netIncome)} of take-home pay`,
  );
}
