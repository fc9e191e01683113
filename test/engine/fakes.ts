/**
 * Small stand-ins for the spending model and the geography resolver, so engine rules can be tested with
 * amounts computed by hand. Fakes live only in tests; the shipped code path loads the real artifact.
 */
import {
  CATEGORIES,
  CATEGORY_COUNT,
  type Category,
  OTHER_DEBT_INDEX,
  SAVINGS_INDEX,
  SPENDING_CATEGORY_COUNT,
} from '../../src/contract/categories.js';
import {
  QUANTILE_STEPS,
  SCORE_REFERENCE_FORMAT,
  type ScoreReference,
} from '../../src/engine/score-reference.js';
import type { Geography, GeoResolver } from '../../src/geo/types.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';

/** Share of net income the fake model spends per category: 2% each, food at home 10%, housing 25%. */
const SHARE: Partial<Record<Category, number>> = { food_home: 0.1, mortgage_and_rent: 0.25 };
const shareOf = (c: Category) => (c === 'savings' || c === 'other_debt_payments' ? 0 : (SHARE[c] ?? 0.02));

/** Spends `shareOf` × net income (0.35 + 34 × 0.02 = 1.03 of it), scaled by `scale`; savings = what is left, ≥ 0. */
export function fakeModel(scale = 0.8): SpendingModel {
  return {
    version: 'fake-1',
    priceYear: 2024,
    predict(profile: Profile, _geo: Geography, out: Float64Array, excluded?: Uint8Array) {
      let spending = 0;
      let included = 0;
      for (let i = 0; i < CATEGORY_COUNT; i++) {
        const amount = shareOf(CATEGORIES[i]!) * profile.net_annual_income * scale;
        out[i] = amount;
        spending += amount;
        if (i !== SAVINGS_INDEX && i !== OTHER_DEBT_INDEX && excluded?.[i] !== 1) included += amount;
      }
      out[OTHER_DEBT_INDEX] = 0;
      out[SAVINGS_INDEX] = Math.max(0, profile.net_annual_income - spending);
      return included;
    },
    predictInto(out: Float64Array, excluded: Uint8Array) {
      return (profile: Profile, geo: Geography) => this.predict(profile, geo, out, excluded);
    },
    ranges(_profile: Profile, means: ArrayLike<number>, out: Float64Array) {
      for (let c = 0; c < SPENDING_CATEGORY_COUNT; c++) {
        FAKE_RANGE_RATIOS.forEach((ratio, p) => {
          out[3 * c + p] = ratio * means[c]!;
        });
      }
      return FAKE_PEERS;
    },
  };
}

/** The fake model's 25th, 50th and 75th percentiles as multiples of its mean, and its count of peers. */
export const FAKE_RANGE_RATIOS = [0.5, 0.8, 1.3] as const;
export const FAKE_PEERS = 250;

const ALABAMA: Geography = {
  level: 'zip',
  state: 'AL',
  cbsa: '13820',
  region: 'south',
  urban: true,
  rpp: { all: 90, goods: 95, housing: 75, utilities: 100, other: 95 },
  rppScope: 'metro',
};

/**
 * ZIPs starting with 352 resolve at ZIP level in Birmingham, AL; everything else falls back to national,
 * and prefixes 000 and 999 (unassigned by USPS) are unknown.
 */
export const fakeGeo: GeoResolver = {
  knows: (zip5) => !zip5.startsWith('000') && !zip5.startsWith('999'),
  resolvePrefix: (zip3) =>
    zip3 === '352' ? { ...ALABAMA, level: 'zip3', cbsa: null, urban: null } : undefined,
  resolve: (zip5) =>
    zip5.startsWith('352')
      ? ALABAMA
      : {
          ...ALABAMA,
          level: 'national',
          state: null,
          cbsa: null,
          region: null,
          urban: null,
          rppScope: 'national',
        },
};

/**
 * A score reference for a model of `modelVersion`: indices spread evenly from -20 to 120 (percentile p at
 * index -20 + 1.4 p), so that a percentile is easy to work out by hand.
 */
export function fakeReference(modelVersion: string): ScoreReference {
  const quantiles = Array.from({ length: QUANTILE_STEPS + 1 }, (_, i) => -20 + (140 * i) / QUANTILE_STEPS);
  return {
    format: SCORE_REFERENCE_FORMAT,
    version: 'fake-reference-1',
    modelVersion,
    build: { command: 'test/engine/fakes.ts', sources: {}, notes: [] },
    population: { households: 1, weight: 1 },
    outlayIndex: quantiles,
    fairLendingIndex: quantiles,
  };
}
