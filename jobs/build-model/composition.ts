/**
 * P(household type | known fields) for profiles that do not give their composition: per pattern of known
 * age, size and tenure, two weighted logits over the calibration population (the 2014 households
 * reweighted to 2023's make-up, reweight.ts) — P(married couple) and P(one parent | not a married couple)
 * — on the terms of src/model/composition.ts, with the unknown fields' terms left out. With the size
 * known, only households of 2 or more are fitted: one-member units are always single_or_other.
 */
import {
  COMPOSITION_PATTERNS,
  COMPOSITION_TERMS,
  compositionPattern,
  compositionTerms,
} from '../../src/model/composition.js';
import type { Household } from './extract-households.js';
import { fitGlm } from './glm.js';

/** CE FAM_TYPE → index into HOUSEHOLD_TYPES: 1–5 married couple, 6–7 one parent, 8–9 single and other. */
export const householdTypeIndex = (famType: number) => (famType <= 5 ? 0 : famType <= 7 ? 1 : 2);

/**
 * The artifact's compositionLogit: `u` is each household's ln take-home in price-year dollars; age and
 * size are clamped to the ranges the artifact's tables cover, as at evaluation.
 */
export function fitCompositionLogits(
  households: readonly Household[],
  u: Float64Array,
  ageRange: readonly [number, number],
  sizeMax: number,
): number[] {
  const rows = households.length;
  const x = new Float64Array(rows * COMPOSITION_TERMS);
  const married = Float64Array.from(households, (h) => (householdTypeIndex(h.famType) === 0 ? 1 : 0));
  const oneParent = Float64Array.from(households, (h) => (householdTypeIndex(h.famType) === 1 ? 1 : 0));
  const out: number[] = [];
  for (let pattern = 0; pattern < COMPOSITION_PATTERNS; pattern++) {
    const ageKnown = (pattern & 1) !== 0;
    const sizeKnown = (pattern & 2) !== 0;
    const tenureKnown = (pattern & 4) !== 0;
    if (compositionPattern(ageKnown, sizeKnown, tenureKnown) !== pattern) throw new Error('pattern order');
    households.forEach((h, i) => {
      compositionTerms(
        u[i]!,
        ageKnown ? Math.min(Math.max(h.age, ageRange[0]), ageRange[1]) : undefined,
        sizeKnown ? Math.min(h.members, sizeMax) : undefined,
        tenureKnown ? h.isHomeowner : undefined,
        x,
        i * COMPOSITION_TERMS,
      );
    });
    const inScope = (h: Household) => h.weight > 0 && h.region > 0 && (!sizeKnown || h.members >= 2);
    const all = Float64Array.from(households, (h) => (inScope(h) ? h.weight : 0));
    const notMarried = Float64Array.from(households, (_, i) => (married[i] === 0 ? all[i]! : 0));
    out.push(...fitGlm(x, COMPOSITION_TERMS, married, all, 'logit').beta);
    out.push(...fitGlm(x, COMPOSITION_TERMS, oneParent, notMarried, 'logit').beta);
  }
  return out;
}
