/**
 * The terms of the index's decomposition (docs/scores.md, "Reason codes"), in dollars a year: take-home
 * less what peers spend, then for each category counted at something other than the peers' amount the
 * peers' amount less it, and the stated other debt payments, negative. They sum to 12 × PSA before the
 * PSA's rounding to whole dollars a month: every term, those that push the index up as well as the
 * reasons that pull it down.
 */
import {
  CATEGORIES,
  type Category,
  OTHER_DEBT_INDEX,
  SPENDING_CATEGORY_COUNT,
} from '../contract/categories.js';
import type { Term } from '../contract/score-details.js';
import { type ScoreParts, statedByIndex } from './index-score.js';

export { TERM_CODES, type Term, TermItem } from '../contract/score-details.js';

const cents = (dollars: number) => Math.round(dollars * 100) / 100 + 0;

/**
 * The terms of a household on its basis (`parts` as the basis sees it: `heldToBenchmarks` for the
 * benchmark basis), in CATEGORIES order after the take-home term. A category counted at its benchmark
 * rather than a stated amount is `BENCHMARK_VS_PEERS`.
 */
export function scoreTerms(parts: ScoreParts): Term[] {
  const stated = statedByIndex(parts.stated);
  const { peers } = parts;
  let peerSpending = 0;
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) peerSpending += peers[i]!;
  const terms: Term[] = [
    { code: 'TAKE_HOME_LESS_PEER_SPENDING', category: null, amount: cents(parts.netIncome - peerSpending) },
  ];
  for (let i = 0; i < SPENDING_CATEGORY_COUNT; i++) {
    const amount = stated[i];
    if (amount === undefined) continue;
    const code = parts.benchmarked?.[i] === true ? 'BENCHMARK_VS_PEERS' : 'STATED_VS_PEERS';
    terms.push({ code, category: CATEGORIES[i]!, amount: cents(peers[i]! - amount) });
  }
  const debt = stated[OTHER_DEBT_INDEX];
  if (debt !== undefined) {
    const category: Category = 'other_debt_payments';
    terms.push({ code: 'OTHER_DEBT_PAYMENTS', category, amount: cents(-debt) });
  }
  return terms;
}
