/**
 * The model card's household-size table (docs/model.md, "Household size"): the model's food at home by
 * household size against the cost of USDA's Thrifty Food Plan for a household of that size, and the
 * model's IRS national-standard categories by size relative to one person.
 */
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import { NATIONAL_GEOGRAPHY as NATIONAL } from '../../src/geo/types.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';

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

const NEEDS = [
  CATEGORY_INDEX.food_home,
  CATEGORY_INDEX.food_out,
  CATEGORY_INDEX.clothing_items_and_services,
  CATEGORY_INDEX.housekeeping_supplies,
  CATEGORY_INDEX.personal_care,
  CATEGORY_INDEX.miscellaneous,
];
const SIZES = [1, 2, 3, 4, 5, 6, 8, 10, 12, 20] as const;
const TAKE_HOMES = [30_000, 60_000] as const;

const money = (x: number) => Math.round(x).toLocaleString('en-US');

/** The generated table: per size, food at home against Thrifty and the needs categories against one person. */
export function householdSizeTable(model: SpendingModel): string {
  const out = new Float64Array(CATEGORY_COUNT);
  const at = (net: number, members: number) => {
    const profile: Profile = {
      net_annual_income: net,
      age: 40,
      household_members: members,
      is_homeowner: false,
    };
    model.predict(profile, NATIONAL, out);
    return { food: out[CATEGORY_INDEX.food_home]!, needs: NEEDS.reduce((s, c) => s + out[c]!, 0) };
  };
  const single = TAKE_HOMES.map((net) => at(net, 1).needs);
  const rows = SIZES.map((members) => {
    const thrifty = thriftyAnnualCost(members);
    const cells = TAKE_HOMES.flatMap((net, i) => {
      const { food, needs } = at(net, members);
      return [money(food), `${Math.round((100 * food) / thrifty)}%`, (needs / single[i]!).toFixed(2)];
    });
    return `| ${members} | ${money(thrifty)} | ${cells.join(' | ')} |`;
  });
  return [
    'Renter, reference person 40, national prices, household type not given; annual 2025 dollars. "Needs ÷ 1 person": food at home and away, apparel, housekeeping supplies, personal care and miscellaneous (the IRS national-standard categories) against the same take-home with one member.',
    '',
    '| members | Thrifty Food Plan | food at home, $30k | % of Thrifty | needs ÷ 1 person | food at home, $60k | % of Thrifty | needs ÷ 1 person |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
}
