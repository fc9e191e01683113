import { CATEGORY_COUNT, OTHER_DEBT_INDEX, SAVINGS_INDEX } from '../contract/categories.js';
import { clearQuotas, fileQuota, placeLeftover } from './apportion.js';
import { roundHalfAwayFromZero } from './rounding.js';

/**
 * Budget allocation. Given categories keep their amount (rounded to whole units); the others share what
 * is left of the rounded net income in proportion to the modeled amounts, by largest remainder, so the
 * budget adds up exactly to the rounded income. Savings and other debt payments are never filled: they
 * are 0 unless given. When the given amounts exceed the income the filled categories are 0 and the
 * budget adds up to more than the income — the shortfall stays visible instead of going negative.
 *
 * The model amounts, the floors of the apportionment and the spending the score subtracts read the same
 * given and modeled amounts, so they are computed in one pass over the categories rather than in one
 * pass each; the two sums that pass needs first come from the steps before it (`readGivenBudget`, the
 * model's `predict`).
 */
export class BudgetAllocator {
  private readonly fillable = new Uint8Array(CATEGORY_COUNT);

  /**
   * Writes the budget into `out` and the modeled amounts in whole units into `modelOut`, and returns
   * the spending of the saving ability (`monthlySavingAbility`): every category but savings, given
   * amounts as sent and modeled ones otherwise. `modeled` must hold 0 for other debt payments;
   * `givenWhole` is the sum of the given amounts rounded to whole units, and `fillableWeight` the sum of
   * the modeled amounts of the categories to fill (neither given, nor savings, nor other debt
   * payments), in index order.
   */
  allocate(
    netIncome: number,
    given: Float64Array,
    isGiven: Uint8Array,
    givenWhole: number,
    modeled: Float64Array,
    fillableWeight: number,
    out: Float64Array,
    modelOut: Float64Array,
  ): number {
    const { fillable } = this;
    const total = Math.max(0, roundHalfAwayFromZero(netIncome) - givenWhole);
    // One division, not one per category: divisions are the slowest step of the quotas.
    const perWeight = total / fillableWeight;
    clearQuotas();
    let floorSum = 0;
    let filled = 0;
    let spending = 0;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      const weight = modeled[i]!;
      modelOut[i] = roundHalfAwayFromZero(weight);
      if (isGiven[i] === 1) {
        const amount = given[i]!;
        out[i] = roundHalfAwayFromZero(amount);
        fillable[i] = 0;
        if (i !== SAVINGS_INDEX) spending += amount;
      } else if (i === SAVINGS_INDEX || i === OTHER_DEBT_INDEX) {
        // Never filled: 0 unless given. (Modeled other debt is 0, which leaves the spending as it is.)
        out[i] = 0;
        fillable[i] = 0;
      } else {
        fillable[i] = 1;
        spending += weight;
        floorSum += fileQuota(i, weight * perWeight, out);
        filled++;
      }
    }
    placeLeftover(total, fillableWeight, floorSum, filled, fillable, out);
    return spending;
  }
}
