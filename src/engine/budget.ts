import { CATEGORY_COUNT, OTHER_DEBT_INDEX, SAVINGS_INDEX } from '../contract/categories.js';
import { Apportioner } from './apportion.js';
import { roundHalfAwayFromZero } from './rounding.js';

/**
 * Budget allocation. Given categories keep their amount (rounded to whole units); the others share what
 * is left of the rounded net income in proportion to the modeled amounts, by largest remainder, so the
 * budget adds up exactly to the rounded income. Savings and other debt payments are never filled: they
 * are 0 unless given. When the given amounts exceed the income the filled categories are 0 and the
 * budget adds up to more than the income — the shortfall stays visible instead of going negative.
 */
export class BudgetAllocator {
  private readonly apportioner = new Apportioner();
  private readonly fillable = new Uint8Array(CATEGORY_COUNT);

  allocate(
    netIncome: number,
    given: Float64Array,
    isGiven: Uint8Array,
    modeled: Float64Array,
    out: Float64Array,
  ): void {
    const { fillable } = this;
    let fixed = 0;
    let weightSum = 0;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      if (isGiven[i] === 1) {
        const amount = roundHalfAwayFromZero(given[i]!);
        out[i] = amount;
        fixed += amount;
        fillable[i] = 0;
      } else if (i === SAVINGS_INDEX || i === OTHER_DEBT_INDEX) {
        // Never filled: 0 unless given.
        out[i] = 0;
        fillable[i] = 0;
      } else {
        fillable[i] = 1;
        // Summed in index order over the filled categories, as Apportioner.apportion would.
        weightSum += modeled[i]!;
      }
    }
    this.apportioner.apportionSummed(
      Math.max(0, roundHalfAwayFromZero(netIncome) - fixed),
      weightSum,
      modeled,
      fillable,
      out,
    );
  }
}
