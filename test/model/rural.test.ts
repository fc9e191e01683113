/**
 * Rural places in the shipped artifact, against what the model card lists (docs/model.md, "Geography",
 * generated section `rural`): every category's rural factor is the card's shipped value and lies in its
 * estimate's 95 % interval at every rural ZIP of ten states, for generated profiles; and a rural
 * household's total stays within the card's band of its state's urban total (RURAL_TOTAL_BAND,
 * jobs/build-model/rural-band.ts), Absarokee MT against Billings included.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  RURAL_BAND_PROFILE,
  RURAL_BAND_STATES,
  RURAL_TOTAL_BAND,
  ruralTotalRatios,
} from '../../jobs/build-model/rural-band.js';
import { CATEGORIES, CATEGORY_COUNT, SPENDING_CATEGORY_COUNT } from '../../src/contract/categories.js';
import { loadGeoResolver } from '../../src/geo/load.js';
import type { Geography, GeoResolver } from '../../src/geo/types.js';
import { loadSpendingModel } from '../../src/model/load.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';
import { DATA_DIR, PACKAGE_ROOT } from '../../src/paths.js';

/** One row of the card's rural estimates table. */
interface ListedFactor {
  readonly low: number;
  readonly high: number;
  readonly shipped: number;
}

/** The card's rural table: category → its 95 % interval and shipped factor (3 decimals, as printed). */
function listedFactors(): Map<string, ListedFactor> {
  const card = readFileSync(join(PACKAGE_ROOT, 'docs', 'model.md'), 'utf8');
  const section = card.slice(
    card.indexOf('<!-- generated:rural -->'),
    card.indexOf('<!-- /generated:rural -->'),
  );
  const rows = new Map<string, ListedFactor>();
  for (const match of section.matchAll(
    /^\| (\w+) \| \d+ \| [\d.]+ ± [\d.]+ \| ([\d.]+)–([\d.]+) \| [\d.]+ \| ([\d.]+)(?: \(held\))? \|/gm,
  )) {
    rows.set(match[1]!, { low: Number(match[2]), high: Number(match[3]), shipped: Number(match[4]) });
  }
  return rows;
}

let model: SpendingModel;
let geo: GeoResolver;
let zipsTsv: string;
let listed: Map<string, ListedFactor>;
/** Every ZIP of the ten states that resolves at ZIP level as rural. */
let ruralZips: string[];

beforeAll(async () => {
  [model, geo] = await Promise.all([loadSpendingModel(), loadGeoResolver()]);
  zipsTsv = readFileSync(join(DATA_DIR, 'geo', 'zips.tsv'), 'utf8');
  listed = listedFactors();
  const states = new Set<string>(RURAL_BAND_STATES);
  ruralZips = zipsTsv
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .filter(([zip, state]) => states.has(state!) && geo.resolve(zip!).urban === false)
    .map(([zip]) => zip!);
});

const total = (out: Float64Array) => out.slice(0, SPENDING_CATEGORY_COUNT).reduce((a, b) => a + b, 0);

/** Per spending category: spending at the rural place over the same place as an urban one of no class. */
function ruralFactors(profile: Profile, place: Geography): number[] {
  const [rural, urban] = [new Float64Array(CATEGORY_COUNT), new Float64Array(CATEGORY_COUNT)];
  model.predict(profile, place, rural);
  model.predict(profile, { ...place, urban: true, metroSize: null }, urban);
  return Array.from({ length: SPENDING_CATEGORY_COUNT }, (_, c) => rural[c]! / urban[c]!);
}

describe('shipped model, rural places', () => {
  it('the card lists a rural factor with its interval for each of the 36 spending categories', () => {
    expect([...listed.keys()]).toEqual(CATEGORIES.slice(0, SPENDING_CATEGORY_COUNT));
    for (const { low, high, shipped } of listed.values()) {
      expect(shipped).toBeGreaterThanOrEqual(low);
      expect(shipped).toBeLessThanOrEqual(high);
    }
  });

  it('property: at every rural ZIP of ten states, each category’s rural factor is the card’s, within its interval', () => {
    expect(ruralZips.length).toBeGreaterThan(4000);
    // Violations are collected, not asserted one by one: 4,000+ ZIPs × 36 categories.
    const violations: string[] = [];
    const check = (profile: Profile, zip: string) => {
      ruralFactors(profile, geo.resolve(zip)).forEach((factor, c) => {
        const row = listed.get(CATEGORIES[c]!)!;
        // The card prints 3 decimals: the factor is the printed one to within its rounding.
        const half = 0.0005 + 1e-9;
        if (Math.abs(factor - row.shipped) > half || factor < row.low - half || factor > row.high + half)
          violations.push(`${zip} ${CATEGORIES[c]} ${factor} ${JSON.stringify(profile)}`);
      });
      return violations.length === 0;
    };
    for (const zip of ruralZips) check(RURAL_BAND_PROFILE, zip);
    const profiles = fc.record({
      net_annual_income: fc.integer({ min: 5_000, max: 400_000 }),
      age: fc.integer({ min: 18, max: 90 }),
      household_members: fc.integer({ min: 1, max: 8 }),
      is_homeowner: fc.boolean(),
    });
    fc.assert(
      fc.property(profiles, fc.nat(), (profile, k) => check(profile, ruralZips[k % ruralZips.length]!)),
      { numRuns: 300, seed: 42 },
    );
    expect(violations).toEqual([]);
  });

  it(`59001 Absarokee MT: Billings CBSA 13740, rural; the band household's total within ${RURAL_TOTAL_BAND.join('–')} of Billings' (59101)`, () => {
    const [absarokee, billings] = [geo.resolve('59001'), geo.resolve('59101')];
    expect([absarokee.cbsa, absarokee.urban, billings.cbsa, billings.urban]).toEqual([
      '13740',
      false,
      '13740',
      true,
    ]);
    const out = new Float64Array(CATEGORY_COUNT);
    model.predict(RURAL_BAND_PROFILE, absarokee, out);
    const rural = total(out);
    model.predict(RURAL_BAND_PROFILE, billings, out);
    const ratio = rural / total(out);
    expect(ratio).toBeGreaterThanOrEqual(RURAL_TOTAL_BAND[0]);
    expect(ratio).toBeLessThanOrEqual(RURAL_TOTAL_BAND[1]);
  });

  it('every rural ZIP of ten states: the band household’s total within the band of its state’s median urban total', () => {
    for (const state of RURAL_BAND_STATES) {
      const { ratios } = ruralTotalRatios(model, geo, zipsTsv, state);
      expect(ratios.length, state).toBeGreaterThan(100);
      expect(Math.min(...ratios), state).toBeGreaterThanOrEqual(RURAL_TOTAL_BAND[0]);
      expect(Math.max(...ratios), state).toBeLessThanOrEqual(RURAL_TOTAL_BAND[1]);
    }
  });
});
