/**
 * The 38 budget categories, in contract order. This list is the single source of truth: response
 * schemas, OpenAPI, CSV column names and every Float64Array index in the engine derive from it.
 */
export const CATEGORIES = [
  'food_home',
  'food_out',
  'alcoholic_beverages',
  'mortgage_and_rent',
  'home_maintenance_and_repairs',
  'other_lodging',
  'natural_gas',
  'electricity',
  'heating_fuels_other',
  'residential_phone_service',
  'cellular_phone_service',
  'water_and_public_services',
  'household_operations',
  'housekeeping_supplies',
  'furniture_and_appliances',
  'clothing_items_and_services',
  'vehicle_purchase_and_lease',
  'gasoline',
  'vehicle_maintenance_and_repairs',
  'vehicle_insurance',
  'public_and_other_transportation',
  'health_insurance',
  'medical_services',
  'prescription_drugs',
  'medical_supplies',
  'fees_and_admissions',
  'media_hardware_and_services',
  'pets',
  'toys_and_hobbies',
  'personal_care',
  'reading',
  'education',
  'tobacco_and_smoking',
  'miscellaneous',
  'cash_contributions',
  'life_and_personal_insurance',
  'savings',
  'other_debt_payments',
] as const;

export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_COUNT = CATEGORIES.length;

/** Index of each category in CATEGORIES, for engine code that works on Float64Array(38) with keys known at run time. */
export const CATEGORY_INDEX_BY_KEY: ReadonlyMap<string, number> = new Map(CATEGORIES.map((c, i) => [c, i]));

/** The same indices as a record, for code that names its categories. */
export const CATEGORY_INDEX: Readonly<Record<Category, number>> = Object.freeze(
  Object.fromEntries(CATEGORY_INDEX_BY_KEY) as Record<Category, number>,
);

export const SAVINGS_INDEX = CATEGORY_INDEX.savings;
export const OTHER_DEBT_INDEX = CATEGORY_INDEX.other_debt_payments;

/**
 * The spending categories are every category but savings and other debt payments, which the model derives
 * rather than tabulates and the budget never fills: the first SPENDING_CATEGORY_COUNT, since those two
 * come last, so that the engine's loops over the spending categories need no test for them.
 */
export const SPENDING_CATEGORY_COUNT = CATEGORY_COUNT - 2;
if (SAVINGS_INDEX < SPENDING_CATEGORY_COUNT || OTHER_DEBT_INDEX < SPENDING_CATEGORY_COUNT) {
  throw new Error('outlay: savings and other_debt_payments must be the last two categories');
}

/** A record with one value per category, e.g. a budget or a model in a response body. */
export type CategoryRecord<T = number> = Record<Category, T>;
