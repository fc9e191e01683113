/**
 * The household-composition factor of a profile: the calibrated factor of its household type when the
 * type is given, else the mixture Σ_t P(t | known fields) · f_t over CE's three published groups, with
 * P from continuation-ratio logits (P(married couple), then P(one parent | not married)) fitted on the
 * calibration population for each pattern of known fields. A one-member household is always
 * single_or_other (as every one-member CU in CE 2014).
 */
import { HOUSEHOLD_TYPES, type HouseholdType } from '../contract/schemas.js';
import type { ModelArtifact } from './artifact.js';
import type { Profile } from './types.js';

/**
 * Age enters through piecewise-linear hats at the centres of CE's published reference-person age bands
 * (22 … 80, as the calibration's age knots, flat beyond): the one-parent share peaks at 35–44 and the
 * married share at 55–74, which a quadratic in age missed by up to 6 % of a category's band mean.
 */
const AGE_KNOTS = [22, 30, 40, 50, 60, 70, 80] as const;
/** [1, u, u², hat₃₀ … hat₈₀, a·u, ln s, (ln s)², a·ln s, owner]; see compositionTerms. */
export const COMPOSITION_TERMS = 3 + (AGE_KNOTS.length - 1) + 5;
/** One pair of logits per combination of known age, household size and tenure (compositionPattern). */
export const COMPOSITION_PATTERNS = 8;
const STAGES = 2;
export const COMPOSITION_LOGIT_LENGTH = COMPOSITION_PATTERNS * STAGES * COMPOSITION_TERMS;

const TYPE_INDEX: Readonly<Record<HouseholdType, number>> = {
  married_couple: HOUSEHOLD_TYPES.indexOf('married_couple'),
  one_parent: HOUSEHOLD_TYPES.indexOf('one_parent'),
  single_or_other: HOUSEHOLD_TYPES.indexOf('single_or_other'),
};
const SINGLE = TYPE_INDEX.single_or_other;

export const compositionPattern = (ageKnown: boolean, sizeKnown: boolean, tenureKnown: boolean) =>
  (ageKnown ? 1 : 0) + (sizeKnown ? 2 : 0) + (tenureKnown ? 4 : 0);

/**
 * Terms of the composition logits, into out[at…at+COMPOSITION_TERMS): u = ln take-home (price-year
 * dollars), the age hats (the first knot's is the intercept's), a = (age − 50)/10, s = household size; the
 * terms of an unknown field are 0 (that pattern's logits were fitted without them). Age and size are
 * expected clamped to the ranges the fit saw.
 */
/** The non-zero age hats of an age above the first knot, into the zeroed out[hats…]. */
function writeAgeHats(age: number, out: Float64Array, hats: number): void {
  const last = AGE_KNOTS.length - 1;
  if (age >= AGE_KNOTS[last]!) {
    out[hats + last - 1] = 1;
    return;
  }
  let j = 0;
  while (age > AGE_KNOTS[j + 1]!) j++;
  const f = (age - AGE_KNOTS[j]!) / (AGE_KNOTS[j + 1]! - AGE_KNOTS[j]!);
  if (j > 0) out[hats + j - 1] = 1 - f;
  out[hats + j] = f;
}

export function compositionTerms(
  u: number,
  age: number | undefined,
  size: number | undefined,
  isHomeowner: boolean | undefined,
  out: Float64Array,
  at: number,
): void {
  const a = age === undefined ? 0 : (age - 50) / 10;
  const ls = size === undefined ? 0 : Math.log(size);
  out[at] = 1;
  out[at + 1] = u;
  out[at + 2] = u * u;
  const hats = at + 3;
  const last = AGE_KNOTS.length - 1;
  // A loop, not TypedArray fill: fill with bounds is a runtime call that cost more than all the terms.
  for (let j = hats; j < hats + last; j++) out[j] = 0;
  if (age !== undefined && age > AGE_KNOTS[0]) writeAgeHats(age, out, hats);
  const rest = hats + last;
  out[rest] = a * u;
  out[rest + 1] = ls;
  out[rest + 2] = ls * ls;
  out[rest + 3] = a * ls;
  out[rest + 4] = isHomeowner === undefined ? 0 : isHomeowner ? 1 : 0;
}

