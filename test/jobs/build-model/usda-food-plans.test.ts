/**
 * USDA's food plans (data/reference/usda-food-plans.json, jobs/build-model/usda-food-plans.ts) and the
 * model card's food-plan table (jobs/build-model/validate-size.ts).
 *
 * Golden values: monthly cost per person in a four-person family, USDA "Official USDA Food Plans: Cost of
 * Food at Home". Thrifty, September 2025 (fns.usda.gov cost-food-monthly-reports page): man 20–50 $312.20,
 * woman $248.90, child 6–8 $204.60, child 9–11 $236.50. Low-Cost, Moderate-Cost and Liberal, July 2026
 * (the three-level report, cnpp-costfood-3levels-july2026): man 19–50 $317.40 / $398.70 / $487.50, woman
 * $276.10 / $337.10 / $430.20, child 6–8 $262.80 / $305.10 / $357.00, child 9–11 $271.60 / $350.20 /
 * $408.20. USDA's size adjustment: 1 person ×1.2, 3 ×1.05, 7 or more ×0.9. To 2025 dollars with CPI-U food
 * at home (2025 average 313.266; September 2025 316.042; July 2026 321.643). Worked by hand:
 * Thrifty, 1 person: (312.2 + 248.9) / 2 × 1.2 × 12 × 313.266 / 316.042 = 4,004.43;
 * Low-Cost, 4 persons: 1,127.9 × 12 × 313.266 / 321.643 = 13,182.29;
 * Moderate-Cost, 3 persons: (398.7 + 337.1 + 305.1) × 1.05 × 12 × 313.266 / 321.643 = 12,773.76;
 * Liberal, 7 persons: (487.5 + 430.2 + 3 × 357.0 + 2 × 408.2) × 0.9 × 12 × 313.266 / 321.643 = 29,506.06.
 */
import { describe, expect, it } from 'vitest';
import {
  foodPlanAnnual,
  parseUsdaFoodPlans,
  readUsdaFoodPlans,
  type UsdaFoodPlans,
} from '../../../jobs/build-model/usda-food-plans.js';
import { foodPlansTables, type Predict } from '../../../jobs/build-model/validate-size.js';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../../src/contract/categories.js';

const plans = readUsdaFoodPlans();
const copy = (): UsdaFoodPlans => structuredClone(plans);

describe('readUsdaFoodPlans', () => {
  it('the committed file holds the published reference-family rows of the four plans', () => {
    expect(plans.plans.map((p) => [p.id, p.month, p.monthly])).toEqual([
      ['thrifty', '2025-09', { man: 312.2, woman: 248.9, child_6_8: 204.6, child_9_11: 236.5 }],
      ['low_cost', '2026-07', { man: 317.4, woman: 276.1, child_6_8: 262.8, child_9_11: 271.6 }],
      ['moderate_cost', '2026-07', { man: 398.7, woman: 337.1, child_6_8: 305.1, child_9_11: 350.2 }],
      ['liberal', '2026-07', { man: 487.5, woman: 430.2, child_6_8: 357.0, child_9_11: 408.2 }],
    ]);
    expect(plans.household_size_adjustment.factors).toEqual([1.2, 1.1, 1.05, 1, 0.95, 0.95, 0.9]);
  });
});

describe('parseUsdaFoodPlans', () => {
  it('plans out of USDA order: refused, naming the order found', () => {
    const broken = copy();
    broken.plans.reverse();
    expect(() => parseUsdaFoodPlans(broken, 'usda.json')).toThrow(
      'usda.json: plans are liberal, moderate_cost, low_cost, thrifty, expected thrifty, low_cost, moderate_cost, liberal',
    );
  });

  it('a price level for another year than the model: refused', () => {
    const broken = copy();
    broken.price_level.model_year = 2026;
    expect(() => parseUsdaFoodPlans(broken, 'usda.json')).toThrow('price_level.model_year 2026 is not 2025');
  });

  it('a cost that is not positive: refused at its path', () => {
    const broken = copy();
    broken.plans[2]!.monthly.woman = 0;
    expect(() => parseUsdaFoodPlans(broken, 'usda.json')).toThrow("usda.json at '/plans/2/monthly/woman'");
  });
});

describe('foodPlanAnnual', () => {
  it('one person: the mean of man and woman, +20 %, at 2025 food prices', () => {
    expect(foodPlanAnnual(plans, 'thrifty', 1)).toBeCloseTo(4_004.43, 2);
  });

  it('three and four persons: the couple, then a child 6–8, then a child 9–11', () => {
    expect(foodPlanAnnual(plans, 'moderate_cost', 3)).toBeCloseTo(12_773.76, 2);
    expect(foodPlanAnnual(plans, 'low_cost', 4)).toBeCloseTo(13_182.29, 2);
  });

  it('seven persons: children alternate, and the 7-or-more adjustment holds beyond seven', () => {
    expect(foodPlanAnnual(plans, 'liberal', 7)).toBeCloseTo(29_506.06, 2);
    const perChild = foodPlanAnnual(plans, 'liberal', 9) - foodPlanAnnual(plans, 'liberal', 7);
    expect(perChild).toBeCloseTo(((357.0 + 408.2) * 0.9 * 12 * 313.266) / 321.643, 6);
  });

  it('no household: refused', () => {
    expect(() => foodPlanAnnual(plans, 'thrifty', 0)).toThrow('USDA thrifty: no cost for 0 persons');
  });
});

describe('foodPlansTables', () => {
  /** A model spending $5,000 a year on food at home whatever the size and take-home. */
  const flat: Predict = () => {
    const out = new Float64Array(CATEGORY_COUNT);
    out[CATEGORY_INDEX.food_home] = 5_000;
    return out;
  };
  const table = foodPlansTables(plans, flat);

  it('each size: the four plan costs, then the model and its share of each plan at both take-homes', () => {
    expect(table).toContain(
      '| 1 | 4,004 | 4,162 | 5,160 | 6,435 | 5,000 | 125% | 120% | 97% | 78% | 5,000 | 125% | 120% | 97% | 78% |',
    );
  });

  it('the summary names the dearest plan reached, or the share of the cheapest below it', () => {
    expect(table).toContain('1 person Low-Cost (120%) at $30k, Low-Cost (120%) at $60k');
    expect(table).toContain('4 persons below Thrifty (42%) at $30k');
  });

  it('the reading line states each plan month and its price factor', () => {
    expect(table).toContain('Thrifty 2025-09 (× 313.266 / 316.042); Low-Cost 2026-07 (× 313.266 / 321.643)');
  });
});
