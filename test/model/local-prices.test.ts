/**
 * Local prices in the shipped artifact through the real geography (issue acceptance: two ZIPs of one
 * metro with different rent levels give different housing; Honolulu and Anchorage give different
 * electricity and natural gas for the same household).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import { loadGeoResolver } from '../../src/geo/load.js';
import type { GeoResolver } from '../../src/geo/types.js';
import { loadSpendingModel } from '../../src/model/load.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';

const RENTER: Profile = { net_annual_income: 80_000, age: 40, household_members: 2, is_homeowner: false };
const OWNER: Profile = { ...RENTER, is_homeowner: true };

let model: SpendingModel;
let geo: GeoResolver;

beforeAll(async () => {
  [model, geo] = await Promise.all([loadSpendingModel(), loadGeoResolver()]);
});

function spending(profile: Profile, zip: string, category: keyof typeof CATEGORY_INDEX): number {
  const out = new Float64Array(CATEGORY_COUNT);
  model.predict(profile, geo.resolve(zip), out);
  return out[CATEGORY_INDEX[category]]!;
}

describe('shipped model, local prices', () => {
  it.each([
    ['10021', '10453', 'New York'],
    ['94025', '94110', 'San Francisco'],
  ])(
    'housing, dearer ZIP %s against %s of one metro (%s), is higher for renters and owners',
    (dear, cheap) => {
      expect(geo.resolve(dear).cbsa).toBe(geo.resolve(cheap).cbsa);
      for (const profile of [RENTER, OWNER]) {
        expect(spending(profile, dear, 'mortgage_and_rent')).toBeGreaterThan(
          1.05 * spending(profile, cheap, 'mortgage_and_rent'),
        );
      }
    },
  );

  it('housing, ZIPs of one metro with the same rent index, is the same', () => {
    const [a, b] = ['10453', '10452'].map((zip) => geo.resolve(zip));
    expect(a!.rentIndex).toBe(b!.rentIndex);
    expect(spending(RENTER, '10453', 'mortgage_and_rent')).toBe(
      spending(RENTER, '10452', 'mortgage_and_rent'),
    );
  });

  it.each(['electricity', 'natural_gas'] as const)(
    '%s, same household in Honolulu (96813) and Anchorage (99501), differs by more than 10 %%',
    (category) => {
      const honolulu = spending(RENTER, '96813', category);
      const anchorage = spending(RENTER, '99501', category);
      expect(Math.abs(Math.log(honolulu / anchorage))).toBeGreaterThan(Math.log(1.1));
    },
  );

  it('natural gas, Anchorage against Honolulu, is higher (Alaska heats with gas, Hawaii barely uses it)', () => {
    expect(spending(RENTER, '99501', 'natural_gas')).toBeGreaterThan(
      spending(RENTER, '96813', 'natural_gas'),
    );
  });

  it('electricity, ZIPs of one metro in two states (10453 NY, 07102 NJ), follows each state', () => {
    expect(geo.resolve('07102').rpp).toBe(geo.resolve('10453').rpp);
    expect(spending(RENTER, '07102', 'electricity')).not.toBe(spending(RENTER, '10453', 'electricity'));
  });

  it('the budget, a dearer ZIP of one metro (10021 against 10453): more housing, less food at home, total up by at most the price level', () => {
    const total = (zip: string) => model.predict(RENTER, geo.resolve(zip), new Float64Array(CATEGORY_COUNT));
    expect(spending(RENTER, '10021', 'food_home')).toBeLessThan(spending(RENTER, '10453', 'food_home'));
    const housing = (zip: string) => spending(RENTER, zip, 'mortgage_and_rent');
    const totalRise = total('10021') - total('10453');
    expect(totalRise).toBeGreaterThan(0);
    expect(totalRise).toBeLessThan(housing('10021') - housing('10453'));
  });
});
