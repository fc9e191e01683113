/**
 * USDA's four food plans (data/reference/usda-food-plans.json: figures, report months, sources, licence)
 * as the annual cost of food at home for a household of a given size, in the model's price year, for the
 * model card's household-size comparison. The file's shape is defined once here (TypeBox) and checked
 * when it is read.
 */
import { join } from 'node:path';
import { DATA_DIR } from '../../src/paths.js';
import Type, { type Static } from '../../src/vendor/typebox.js';
import { annualAtIndex, ReferenceSources, referenceTable } from './reference-data.js';

export const USDA_FOOD_PLANS_PATH = join(DATA_DIR, 'reference', 'usda-food-plans.json');
const FORMAT = 'outlay-usda-food-plans/1';

/** The plans from cheapest to dearest, as USDA orders them. */
const PLAN_IDS = ['thrifty', 'low_cost', 'moderate_cost', 'liberal'] as const;
export type FoodPlanId = (typeof PLAN_IDS)[number];

const cost = () => Type.Number({ exclusiveMinimum: 0 });

export const UsdaFoodPlans = Type.Object(
  {
    format: Type.Literal(FORMAT),
    title: Type.String(),
    unit: Type.String(),
    licence: Type.String(),
    household_size_adjustment: Type.Object(
      {
        note: Type.String(),
        /** By size from one person; the last factor holds for every larger size. */
        factors: Type.Array(cost(), { minItems: 1 }),
      },
      { additionalProperties: false },
    ),
    plans: Type.Array(
      Type.Object(
        {
          id: Type.Enum(PLAN_IDS, { type: 'string' }),
          label: Type.String(),
          report: Type.String(),
          month: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$' }),
          adult_ages: Type.String(),
          /** USDA's reference family: a man and a woman, a child 6–8 and a child 9–11. */
          monthly: Type.Object(
            { man: cost(), woman: cost(), child_6_8: cost(), child_9_11: cost() },
            { additionalProperties: false },
          ),
          /** CPI-U food at home in the plan's month. */
          food_at_home_index: cost(),
        },
        { additionalProperties: false },
      ),
      { minItems: PLAN_IDS.length, maxItems: PLAN_IDS.length },
    ),
    sources: ReferenceSources,
    price_level: Type.Object(
      {
        series: Type.String(),
        source: Type.String(),
        model_year: Type.Integer(),
        model_index: cost(),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type UsdaFoodPlans = Static<typeof UsdaFoodPlans>;
type FoodPlan = UsdaFoodPlans['plans'][number];

/** Beyond the shape: the four plans in USDA's order, which the table's columns follow. */
function checkOrder(json: UsdaFoodPlans, source: string): void {
  const order = json.plans.map((plan) => plan.id).join(', ');
  if (order !== PLAN_IDS.join(', ')) {
    throw new Error(`${source}: plans are ${order}, expected ${PLAN_IDS.join(', ')}`);
  }
}

const table = referenceTable(UsdaFoodPlans, USDA_FOOD_PLANS_PATH, checkOrder);
/** Checks the parsed file; `source` names it in the error. */
export const parseUsdaFoodPlans = table.parse;
export const readUsdaFoodPlans = table.read;

/**
 * The people behind a household of `members`, as monthly costs: one adult (the mean of man and woman);
 * a couple; then children 6–8 and 9–11 in turn (a composition chosen here, stated in the model card).
 */
function peopleMonthly(plan: FoodPlan, members: number): number {
  const { man, woman, child_6_8, child_9_11 } = plan.monthly;
  if (members === 1) return (man + woman) / 2;
  const children = Array.from({ length: members - 2 }, (_, k) => (k % 2 === 0 ? child_6_8 : child_9_11));
  return children.reduce((sum, child) => sum + child, man + woman);
}

/** USDA's adjustment for a household of `members` (the published costs are for four-person families). */
function sizeFactor(plans: UsdaFoodPlans, members: number): number {
  const { factors } = plans.household_size_adjustment;
  return factors[Math.min(members, factors.length) - 1]!;
}

/** A plan's annual cost of food at home for a household of `members`, in the model's price year. */
export function foodPlanAnnual(plans: UsdaFoodPlans, id: FoodPlanId, members: number): number {
  if (!Number.isInteger(members) || members < 1)
    throw new Error(`USDA ${id}: no cost for ${members} persons`);
  const plan = plans.plans.find((p) => p.id === id)!;
  const monthly = peopleMonthly(plan, members) * sizeFactor(plans, members);
  return annualAtIndex(monthly, plans.price_level.model_index, plan.food_at_home_index);
}
