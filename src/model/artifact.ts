/**
 * The model artifact (data/model/outlay-model.json): precomputed tables so that evaluating a profile is a
 * handful of table look-ups and interpolations. Written by jobs/build-model, read by parseModelArtifact.
 * All per-category tables cover the 36 spending categories in CATEGORIES order (savings and
 * other_debt_payments are derived at evaluation time).
 */
export const ARTIFACT_FORMAT = 'outlay-spending-model/2';

/** Tenure classes of the income tables, in table order. */
export const TENURE_CLASSES = ['renter', 'owner_with_mortgage', 'owner_without_mortgage'] as const;
/** Census regions in table order; the last slot is the population mix, used when the region is unknown. */
export const REGION_SLOTS = ['northeast', 'midwest', 'south', 'west', 'unknown'] as const;
/** Area types in table order; the last slot is the population mix. */
export const AREA_SLOTS = ['rural', 'urban', 'unknown'] as const;
/** RPP components a category's price response can be keyed to (index into this list). */
export const RPP_COMPONENTS = ['all', 'goods', 'housing', 'utilities', 'other'] as const;

export interface ModelArtifact {
  readonly format: typeof ARTIFACT_FORMAT;
  readonly version: string;
  /** Dollars of this year (annual average CPI-U) throughout. */
  readonly priceYear: number;
  readonly build: {
    readonly command: string;
    readonly sources: Readonly<Record<string, string>>;
    readonly notes: readonly string[];
  };
  readonly spendingCategories: number;
  /** Grid on u = ln(take-home in price-year dollars): u_k = uMin + k·uStep, k < points. */
  readonly incomeGrid: { readonly uMin: number; readonly uStep: number; readonly points: number };
  /** [tenure class][category][grid point]: spending at reference age/size/geography. */
  readonly income: readonly number[];
  /** Ages ageMin…ageMax (inclusive), [category][age − ageMin]: multiplicative age factor. */
  readonly ageMin: number;
  readonly ageMax: number;
  readonly age: readonly number[];
  /** Household sizes 1…sizeMax, [category][size − 1]: multiplicative size factor. */
  readonly sizeMax: number;
  readonly size: readonly number[];
  /** [category][grid]: E[age factor | income], E[size factor | income], E[age × size factor | income]. */
  readonly ageMarginal: readonly number[];
  readonly sizeMarginal: readonly number[];
  readonly ageSizeMarginal: readonly number[];
  /**
   * Tenure mix. Logistic coefficients on [1, u, u², a, a², a·u] with a = (age − 50)/10 for P(owner) and
   * P(mortgage | owner); and [grid] tables of both for when age is unknown.
   */
  readonly ownerLogit: readonly number[];
  readonly mortgageLogit: readonly number[];
  readonly ownerByIncome: readonly number[];
  readonly mortgageByIncome: readonly number[];
  /** [category][HOUSEHOLD_TYPES (src/contract/schemas.ts)]: multiplicative composition factor. */
  readonly composition: readonly number[];
  /**
   * P(household type | the profile's known fields), for when the type is not given: per pattern of known
   * fields (COMPOSITION_PATTERNS, src/model/composition.ts) two logits on COMPOSITION_TERMS terms,
   * [pattern][stage][term]: stage 0 P(married couple), stage 1 P(one parent | not a married couple).
   */
  readonly compositionLogit: readonly number[];
  /** [category][REGION_SLOTS], [category][AREA_SLOTS]: multiplicative factors. */
  readonly region: readonly number[];
  readonly area: readonly number[];
  /** [category]: spending ∝ (RPP component / 100)^elasticity. */
  readonly rppComponent: readonly number[];
  readonly rppElasticity: readonly number[];
}
