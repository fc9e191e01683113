/**
 * Published numbers the build needs besides the microdata: 2023 CE table means per cut (calibration
 * targets), income growth 2014→2023, state price parities and CPI-U relatives 2025/2023.
 */
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { CE_CATEGORIES, type SpendingCategory } from './ce-categories.js';
import type { SourceReader } from './sources.js';

export const TARGET_YEAR = 2023;
export const PRICE_YEAR = 2025;

/** Calibration cuts: tidy table file (under ce/tidy) and the published column headers used. */
export const CUT_TABLES = {
  age: 'age/reference-person-age-ranges-2023.csv',
  income: 'income_quintiles/cu-income-quintiles-before-taxes-2023.csv',
  tenure: 'housing_tenure/cu-housing-tenure-2023.csv',
  region: 'region/cu-region-1-year-average-2023.csv',
  area: 'housing_tenure/cu-area-type-2023.csv',
  composition: 'composition/cu-composition-2023.csv',
} as const;
export type CutDimension = keyof typeof CUT_TABLES;

/** Mean per (cut column, category) for every published column of the table (absent: suppressed). */
export type CutTargets = Map<string, Map<SpendingCategory, number>>;

/**
 * Published as a reduction of liabilities ("Other financial information", negative: −$2,935 all CUs in
 * 2023); the category counts the principal paid, so its sign is flipped.
 */
const REDUCTION_ITEMS = new Set(['Mortgage principal paid on owned property']);
/** Owners' housing items that BLS suppresses ("c/", too few reports) for renters: effectively zero. */
const OWNER_ONLY_ITEMS = new Set(['Mortgage interest and charges', 'Property taxes']);

const stripNote = (label: string) => label.replace(/\s+[a-z]\/$/, '').trim();

export function readCutTargets(source: SourceReader, ceDir: string, dimension: CutDimension): CutTargets {
  const means = readItemMeans(source, join(ceDir, 'tidy', CUT_TABLES[dimension]));
  const targets: CutTargets = new Map();
  for (const [cut, byItem] of means) {
    targets.set(cut, categoryTargets(byItem, `${CUT_TABLES[dimension]} (${cut})`, cut === 'Renter'));
  }
  return targets;
}

/** Cut → published item → mean, from one tidy CE table. */
function readItemMeans(source: SourceReader, path: string): Map<string, Map<string, number>> {
  const means = new Map<string, Map<string, number>>();
  for (const row of source.csv(path)) {
    if (row.stat !== 'Mean') continue;
    const cut = row.cut!;
    const byItem = means.get(cut) ?? new Map<string, number>();
    const item = stripNote(row.item!);
    // Cells BLS suppresses (note "c/", empty value) are unknown, not zero.
    const value = row.value === '' ? Number.NaN : Number(row.value);
    // Labels like "Maintenance and repairs" occur once per table; keep the first if one ever repeats.
    if (!byItem.has(item)) byItem.set(item, value);
    means.set(cut, byItem);
  }
  return means;
}

/** Category → target of one cut: the sum of its published items; `where` names the cut in errors. */
function categoryTargets(
  byItem: ReadonlyMap<string, number>,
  where: string,
  renters: boolean,
): Map<SpendingCategory, number> {
  const perCategory = new Map<SpendingCategory, number>();
  for (const [name, def] of Object.entries(CE_CATEGORIES) as [
    SpendingCategory,
    (typeof CE_CATEGORIES)[SpendingCategory],
  ][]) {
    let sum = 0;
    for (const item of def.published) sum += signedItemValue(byItem, item, where, renters);
    // A category with a suppressed component has no target in this cut.
    if (Number.isFinite(sum)) perCategory.set(name, sum);
  }
  return perCategory;
}

/** One item's contribution to its category sum: reductions count negative, renters' owner-only items zero. */
function signedItemValue(
  byItem: ReadonlyMap<string, number>,
  item: string,
  where: string,
  renters: boolean,
): number {
  let value = byItem.get(item);
  if (value === undefined) throw new Error(`${where}: no "${item}"`);
  if (renters && OWNER_ONLY_ITEMS.has(item) && Number.isNaN(value)) value = 0;
  return REDUCTION_ITEMS.has(item) ? -value : value;
}

/** All-CU mean "Income after taxes" of a year's age table, for moving 2014 incomes to 2023. */
export function allCuIncomeAfterTaxes(source: SourceReader, ceDir: string, year: number): number {
  const rows = source.csv(join(ceDir, 'tidy', 'age', `reference-person-age-ranges-${year}.csv`));
  const row = rows.find(
    (r) => stripNote(r.item!) === 'Income after taxes' && r.cut === 'All consumer units' && r.stat === 'Mean',
  );
  if (!row) throw new Error(`no all-CU income after taxes for ${year}`);
  return Number(row.value);
}

