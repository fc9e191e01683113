/**
 * The 2014 CE households as the shipped model sees them in the target year: take-home aged to price-year
 * dollars and the state's 2023 price parities (national when CE suppresses the state). Used to calibrate
 * the artifact through its own predict path and to validate it.
 */
import { CATEGORIES, CATEGORY_COUNT } from '../../src/contract/categories.js';
import { HOUSEHOLD_TYPES, type HouseholdType } from '../../src/contract/schemas.js';
import type { Geography } from '../../src/geo/types.js';
import type { SpendingModel } from '../../src/model/types.js';
import type { SpendingCategory } from './ce-categories.js';
import { householdTypeIndex } from './composition.js';
import type { Household } from './extract-households.js';
import type { PriceComponent } from './published.js';

const REGION_NAMES = ['northeast', 'midwest', 'south', 'west'] as const;
const NATIONAL_RPP = { all: 100, goods: 100, housing: 100, utilities: 100, other: 100 } as const;

export type StateRpp = ReadonlyMap<string, Record<PriceComponent, number>>;
/** State FIPS → USPS code. */
export type StateCodes = ReadonlyMap<string, string>;

/**
 * A household's place: its state's parities and USPS code (which the state effects key on), and for an
 * urban household its PSU's POPSIZE class as the metro-size class (the engine takes it from the CBSA).
 */
export function householdGeography(h: Household, rpp: StateRpp, stateCodes: StateCodes): Geography {
  const state = rpp.get(h.stateFips);
  return {
    level: state ? 'state' : 'national',
    state: stateCodes.get(h.stateFips) ?? null,
    cbsa: null,
    region: REGION_NAMES[h.region - 1] ?? null,
    urban: h.urban,
    rpp: state ?? NATIONAL_RPP,
    rppScope: state ? 'state' : 'national',
    metroSize: h.urban && h.popsize > 0 ? h.popsize : null,
  };
}

/**
 * Per category, every household's shipped prediction deflated to 2023 dollars (÷ the category's CPI
 * relative), comparable with the 2023 published means; 0 for households outside the population (weight 0
 * or unknown region). With `givesHouseholdType` false the profiles leave their composition out, as a
 * client who does not send it.
 */
export function shippedPredictions(
  model: SpendingModel,
  households: readonly Household[],
  incomeScale: number,
  rpp: StateRpp,
  stateCodes: StateCodes,
  categories: readonly SpendingCategory[],
  relatives: ReadonlyMap<SpendingCategory, number>,
  givesHouseholdType: boolean,
): Float64Array[] {
  const result = categories.map(() => new Float64Array(households.length));
  const out = new Float64Array(CATEGORY_COUNT);
  const columns = categories.map((c) => CATEGORIES.indexOf(c));
  const deflators = categories.map((c) => relatives.get(c)!);
  households.forEach((h, i) => {
    if (h.weight === 0 || h.region === 0) return;
    model.predict(
      {
        net_annual_income: h.takeHome * incomeScale,
        age: h.age,
        household_members: h.members,
        is_homeowner: h.isHomeowner,
        household_type: givesHouseholdType ? householdType(h) : undefined,
      },
      householdGeography(h, rpp, stateCodes),
      out,
    );
    columns.forEach((column, c) => {
      result[c]![i] = out[column]! / deflators[c]!;
    });
  });
  return result;
}

export const householdType = (h: Household): HouseholdType => HOUSEHOLD_TYPES[householdTypeIndex(h.famType)]!;
