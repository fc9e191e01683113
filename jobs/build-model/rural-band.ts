/**
 * The band a rural household's total keeps around its state's urban total (docs/model.md, "Geography",
 * rural places): the household it is checked for, the ten states, and the ratios at every ZIP. Shared by
 * the model card's generator and the tests.
 */
import { CATEGORY_COUNT, SPENDING_CATEGORY_COUNT } from '../../src/contract/categories.js';
import type { GeoResolver } from '../../src/geo/types.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';

/** The household of the band check: a 60-year-old owner couple with $45,000 take-home. */
export const RURAL_BAND_PROFILE: Profile = {
  net_annual_income: 45_000,
  age: 60,
  household_members: 2,
  is_homeowner: true,
};

/** Ten states of every Census region, rural and urban ones, where the band is checked. */
export const RURAL_BAND_STATES = ['MT', 'AL', 'TX', 'NY', 'CA', 'OH', 'GA', 'IA', 'ME', 'OR'] as const;

/**
 * A rural ZIP's total over the median total of its state's urban ZIPs, for the same household: the union
 * of the survey's two 95 % intervals for the rural/urban total (2014 microdata at fixed take-home and
 * state prices; published 2023 spending over income after taxes), widened below by the ZIP rent index's
 * share (docs/model.md argues it; the generator checks the intervals still lie inside).
 */
export const RURAL_TOTAL_BAND = [0.87, 1.12] as const;

/** Per state: the band household's total at each rural ZIP over the median total of its urban ZIPs. */
export function ruralTotalRatios(
  model: SpendingModel,
  resolver: GeoResolver,
  /** data/geo/zips.tsv. */
  zipsTsv: string,
  state: string,
): { urbanMedian: number; ratios: number[] } {
  const out = new Float64Array(CATEGORY_COUNT);
  const totals: [number[], number[]] = [[], []];
  for (const line of zipsTsv.split('\n').slice(1)) {
    const [zip, zipState] = line.split('\t');
    if (zipState !== state) continue;
    const geo = resolver.resolve(zip!);
    if (geo.level !== 'zip' || geo.urban === null) continue;
    model.predict(RURAL_BAND_PROFILE, geo, out);
    totals[geo.urban ? 1 : 0].push(out.slice(0, SPENDING_CATEGORY_COUNT).reduce((a, b) => a + b, 0));
  }
  const urbanMedian = median(totals[1]);
  return { urbanMedian, ratios: totals[0].map((t) => t / urbanMedian) };
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
