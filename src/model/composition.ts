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
  // A loop, not `fill`: a call of the builtin cost more than the weights' logits (instruction counts).
  for (let j = 0; j < last; j++) out[hats + j] = 0;
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
 *
 * The needs' lift weighs a profile at every size below its own (needs.ts), so the logits' sums over the
 * terms that do not depend on the size are taken once per profile (`prepare`) and continued, in term
 * order, for each size (`weighAtSize`): the same doubles as one sum per size.
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
  /** The prepared profile's: each stage's sum over the size-free terms, a and the owner term. */
  private readonly prepared = { married: 0, oneParent: 0, a: 0, owner: 0, marriedStage: 0 };

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
    else if (members === undefined || !Number.isFinite(members)) this.weighUnknownSize(profile, u);
    else {
      this.prepare(profile, u);
      this.weighAtSize(members);
    }
  }

  /** Readies `weighAtSize` for a profile without household_type with ln take-home `u`. */
  prepare(profile: Profile, u: number): void {
    const { prepared } = this;
    const age = this.writeSizeFreeTerms(profile, u);
    prepared.marriedStage =
      compositionPattern(age !== undefined, true, profile.is_homeowner !== undefined) * STAGES;
    prepared.married = this.logitSum(prepared.marriedStage, 0, SIZE_TERMS_AT, 0);
    prepared.oneParent = this.logitSum(prepared.marriedStage + 1, 0, SIZE_TERMS_AT, 0);
    prepared.a = ageTerm(age);
    prepared.owner = ownerTerm(profile.is_homeowner);
  }

  /**
   * Sets `weights` as `weigh` would for the prepared profile had it `members` members instead of its own
   * (the needs' lift weighs every smaller size).
   */
  weighAtSize(members: number): void {
    if (members <= 1) {
      this.weighSingle();
      return;
    }
    const { prepared, terms } = this;
    writeSizeTerms(prepared.a, sizeTerm(Math.min(members, this.tables.sizeMax)), prepared.owner, terms, 0);
    this.weighByStages(
      this.logitSum(prepared.marriedStage, SIZE_TERMS_AT, COMPOSITION_TERMS, prepared.married),
      this.logitSum(prepared.marriedStage + 1, SIZE_TERMS_AT, COMPOSITION_TERMS, prepared.oneParent),
    );
  }

  /** The weights of a household of one, single by definition. */
  weighSingle(): void {
    this.weighGiven(SINGLE);
  }

  /** A stated type has all the weight. */
  private weighGiven(given: number): void {
    for (let t = 0; t < this.weights.length; t++) this.weights[t] = t === given ? 1 : 0;
  }

  /** P(t | known fields) for a profile whose household size is not known. */
  private weighUnknownSize(profile: Profile, u: number): void {
    const age = this.writeSizeFreeTerms(profile, u);
    writeSizeTerms(ageTerm(age), sizeTerm(undefined), ownerTerm(profile.is_homeowner), this.terms, 0);
    const marriedStage =
      compositionPattern(age !== undefined, false, profile.is_homeowner !== undefined) * STAGES;
    this.weighByStages(
      this.logitSum(marriedStage, 0, COMPOSITION_TERMS, 0),
      this.logitSum(marriedStage + 1, 0, COMPOSITION_TERMS, 0),
    );
  }

  /**
   * The terms before the size's, into `terms`; returns the age they were written for, clamped to the ages
   * the fit saw (undefined when not known).
   */
  private writeSizeFreeTerms(profile: Profile, u: number): number | undefined {
    const { incomeGrid } = this.tables;
    const clampedU = Math.min(Math.max(u, incomeGrid.uMin), this.uMax);
    const age = this.clampedAge(profile);
    writeSizeFreeTerms(clampedU, age, this.terms, 0);
    return age;
  }

  /** The profile's age clamped to the ages the fit saw, undefined when not known. */
  private clampedAge(profile: Profile): number | undefined {
    const age = profile.age;
    if (age === undefined || !Number.isFinite(age)) return undefined;
    return Math.min(Math.max(age, this.tables.ageMin), this.tables.ageMax);
  }

  /** The weights from the two stages' logits: P(married couple), then P(one parent | not married). */
  private weighByStages(marriedLogit: number, oneParentLogit: number): void {
    const pMarried = logisticOf(marriedLogit);
    const pOneParent = (1 - pMarried) * logisticOf(oneParentLogit);
    this.weights[TYPE_INDEX.married_couple] = pMarried;
    this.weights[TYPE_INDEX.one_parent] = pOneParent;
    this.weights[SINGLE] = 1 - pMarried - pOneParent;
  }

  /**
   * A stage's logit sum continued over terms `from` … `to` − 1: `sum` + Σ_j logit[j] · terms[j] in term
   * order, the stage's logits being those of row `stage` (pattern × STAGES + stage).
   */
  private logitSum(stage: number, from: number, to: number, sum: number): number {
    const at = stage * COMPOSITION_TERMS;
    let total = sum;
    for (let j = from; j < to; j++) total += this.logit[at + j]! * this.terms[j]!;
    return total;
  }
}

const logisticOf = (z: number): number => 1 / (1 + Math.exp(-z));
