/**
 * The bounds a household's answer keeps beyond what its schema states (src/contract/limits.ts,
 * ANSWER_LIMITS): an amount of 1e12 or an index of 99999 passes the schema's types but is no answer the
 * service gives, so the row is rejected as off the contract rather than written.
 */
import { CATEGORIES } from '../contract/categories.js';
import { ANSWER_LIMITS } from '../contract/limits.js';
import { offContractRejection } from './checked-answer.js';
import type { RemoteHousehold, RemoteOutcome } from './outcome.js';

/** The household's answer, or its rejection when a value is out of bounds (fields named after `prefix`). */
export function boundedOutcome(value: RemoteHousehold, path: string, prefix = ''): RemoteOutcome {
  const problems = outOfBounds(value);
  if (problems.length === 0) return { ok: true, value };
  return offContractRejection(
    path,
    problems.map((problem) => `${prefix}${problem}`),
  );
}

/** What is out of bounds in `household`, each naming the field; empty when nothing is. */
function outOfBounds(household: RemoteHousehold): string[] {
  const problems: string[] = [];
  for (const [part, amounts] of [
    ['budget', household.budget],
    ['model', household.model],
  ] as const)
    amounts.forEach((amount, c) => {
      if (amount > ANSWER_LIMITS.amountMax)
        problems.push(`${part}.${CATEGORIES[c]} must be <= ${ANSWER_LIMITS.amountMax} (is ${amount})`);
    });
  for (const field of ['index', 'savings_index'] as const) {
    const value = household.explanation[field];
    if (value > ANSWER_LIMITS.indexMax)
      problems.push(`details.${field} must be <= ${ANSWER_LIMITS.indexMax} (is ${value})`);
  }
  return problems;
}
