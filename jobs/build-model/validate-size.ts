/**
 * The model card's household-size tables (docs/model.md, "Household size"): the model's food at home by
 * household size against the cost of USDA's Thrifty Food Plan for a household of that size, and the five
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

/**
 * USDA Food Plans: Cost of Food report, Thrifty Food Plan, September 2025, monthly cost per person in a
 * four-person family (fns.usda.gov/research/cnpp/usda-food-plans/cost-food-monthly-reports): man and woman
 * 20–50, child 6–8, child 9–11 (the four make USDA's reference family, $1,002.20 a month).
 */
const THRIFTY_MONTHLY = { man: 312.2, woman: 248.9, child6to8: 204.6, child9to11: 236.5 } as const;

/**
 * USDA's suggested adjustment for household size (the same report's footnote): the per-person costs are
 * for four-person families; 1 person +20 %, 2 +10 %, 3 +5 %, 5–6 −5 %, 7 or more −10 %.
 */
function economiesOfSize(members: number): number {
  if (members === 1) return 1.2;
  if (members === 2) return 1.1;
  if (members === 3) return 1.05;
  if (members === 4) return 1;
  return members <= 6 ? 0.95 : 0.9;
}

/**
 * The Thrifty Food Plan's annual cost for a household of `members`: one adult (the mean of man and woman);
 * a couple; then children 6–8 and 9–11 in turn (a composition chosen here, stated in the model card).
 */
export function thriftyAnnualCost(members: number): number {
  const people =
    members === 1
      ? (THRIFTY_MONTHLY.man + THRIFTY_MONTHLY.woman) / 2
      : THRIFTY_MONTHLY.man +
        THRIFTY_MONTHLY.woman +
        Array.from({ length: members - 2 }, (_, k) =>
          k % 2 === 0 ? THRIFTY_MONTHLY.child6to8 : THRIFTY_MONTHLY.child9to11,
        ).reduce((a, b) => a + b, 0);
  return 12 * people * economiesOfSize(members);
}

const SIZES = [1, 2, 3, 4, 5, 6, 8, 10, 12, 20] as const;
const TAKE_HOMES = [30_000, 60_000] as const;
/** Sizes the IRS comparison's summary line states. */
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

/** The generated section: food at home against Thrifty, then the IRS national standards against the model. */
export function householdSizeTable(
  model: SpendingModel,
  standards: IrsNationalStandards = readIrsNationalStandards(),
): string {
  const predict = referenceHousehold(model);
  return `${thriftyTable(predict)}\n\n${irsStandardsTables(standards, predict)}`;
}

/** Per size, food at home against the Thrifty Food Plan's cost. */
function thriftyTable(predict: Predict): string {
  const rows = SIZES.map((members) => {
    const thrifty = thriftyAnnualCost(members);
    const cells = TAKE_HOMES.flatMap((net) => {
      const food = predict(net, members)[CATEGORY_INDEX.food_home]!;
      return [money(food), percent(food / thrifty)];
    });
    return `| ${members} | ${money(thrifty)} | ${cells.join(' | ')} |`;
  });
  const heads = TAKE_HOMES.flatMap((net) => [`food at home, ${thousands(net)}`, '% of Thrifty']);
  return [
    'Renter, reference person 40, national prices, household type not given; annual 2025 dollars.',
    '',
    `| members | Thrifty Food Plan | ${heads.join(' | ')} |`,
    `|--:|--:|${heads.map(() => '--:').join('|')}|`,
    ...rows,
  ].join('\n');
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
