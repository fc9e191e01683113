/**
 * The model card's household-size tables (docs/model.md, "Household size"): the model's food at home by
 * household size against the cost of USDA's four food plans for a household of that size, and the five
 * items of the IRS national standards for food, clothing and other items against the model by size.
 */
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import { NATIONAL_GEOGRAPHY as NATIONAL } from '../../src/geo/types.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';
import {
  IRS_TABLE_PERSONS,
  type IrsNationalStandards,
  irsItemAnnual,
  irsTotalAnnual,
  modelItemAnnual,
  modelTotalAnnual,
  readIrsNationalStandards,
} from './irs-standards.js';
import { foodPlanAnnual, readUsdaFoodPlans, type UsdaFoodPlans } from './usda-food-plans.js';

const SIZES = [1, 2, 3, 4, 5, 6, 8, 10, 12, 20] as const;
const TAKE_HOMES = [30_000, 60_000] as const;
/** Sizes the summary lines state. */
const SUMMARY_SIZES = [1, 4, 8] as const;

const money = (x: number) => Math.round(x).toLocaleString('en-US');
const percent = (x: number) => `${Math.round(100 * x)}%`;
const thousands = (net: number) => `$${net / 1000}k`;

/** Annual spending per category (CATEGORY_INDEX order) at a take-home and household size. */
export type Predict = (net: number, members: number) => Float64Array;

/** The reference household of every size table: renter, reference person 40, national prices, type not given. */
function referenceHousehold(model: SpendingModel): Predict {
  return (net, members) => {
    const profile: Profile = {
      net_annual_income: net,
      age: 40,
      household_members: members,
      is_homeowner: false,
    };
    const out = new Float64Array(CATEGORY_COUNT);
    model.predict(profile, NATIONAL, out);
    return out;
  };
}

/** The generated section: food at home against the USDA food plans, then the IRS national standards. */
export function householdSizeTable(
  model: SpendingModel,
  standards: IrsNationalStandards = readIrsNationalStandards(),
  plans: UsdaFoodPlans = readUsdaFoodPlans(),
): string {
  const predict = referenceHousehold(model);
  return `${foodPlansTables(plans, predict)}\n\n${irsStandardsTables(standards, predict)}`;
}

/**
 * Per size, each plan's cost and the model's food at home as a share of each, after a line on how the
 * plans are dated and priced and a summary naming the plan the model reaches.
 */
export function foodPlansTables(plans: UsdaFoodPlans, predict: Predict): string {
  const ids = plans.plans.map((plan) => plan.id);
  const labels = plans.plans.map((plan) => plan.label);
  const rows = SIZES.map((members) => {
    const costs = ids.map((id) => foodPlanAnnual(plans, id, members));
    const cells = TAKE_HOMES.flatMap((net) => {
      const food = predict(net, members)[CATEGORY_INDEX.food_home]!;
      return [money(food), ...costs.map((c) => percent(food / c))];
    });
    return `| ${members} | ${[...costs.map(money), ...cells].join(' | ')} |`;
  });
  const heads = [
    ...labels,
    ...TAKE_HOMES.flatMap((net) => [`food at home, ${thousands(net)}`, ...labels.map((l) => `% of ${l}`)]),
  ];
  return [
    'Renter, reference person 40, national prices, household type not given; annual 2025 dollars.',
    '',
    foodPlansReading(plans),
    '',
    foodPlansSummary(plans, predict),
    '',
    `| members | ${heads.join(' | ')} |`,
    `|--:|${heads.map(() => '--:').join('|')}|`,
    ...rows,
  ].join('\n');
}

/** Which report and month each plan comes from, and how its dollars reach the model's price year. */
function foodPlansReading(plans: UsdaFoodPlans): string {
  const months = plans.plans.map(
    (plan) => `${plan.label} ${plan.month} (× ${plans.price_level.model_index} / ${plan.food_at_home_index})`,
  );
  return `USDA: monthly cost per person × 12, for a man and a woman (Thrifty 20–50, the other plans 19–50) and children 6–8 and 9–11, with USDA's household-size adjustment (${plans.household_size_adjustment.factors.join(', ')} for 1 to ${plans.household_size_adjustment.factors.length} or more persons); report months and price factors to ${plans.price_level.model_year} dollars (${plans.price_level.series}, ${plans.price_level.model_year} annual average over the report month): ${months.join('; ')}.`;
}

/**
 * The dearest plan whose cost the model's food at home reaches, with the model's share of it; below the
 * cheapest, that plan and the share.
 */
function planReached(plans: UsdaFoodPlans, food: number, members: number): string {
  const shares = plans.plans.map((plan) => ({
    label: plan.label,
    share: food / foodPlanAnnual(plans, plan.id, members),
  }));
  const reached = shares.filter((s) => s.share >= 1).at(-1);
  return reached
    ? `${reached.label} (${percent(reached.share)})`
    : `below ${shares[0]!.label} (${percent(shares[0]!.share)})`;
}

