/**
 * The model card's local-price and survey-bias tables (docs/model.md, "Local prices" and "What the survey
 * misses"): example ZIPs through the real geography, the state effects with their raw estimates and how
 * their direction compares with BEA's utilities parity, and total spending over take-home by take-home
 * band for the raw 2014 survey and for the shipped model on the same households.
 */
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import type { GeoResolver } from '../../src/geo/types.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';
import type { Household } from './extract-households.js';
import { SPENDING } from './fit.js';
import { householdGeography, type StateCodes, type StateRpp } from './population.js';
import type { CategoryStateEffects } from './state-effects.js';

const money = (x: number) => Math.round(x).toLocaleString('en-US');
const CE_REGIONS = ['Northeast', 'Midwest', 'South', 'West'] as const;

/** The fixed household the place examples share: a renter couple, 40, $80k take-home. */
const PLACE_PROFILE: Profile = {
  net_annual_income: 80_000,
  age: 40,
  household_members: 2,
  is_homeowner: false,
};
const OWNER_PROFILE: Profile = { ...PLACE_PROFILE, is_homeowner: true };

const PLACES: readonly [string, string][] = [
  ['10021', 'New York: Upper East Side'],
  ['10453', 'New York: Bronx'],
  ['07102', 'New York metro: Newark NJ'],
  ['11756', 'New York metro: Levittown'],
  ['94110', 'San Francisco: Mission'],
  ['94025', 'San Francisco metro: Menlo Park'],
  ['96813', 'Honolulu'],
  ['99501', 'Anchorage'],
  ['38610', 'rural Mississippi'],
  ['35210', 'Birmingham AL'],
];

/** Housing and energy for one household at each example ZIP. */
export function localPricesTable(model: SpendingModel, resolver: GeoResolver): string {
  const out = new Float64Array(CATEGORY_COUNT);
  const at = (profile: Profile, zip: string, category: keyof typeof CATEGORY_INDEX) => {
    model.predict(profile, resolver.resolve(zip), out);
    return out[CATEGORY_INDEX[category]]!;
  };
  return [
    `Household: ${JSON.stringify(PLACE_PROFILE)} (and the same as owners for the owners' column), ${model.priceYear} dollars a year.`,
    '',
    '| ZIP | place | rent index | renters: mortgage_and_rent | owners: mortgage_and_rent | electricity | natural_gas |',
    '|---|---|--:|--:|--:|--:|--:|',
    ...PLACES.map(([zip, label]) => {
      const geo = resolver.resolve(zip);
      return `| ${zip} | ${label} | ${(geo.rentIndex ?? 1).toFixed(2)} | ${money(at(PLACE_PROFILE, zip, 'mortgage_and_rent'))} | ${money(at(OWNER_PROFILE, zip, 'mortgage_and_rent'))} | ${money(at(PLACE_PROFILE, zip, 'electricity'))} | ${money(at(PLACE_PROFILE, zip, 'natural_gas'))} |`;
    }),
  ].join('\n');
}

/**
 * Per state the raw ratio (± SE) and the shipped factor of electricity and natural gas, and whether the
 * factor moves the way the state's utilities parity (2014) stands against its region's: the "wrong sign"
 * cases are listed, not dropped.
 */