/** Per profile, the weight of each household type, and the factors they weigh (see `compositionWeigher`). */
export interface CompositionWeigher {
  /** Factor per category and type, [category × 3 + type] in HOUSEHOLD_TYPES order (the artifact's layout). */
  readonly factors: Float64Array;
  /** The last profile's type weights, in HOUSEHOLD_TYPES order (a buffer owned by the weigher). */
  readonly weights: Float64Array;
  /** Sets `weights` for a profile with ln take-home `u`. */
  weigh(profile: Profile, u: number): void;
}

/** The parts of the artifact the weights are made from. */
export type CompositionTables = Pick<
  ModelArtifact,
  'composition' | 'compositionLogit' | 'ageMin' | 'ageMax' | 'sizeMax' | 'incomeGrid'
>;

/**
 * The weights are one-hot when the type is given (or the household has one member), else P(t | known
 * fields). The model multiplies Σ_t weight_t · f_t into its category loop, so the mixture costs no pass of
 * its own; with one-hot weights the sum is the given type's factor exactly (the other terms add +0).
 */
export function compositionWeigher(artifact: CompositionTables): CompositionWeigher {
  const { ageMin, ageMax, sizeMax } = artifact;
  const uMin = artifact.incomeGrid.uMin;
  const uMax = uMin + (artifact.incomeGrid.points - 1) * artifact.incomeGrid.uStep;
  const factors = Float64Array.from(artifact.composition);
  const logit = Float64Array.from(artifact.compositionLogit);
  const weights = new Float64Array(HOUSEHOLD_TYPES.length);
  const terms = new Float64Array(COMPOSITION_TERMS);

  /** The profile's composition terms into `terms`, clamped to the fit's ranges; returns its pattern. */
  function writeTerms(profile: Profile, u: number, sizeKnown: boolean): number {
    const { age, household_members: members } = profile;
    const ageKnown = age !== undefined && Number.isFinite(age);
    compositionTerms(
      Math.min(Math.max(u, uMin), uMax),
      ageKnown ? Math.min(Math.max(age, ageMin), ageMax) : undefined,
      sizeKnown ? Math.min(members!, sizeMax) : undefined,
      profile.is_homeowner,
      terms,
      0,
    );
    return compositionPattern(ageKnown, sizeKnown, profile.is_homeowner !== undefined);
  }

  function weigh(profile: Profile, u: number): void {
    const type = profile.household_type;
    const members = profile.household_members;
    const sizeKnown = members !== undefined && Number.isFinite(members);
    if (type !== undefined || (sizeKnown && members <= 1))
      weighGiven(type === undefined ? SINGLE : TYPE_INDEX[type]);
    else weighByLogits(writeTerms(profile, u, sizeKnown));
  }

  /** A stated type (or a household of one, single by definition) has all the weight. */
  function weighGiven(given: number): void {
    for (let t = 0; t < weights.length; t++) weights[t] = t === given ? 1 : 0;
  }

  /** The two stages' logistic models over `terms`, for the pattern of known fields. */
  function weighByLogits(pattern: number): void {
    const marriedAt = pattern * STAGES * COMPOSITION_TERMS;
    const oneParentAt = marriedAt + COMPOSITION_TERMS;
    // Both stages' logits in one loop: two independent sums, each in the same order as alone.
    let zMarried = 0;
    let zOneParent = 0;
    for (let j = 0; j < COMPOSITION_TERMS; j++) {
      const term = terms[j]!;
      zMarried += logit[marriedAt + j]! * term;
      zOneParent += logit[oneParentAt + j]! * term;
    }
    const pMarried = logisticOf(zMarried);
    const pOneParent = (1 - pMarried) * logisticOf(zOneParent);
    weights[TYPE_INDEX.married_couple] = pMarried;
    weights[TYPE_INDEX.one_parent] = pOneParent;
    weights[SINGLE] = 1 - pMarried - pOneParent;
  }

  return { factors, weights, weigh };
}

const logisticOf = (z: number): number => 1 / (1 + Math.exp(-z));