export type PriceComponent = 'all' | 'goods' | 'housing' | 'utilities' | 'other';
const SARPP_LINES: Readonly<Record<string, PriceComponent>> = {
  'RPPs: All items': 'all',
  'RPPs: Goods': 'goods',
  'RPPs: Services: Housing': 'housing',
  'RPPs: Services: Utilities': 'utilities',
  'RPPs: Services: Other': 'other',
};

/** State FIPS (2 digits) → component → RPP (US = 100) in `year`, from BEA SARPP (latin-1, see geo README). */
export function readStateRpp(
  source: SourceReader,
  geoDir: string,
  year: number,
): Map<string, Record<PriceComponent, number>> {
  const rows = parse(source.text(join(geoDir, 'bea_sarpp_state_2008_2023.csv'), 'latin1'), {
    columns: true,
    relax_column_count: true,
    trim: true,
  }) as Record<string, string>[];
  const states = new Map<string, Record<PriceComponent, number>>();
  for (const row of rows) {
    const component = SARPP_LINES[(row.Description ?? '').trim()];
    const fips = (row.GeoFIPS ?? '').replace(/"/g, '').trim();
    if (!component || !/^\d{5}$/.test(fips) || fips === '00000') continue;
    const state = fips.slice(0, 2);
    const entry = states.get(state) ?? { all: 100, goods: 100, housing: 100, utilities: 100, other: 100 };
    entry[component] = Number(row[String(year)]);
    states.set(state, entry);
  }
  return states;
}

/** CPI-U all items annual averages (file's `SA0` row). */
export function allItemsCpi(source: SourceReader, cpiDir: string): { readonly [year: string]: number } {
  const rows = source.csv(join(cpiDir, 'cpiu_us_nsa_key_series_annual_2019_2026.csv'));
  const sa0 = rows.find((r) => r.item_code === 'SA0');
  if (!sa0) throw new Error('CPI file lacks SA0');
  return { '2023': Number(sa0['2023']), [String(PRICE_YEAR)]: Number(sa0[String(PRICE_YEAR)]) };
}

/** Konczal CE-category id (ce_category_cpi_relatives_2023base.csv) per category; null → all items. */
const CPI_CATEGORY: Readonly<Record<SpendingCategory, string | null>> = {
  food_home: '01',
  food_out: '02',
  alcoholic_beverages: '03',
  mortgage_and_rent: '07',
  home_maintenance_and_repairs: '06',
  other_lodging: '08',
  natural_gas: '09',
  electricity: '10',
  heating_fuels_other: '11',
  residential_phone_service: '12',
  cellular_phone_service: '12',
  water_and_public_services: null,
  household_operations: '15',
  housekeeping_supplies: '16',
  furniture_and_appliances: '17',
  clothing_items_and_services: '19',
  vehicle_purchase_and_lease: '23',
  gasoline: '24',
  vehicle_maintenance_and_repairs: '25',
  vehicle_insurance: '25',
  public_and_other_transportation: '26',
  health_insurance: '27',
  medical_services: '28',
  prescription_drugs: '29',
  medical_supplies: '30',
  fees_and_admissions: '31',
  media_hardware_and_services: '32',
  pets: '33',
  toys_and_hobbies: '34',
  personal_care: '35',
  reading: null,
  education: '37',
  tobacco_and_smoking: '38',
  miscellaneous: '39',
  cash_contributions: null,
  life_and_personal_insurance: null,
};

/** Price relative PRICE_YEAR / 2023 per category. */
export function categoryPriceRelatives(source: SourceReader, cpiDir: string): Map<SpendingCategory, number> {
  const rows = source.csv(join(cpiDir, 'ce_category_cpi_relatives_2023base.csv'));
  const cpi = allItemsCpi(source, cpiDir);
  const allItems = cpi[String(PRICE_YEAR)]! / cpi['2023']!;
  const relatives = new Map<SpendingCategory, number>();
  for (const [name, id] of Object.entries(CPI_CATEGORY) as [SpendingCategory, string | null][]) {
    const row = id === null ? undefined : rows.find((r) => r.cat_id === id);
    if (id !== null && !row) throw new Error(`CPI relatives lack category ${id}`);
    relatives.set(name, row ? Number(row.ratio_2025_2023) : allItems);
  }
  return relatives;
}

/** Published "Number of consumer units (in thousands)" per cut column of a dimension's table. */
export function readCutCounts(
  source: SourceReader,
  ceDir: string,
  dimension: CutDimension,
): Map<string, number> {
  const rows = source.csv(join(ceDir, 'tidy', CUT_TABLES[dimension]));
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (row.stat === 'Value' && stripNote(row.item!) === 'Number of consumer units (in thousands)')
      counts.set(row.cut!, Number(row.value));
  }
  return counts;
}