/** Per summary size and take-home, the plan the model's food at home reaches. */
function foodPlansSummary(plans: UsdaFoodPlans, predict: Predict): string {
  const parts = SUMMARY_SIZES.map((members) => {
    const atTakeHomes = TAKE_HOMES.map(
      (net) =>
        `${planReached(plans, predict(net, members)[CATEGORY_INDEX.food_home]!, members)} at ${thousands(net)}`,
    );
    return `${members} ${members === 1 ? 'person' : 'persons'} ${atTakeHomes.join(', ')}`;
  });
  return `Food at home against the plans (the dearest plan whose cost it reaches, and its share of that plan): ${parts.join('; ')}.`;
}

/**
 * The IRS comparison: how the amounts are read, a summary line, then each item for 1–4 persons and the
 * five items together for every size (the IRS publishes only the total beyond four).
 */
export function irsStandardsTables(standards: IrsNationalStandards, predict: Predict): string {
  const modelHeads = TAKE_HOMES.flatMap((net) => [`model, ${thousands(net)}`, '% of IRS']);
  const ratioHeads = TAKE_HOMES.map((net) => `model ÷ 1 person, ${thousands(net)}`);
  const byItem = standards.items.flatMap((item) =>
    SIZES.filter((members) => members <= IRS_TABLE_PERSONS).map((members) =>
      comparisonRow(item.label, members, predict, {
        irs: (m) => irsItemAnnual(standards, item.id, m),
        model: (p) => modelItemAnnual(p, item.id),
      }),
    ),
  );
  const allFive = { irs: (m: number) => irsTotalAnnual(standards, m), model: modelTotalAnnual };
  return [
    irsReading(standards),
    '',
    irsSummary(predict, allFive),
    '',
    `| item | members | IRS | ${modelHeads.join(' | ')} | IRS ÷ 1 person | ${ratioHeads.join(' | ')} |`,
    `|:--|--:|--:|${modelHeads.map(() => '--:').join('|')}|--:|${ratioHeads.map(() => '--:').join('|')}|`,
    ...byItem,
    ...SIZES.map((members) => comparisonRow('all five', members, predict, allFive)),
  ].join('\n');
}

/** The IRS amount for a size, and the model's spending on the same items from a prediction. */
interface Compared {
  readonly irs: (members: number) => number;
  readonly model: (prediction: Float64Array) => number;
}

/** The IRS amount, the model at each take-home and its share of the IRS amount, then each against one person. */
function comparisonRow(label: string, members: number, predict: Predict, compared: Compared): string {
  const irs = compared.irs(members);
  const model = TAKE_HOMES.map((net) => compared.model(predict(net, members)));
  const modelOne = TAKE_HOMES.map((net) => compared.model(predict(net, 1)));
  const cells = [
    money(irs),
    ...model.flatMap((m) => [money(m), percent(m / irs)]),
    (irs / compared.irs(1)).toFixed(2),
    ...model.map((m, i) => (m / modelOne[i]!).toFixed(2)),
  ];
  return `| ${label} | ${members} | ${cells.join(' | ')} |`;
}

/** How the IRS amounts are dated, priced and extended, and which model categories they meet. */
function irsReading(standards: IrsNationalStandards): string {
  const price = standards.price_level;
  return `IRS: the table ${standards.effective}; monthly amounts × 12 in ${price.model_year} dollars (× ${price.model_index} / ${price.standards_index}: ${price.series}, ${price.model_year} annual average over the ${price.standards_period}). Beyond four persons the IRS publishes only the total: the four-person total plus $${standards.each_additional_person} a month for each additional person. Model: the reference household above; food = food at home + food away from home, apparel & services = clothing items and services, the others the CE categories of the same name.`;
}

/** The five items together: the model's share of the IRS amount at a few sizes, and four persons against one. */
function irsSummary(predict: Predict, allFive: Compared): string {
  const atTakeHomes = (value: (net: number) => string) =>
    TAKE_HOMES.map((net) => `${value(net)} at ${thousands(net)}`).join(', ');
  const model = (net: number, members: number) => allFive.model(predict(net, members));
  const shares = SUMMARY_SIZES.map(
    (members) =>
      `${members} ${members === 1 ? 'person' : 'persons'} ${atTakeHomes((net) => percent(model(net, members) / allFive.irs(members)))}`,
  );
  const fourToOne = atTakeHomes((net) => (model(net, 4) / model(net, 1)).toFixed(2));
  return `All five items, the model against the IRS amount: ${shares.join('; ')}. Four persons against one: IRS ${(allFive.irs(4) / allFive.irs(1)).toFixed(2)}; model ${fourToOne}.`;
}
