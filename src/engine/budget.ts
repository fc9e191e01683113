import { CATEGORY_COUNT, OTHER_DEBT_INDEX, SAVINGS_INDEX } from '../contract/categories.js';
import { Apportioner } from './apportion.js';
import { roundHalfAwayFromZero } from './rounding.js';

/**
 * Budget allocation. Given categories keep their amount (rounded to whole units); the others share what
 * is left of the rounded net income in proportion to the modeled amounts, by largest remainder, so the
 * budget adds up exactly to the rounded income. Savings and other debt payments are never filled: they
 * are 0 unless given. When the given amounts exceed the income the filled categories are 0 and the
 * budget adds up to more than the income — the shortfall stays visible instead of going negative.
 *
 * The model amounts and the spending the score subtracts read the same given and modeled amounts, so
 * they are computed in the same pass over the categories rather than in one pass each.
 */
export class BudgetAllocator {
  private readonly apportioner = new Apportioner();
  private readonly fillable = new Uint8Array(CATEGORY_COUNT);

  /**
   * Writes the budget into `out` and the modeled amounts in whole units into `modelOut`, and returns
   * the spending of the saving ability (`monthlySavingAbility`): every category but savings, given
   * amounts as sent and modeled ones otherwise. `modeled` must hold 0 for other debt payments.
   */
  allocate(
    netIncome: number,
    given: Float64Array,
    isGiven: Uint8Array,
    modeled: Float64Array,
    out: Float64Array,
    modelOut: Float64Array,
  ): number {
    const { fillable } = this;
    let fixed = 0;
    let weightSum = 0;
    let spending = 0;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      const weight = modeled[i]!;
      modelOut[i] = roundHalfAwayFromZero(weight);
      if (isGiven[i] === 1) {
        const amount = given[i]!;
        const whole = roundHalfAwayFromZero(amount);
        out[i] = whole;
        fixed += whole;
        fillable[i] = 0;
        if (i !== SAVINGS_INDEX) spending += amount;
      } else if (i === SAVINGS_INDEX || i === OTHER_DEBT_INDEX) {
        // Never filled: 0 unless given. (Modeled other debt is 0, which leaves the spending as it is.)
        out[i] = 0;
        fillable[i] = 0;
      } else {
        fillable[i] = 1;
        // Summed in index order over the filled categories, as Apportioner.apportion would.
        weightSum += weight;
        spending += weight;
      }
    }
    this.apportioner.apportionSummed(
      Math.max(0, roundHalfAwayFromZero(netIncome) - fixed),
      weightSum,
      modeled,
      fillable,
      out,
    );
    return spending;
  }
}