export function stateEffectsTable(
  effects: readonly CategoryStateEffects[],
  utilitiesRpp: ReadonlyMap<string, number>,
): string {
  const shown = effects.filter((e) => e.category === 'electricity' || e.category === 'natural_gas');
  const states = shown[0]!.states.map((s) => s.state);
  const regionMean = new Map<number, number>();
  for (const region of [1, 2, 3, 4]) {
    const members = shown[0]!.states.filter((s) => s.region === region);
    const total = members.reduce((a, s) => a + Math.log(utilitiesRpp.get(s.state) ?? 100), 0);
    regionMean.set(region, total / members.length);
  }
  const agreement = shown.map((e) => {
    const disagreeing = e.states.filter((s) => {
      const price = Math.log(utilitiesRpp.get(s.state) ?? 100) - regionMean.get(s.region)!;
      return Math.sign(price) !== Math.sign(s.factor - 1);
    });
    return `${e.category}: the factor moves with the state's utilities parity (against its region's mean) in ${e.states.length - disagreeing.length} of ${e.states.length} states; against it in ${disagreeing.map((s) => s.state).join(', ')}`;
  });
  const cell = (e: CategoryStateEffects, state: string) => {
    const s = e.states.find((x) => x.state === state)!;
    return `${s.raw.toFixed(2)} ± ${s.se.toFixed(2)} | ${s.factor.toFixed(3)}`;
  };
  return [
    `Between-state standard deviation (DerSimonian–Laird): ${effects.map((e) => `${e.category} ${e.tau.toFixed(3)}`).join(', ')}. ${agreement.join('. ')}.`,
    '',
    `| state | region | CU-quarters | utilities RPP 2014 | ${shown.map((e) => `${e.category}: observed / fitted ± SE | factor`).join(' | ')} |`,
    `|---|---|--:|--:|${shown.map(() => '--:|--:|').join('')}`,
    ...states.map((state) => {
      const s = shown[0]!.states.find((x) => x.state === state)!;
      return `| ${state} | ${CE_REGIONS[s.region - 1]} | ${s.households} | ${(utilitiesRpp.get(state) ?? 0).toFixed(1)} | ${shown.map((e) => cell(e, state)).join(' | ')} |`;
    }),
  ].join('\n');
}

/** Take-home bands (survey-year dollars) of the bias curve: [lower, upper). */
const BANDS: readonly [number, number][] = [
  [0, 10_000],
  [10_000, 15_000],
  [15_000, 20_000],
  [20_000, 25_000],
  [25_000, 30_000],
  [30_000, 40_000],
  [40_000, 50_000],
  [50_000, 75_000],
  [75_000, 100_000],
  [100_000, 150_000],
  [150_000, Number.POSITIVE_INFINITY],
];

const bandLabel = ([lo, hi]: readonly [number, number]) =>
  hi === Number.POSITIVE_INFINITY ? `$${lo / 1000}k and more` : `$${lo / 1000}k–$${hi / 1000}k`;

/**
 * Spending over take-home per band: Σ weight × spending / Σ weight × take-home, for the survey's own
 * reports and for the shipped model's prediction for the same households (their age, size, tenure, state;
 * take-home aged to the price year), all households and reference persons 25–64.
 */
export function surveyBiasTable(
  model: SpendingModel,
  households: readonly Household[],
  incomeScale: number,
  rpp: StateRpp,
  stateCodes: StateCodes,
): string {
  const out = new Float64Array(CATEGORY_COUNT);
  const sums = BANDS.map(() => ({ all: [0, 0, 0, 0], working: [0, 0, 0, 0] }));
  for (const h of households) {
    if (h.weight === 0 || h.region === 0 || h.takeHome <= 0) continue;
    const band = BANDS.findIndex(([lo, hi]) => h.takeHome >= lo && h.takeHome < hi);
    const reported = SPENDING.reduce((s, _, c) => s + Math.max(0, h.spending[c]!), 0);
    const takeHome = h.takeHome * incomeScale;
    model.predict(
      { net_annual_income: takeHome, age: h.age, household_members: h.members, is_homeowner: h.isHomeowner },
      householdGeography(h, rpp, stateCodes),
      out,
    );
    const modelled = out.slice(0, CATEGORY_INDEX.savings).reduce((a, b) => a + b, 0);
    const add = (s: number[]) => {
      s[0]! += h.weight * reported;
      s[1]! += h.weight * h.takeHome;
      s[2]! += h.weight * modelled;
      s[3]! += h.weight * takeHome;
    };
    add(sums[band]!.all);
    if (h.age >= 25 && h.age <= 64) add(sums[band]!.working);
  }
  const ratio = (s: number[], spent: number, income: number) => (s[spent]! / s[income]!).toFixed(2);
  return [
    '| take-home (2014 $) | survey | model | survey, 25–64 | model, 25–64 |',
    '|---|--:|--:|--:|--:|',
    ...BANDS.map((band, b) => {
      const { all, working } = sums[b]!;
      return `| ${bandLabel(band)} | ${ratio(all, 0, 1)} | ${ratio(all, 2, 3)} | ${ratio(working, 0, 1)} | ${ratio(working, 2, 3)} |`;
    }),
  ].join('\n');
}
