/**
 * The IRS Collection Financial Standards' national-standard categories (food, apparel and services,
 * housekeeping supplies, personal care products and services, miscellaneous), and what keeps them from
 * falling as a household without a stated type grows.
 *
 * Such a profile gets the household-type mixture Σ_t P(t | take-home, age, size, tenure) · f_t
 * (composition.ts), and P moves with size: one member is single by definition, two are mostly couples,
 * whose factors for miscellaneous and personal care are lower at the same take-home. So each needs
 * category of such a profile is held at the most it reaches at any smaller size (a running maximum over
 * sizes, per profile): a lift ≥ 1 on its demographic factor. A profile that states its type keeps its
 * factors as they are (the size table alone is non-decreasing for these categories), and so does every
 * other category. A lift computed once in the build for all profiles had to cover the worst take-home,
 * age and tenure, and left miscellaneous 23–31 % above the published means without the type.
 */
import { CATEGORY_INDEX, type Category } from '../contract/categories.js';
import type { CompositionWeigher } from './composition.js';
import type { Profile } from './types.js';

export const NEEDS = [
  'food_home',
  'clothing_items_and_services',
  'housekeeping_supplies',
  'personal_care',
  'miscellaneous',
] as const satisfies readonly Category[];

const NEEDS_INDEX = Int32Array.from(NEEDS, (category) => CATEGORY_INDEX[category]);

/** A needs lift per category, and how to set it for a profile. */
export interface NeedsLifter {
  /** [category]: 1, except a needs category of a profile without household_type that would fall. */
  readonly lift: Float64Array;
  /** Sets `lift` for the profile and leaves the weigher's weights set for the profile itself. */
  weighAndLift(profile: Profile, u: number): void;
}

/**
 * `size` is the artifact's size table, [category][size − 1] with `sizeMax` sizes; `n` the spending
 * categories. The lift of a needs category at s members is max(1, max_{m<s} size(m) M(m) / (size(s) M(s)))
 * with M the profile's mixture factor at m members (the age and other factors are the same at every m).
 * At one member M is the single type's factor whatever the profile, so that level is computed here once.
 */
export function needsLifter(
  weigher: CompositionWeigher,
  size: ArrayLike<number>,
  sizeMax: number,
  n: number,
): NeedsLifter {
  const lift = new Float64Array(n).fill(1);
  const best = new Float64Array(NEEDS_INDEX.length);
  const { factors, weights } = weigher;

  /** The category's size factor times its mixture factor, at `members`, for the weights just set. */
  const level = (c: number, members: number) =>
    size[c * sizeMax + members - 1]! *
    (weights[0]! * factors[3 * c]! + weights[1]! * factors[3 * c + 1]! + weights[2]! * factors[3 * c + 2]!);

  // The running maximum's first step, max(0, level at one member), for every profile.
  weigher.weighSingle();
  const oneMember = Float64Array.from(NEEDS_INDEX, (c) => Math.max(0, level(c, 1)));

  /** The profile's size in the table when its needs are held (no household type, more than one member), else 0. */
  function heldSize(profile: Profile): number {
    const members = profile.household_members;
    if (profile.household_type !== undefined || members === undefined || !Number.isFinite(members)) return 0;
    const s = Math.min(Math.max(Math.round(members), 1), sizeMax);
    return s === 1 ? 0 : s;
  }

  /** Into `best`, each needs category's highest level at 1 … s − 1 members, for the prepared profile. */
  function writeBest(s: number): void {
    for (let k = 0; k < NEEDS_INDEX.length; k++) best[k] = oneMember[k]!;
    for (let m = 2; m < s; m++) {
      weigher.weighAtSize(m);
      for (let k = 0; k < NEEDS_INDEX.length; k++) best[k] = Math.max(best[k]!, level(NEEDS_INDEX[k]!, m));
    }
  }

  function weighAndLift(profile: Profile, u: number): void {
    for (let k = 0; k < NEEDS_INDEX.length; k++) lift[NEEDS_INDEX[k]!] = 1;
    const s = heldSize(profile);
    if (s === 0) {
      weigher.weigh(profile, u);
      return;
    }
    weigher.prepare(profile, u);
    writeBest(s);
    weigher.weighAtSize(profile.household_members!);
    for (let k = 0; k < NEEDS_INDEX.length; k++) {
      const c = NEEDS_INDEX[k]!;
      const here = level(c, s);
      if (best[k]! > here) lift[c] = best[k]! / here;
    }
  }

  return { lift, weighAndLift };
}
