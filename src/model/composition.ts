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
export function compositionTerms(
  u: number,
  age: number | undefined,
  size: number | undefined,
  isHomeowner: boolean | undefined,
  out: Float64Array,
  at: number,
): void {
  writeSizeFreeTerms(u, age, out, at);
  writeSizeTerms(ageTerm(age), sizeTerm(size), ownerTerm(isHomeowner), out, at);
}

/** The terms of each field: 0 when it is not known. a = (age − 50)/10; ln s; 1 for an owner. */
const ageTerm = (age: number | undefined): number => (age === undefined ? 0 : (age - 50) / 10);
const sizeTerm = (size: number | undefined): number => (size === undefined ? 0 : Math.log(size));
const ownerTerm = (isHomeowner: boolean | undefined): number =>
  isHomeowner === undefined ? 0 : isHomeowner ? 1 : 0;

/** Where the terms that depend on the household size start: ln s, then (ln s)², a·ln s and owner. */
const SIZE_TERMS_AT = 3 + (AGE_KNOTS.length - 1) + 1;

/** The terms before SIZE_TERMS_AT: [1, u, u², hat₃₀ … hat₈₀, a·u]. */
function writeSizeFreeTerms(u: number, age: number | undefined, out: Float64Array, at: number): void {
  const a = ageTerm(age);
  out[at] = 1;
  out[at + 1] = u;
  out[at + 2] = u * u;
  const hats = at + 3;
  const last = AGE_KNOTS.length - 1;
  out.fill(0, hats, hats + last);
  if (age !== undefined && age > AGE_KNOTS[0]) writeAgeHats(age, out, hats);
  out[hats + last] = a * u;
}

/** The terms from SIZE_TERMS_AT: [ln s, (ln s)², a·ln s, owner], from a, ln s and the owner term. */
function writeSizeTerms(a: number, ls: number, owner: number, out: Float64Array, at: number): void {
  const rest = at + SIZE_TERMS_AT;
  out[rest] = ls;
  out[rest + 1] = ls * ls;
  out[rest + 2] = a * ls;
  out[rest + 3] = owner;
}

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

/** The parts of the artifact the weights are made from. */
export type CompositionTables = Pick<
  ModelArtifact,
  'composition' | 'compositionLogit' | 'ageMin' | 'ageMax' | 'sizeMax' | 'incomeGrid'
>;

/**
 * Per profile, the weight of each household type, and the factors they weigh. The weights are one-hot
 * when the type is given (or the household has one member), else P(t | known fields). The model
 * multiplies Σ_t weight_t · f_t into its category loop, so the mixture costs no pass of its own; with
 * one-hot weights the sum is the given type's factor exactly (the other terms add +0).
 */
export class CompositionWeigher {
  /** Factor per category and type, [category × 3 + type] in HOUSEHOLD_TYPES order (the artifact's layout). */
  readonly factors: Float64Array;
  /** The last profile's type weights, in HOUSEHOLD_TYPES order (a buffer owned by the weigher). */
  readonly weights = new Float64Array(HOUSEHOLD_TYPES.length);
  private readonly logit: Float64Array;
  private readonly terms = new Float64Array(COMPOSITION_TERMS);
  private readonly tables: CompositionTables;
  private readonly uMax: number;

  constructor(tables: CompositionTables) {
    this.tables = tables;
    this.factors = Float64Array.from(tables.composition);
    this.logit = Float64Array.from(tables.compositionLogit);
    this.uMax = tables.incomeGrid.uMin + (tables.incomeGrid.points - 1) * tables.incomeGrid.uStep;
  }

  /** Sets `weights` for a profile with ln take-home `u`. */
  weigh(profile: Profile, u: number): void {
    const members = profile.household_members;
    if (profile.household_type !== undefined) this.weighGiven(TYPE_INDEX[profile.household_type]);
    else if (members === undefined || !Number.isFinite(members)) this.weighByLogits(profile, u, undefined);
    else this.weighAtSize(profile, u, members);
  }

  /**
   * Sets `weights` as `weigh` would for a profile without household_type that had `members` members
   * instead of its own (the needs' lift weighs every smaller size).
   */
  weighAtSize(profile: Profile, u: number, members: number): void {
    if (members <= 1) this.weighSingle();
    else this.weighByLogits(profile, u, Math.min(members, this.tables.sizeMax));
  }

  /** The weights of a household of one, single by definition. */
  weighSingle(): void {
    this.weighGiven(SINGLE);
  }

  /** A stated type has all the weight. */
  private weighGiven(given: number): void {
    for (let t = 0; t < this.weights.length; t++) this.weights[t] = t === given ? 1 : 0;
  }

  /** P(t | known fields) from the two stages' logits over the profile's terms; `size` undefined: not known. */
  private weighByLogits(profile: Profile, u: number, size: number | undefined): void {
    const { age: givenAge, is_homeowner: isHomeowner } = profile;
    const { ageMin, ageMax, incomeGrid } = this.tables;
    const ageKnown = givenAge !== undefined && Number.isFinite(givenAge);
    const age = ageKnown ? Math.min(Math.max(givenAge, ageMin), ageMax) : undefined;
    const clampedU = Math.min(Math.max(u, incomeGrid.uMin), this.uMax);
    compositionTerms(clampedU, age, size, isHomeowner, this.terms, 0);
    const marriedAt =
      compositionPattern(ageKnown, size !== undefined, isHomeowner !== undefined) *
      STAGES *
      COMPOSITION_TERMS;
    const pMarried = logisticOf(this.logitSum(marriedAt));
    const pOneParent = (1 - pMarried) * logisticOf(this.logitSum(marriedAt + COMPOSITION_TERMS));
    this.weights[TYPE_INDEX.married_couple] = pMarried;
    this.weights[TYPE_INDEX.one_parent] = pOneParent;
    this.weights[SINGLE] = 1 - pMarried - pOneParent;
  }

  /** Σ_j logit[stageAt + j] · terms[j], in term order. */
  private logitSum(stageAt: number): number {
    let sum = 0;
    for (let j = 0; j < COMPOSITION_TERMS; j++) sum += this.logit[stageAt + j]! * this.terms[j]!;
    return sum;
  }
}

const logisticOf = (z: number): number => 1 / (1 + Math.exp(-z));
