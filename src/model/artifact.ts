/**
 * The model artifact (data/model/outlay-model.json): precomputed tables so that evaluating a profile is a
 * handful of table look-ups and interpolations. Written by jobs/build-model, read by parseModelArtifact.
 * All per-category tables cover the 36 spending categories in CATEGORIES order (savings and
 * other_debt_payments are derived at evaluation time).
 *
 * The schema below is the artifact's one specification: its type, and with `checkArtifact` (src/model/
 * parse.ts: the table lengths that depend on other entries) its check. Spending, factors and shares are
 * never negative, and shares never above 1: then neither is any amount the model computes from them
 * (interpolations, weighted sums and products of them), which the budget's rounding of the modeled
 * amounts relies on (`roundNonNegative`).
 */
import { SPENDING_CATEGORY_COUNT } from '../contract/categories.js';
import { HOUSEHOLD_TYPES } from '../contract/schemas.js';
import { METRO_SIZE_CLASSES } from '../geo/metro-size.js';
import Type, { type Static, type TSchema } from '../vendor/typebox.js';

export const ARTIFACT_FORMAT = 'outlay-spending-model/2';

/** Tenure classes of the income tables, in table order. */
export const TENURE_CLASSES = ['renter', 'owner_with_mortgage', 'owner_without_mortgage'] as const;
/** Census regions in table order; the last slot is the population mix, used when the region is unknown. */
export const REGION_SLOTS = ['northeast', 'midwest', 'south', 'west', 'unknown'] as const;
/** Area types in table order; the last slot is the population mix. */
export const AREA_SLOTS = ['rural', 'urban', 'unknown'] as const;
/** RPP components a category's price response can be keyed to (index into this list). */
export const RPP_COMPONENTS = ['all', 'goods', 'housing', 'utilities', 'other'] as const;
/** Terms of the tenure logits: [1, u, u², a, a², a·u]. */
const TENURE_LOGIT_TERMS = 6;

/** The percentiles the distribution section gives per category, in table order. */
export const RANGE_PERCENTILES = [25, 50, 75] as const;
/** The distribution section's tenure slots: as stated, or not given (its own spread, around the mixture). */
export const RANGE_TENURE_SLOTS = ['renter', 'owner', 'unknown'] as const;

const n = SPENDING_CATEGORY_COUNT;
/** Any finite number (a coefficient); every number of the artifact is finite. */
const coefficient = Type.Number();
const nonNegative = Type.Number({ minimum: 0 });
const share = Type.Number({ minimum: 0, maximum: 1 });
const componentIndex = Type.Integer({ minimum: 0, maximum: RPP_COMPONENTS.length - 1 });

const IncomeGrid = Type.Object(
  {
    uMin: Type.Number(),
    uStep: Type.Number({ exclusiveMinimum: 0 }),
    points: Type.Integer({ minimum: 2 }),
  },
  {
    additionalProperties: false,
    description: 'Grid on u = ln(take-home in price-year dollars): u_k = uMin + k·uStep, k < points.',
  },
);

/** A table whose length the schema knows; `checkArtifact` checks the others' lengths. */
const table = <T extends TSchema>(entry: T, length: number | undefined, description: string) =>
  Type.Array(
    entry,
    length === undefined ? { description } : { minItems: length, maxItems: length, description },
  );

/**
 * How a year's spending spreads around the model's mean (docs/model.md, "Distributions"): per tenure slot
 * and point of its own income grid, each category's RANGE_PERCENTILES as multiples of the mean, and the
 * effective number of survey households (Kish) behind them. src/model/distribution.ts evaluates it.
 */
export const SpendingDistribution = Type.Object(
  {
    incomeGrid: IncomeGrid,
    ratio: table(
      nonNegative,
      undefined,
      '[RANGE_TENURE_SLOTS][grid point][category][RANGE_PERCENTILES]: percentile / model mean.',
    ),
    peers: table(
      nonNegative,
      undefined,
      '[RANGE_TENURE_SLOTS][grid point]: Kish effective number of survey households behind the ratios.',
    ),
  },
  { additionalProperties: false },
);
export type SpendingDistribution = Static<typeof SpendingDistribution>;

export const ModelArtifact = Type.Object(
  {
    format: Type.Literal(ARTIFACT_FORMAT),
    version: Type.String({ minLength: 1 }),
    priceYear: Type.Integer({
      // CPI-U annual averages, which the build deflates with, are published from 1913.
      minimum: 1913,
      description: 'Dollars of this year (annual average CPI-U) throughout.',
    }),
    build: Type.Object(
      {
        command: Type.String(),
        sources: Type.Record(Type.String(), Type.String()),
        notes: Type.Array(Type.String()),
      },
      { additionalProperties: false },
    ),
    spendingCategories: Type.Integer({ description: `The tables' categories: ${n}.` }),
    incomeGrid: IncomeGrid,
    income: table(
      nonNegative,
      undefined,
      '[tenure class][category][grid point]: spending at reference age/size/geography.',
    ),
    ageMin: Type.Integer({ minimum: 0 }),
    ageMax: Type.Integer({ minimum: 0 }),
    age: table(
      nonNegative,
      undefined,
      'Ages ageMin…ageMax (inclusive), [category][age − ageMin]: multiplicative age factor.',
    ),
    sizeMax: Type.Integer({ minimum: 1 }),
    size: table(
      nonNegative,
      undefined,
      'Household sizes 1…sizeMax, [category][size − 1]: multiplicative size factor.',
    ),
    ageMarginal: table(nonNegative, undefined, '[category][grid]: E[age factor | income].'),
    sizeMarginal: table(nonNegative, undefined, '[category][grid]: E[size factor | income].'),
    ageSizeMarginal: table(nonNegative, undefined, '[category][grid]: E[age × size factor | income].'),
    ownerLogit: table(
      coefficient,
      TENURE_LOGIT_TERMS,
      'P(owner): logistic coefficients on [1, u, u², a, a², a·u] with a = (age − 50)/10.',
    ),
    mortgageLogit: table(coefficient, TENURE_LOGIT_TERMS, 'P(mortgage | owner), as ownerLogit.'),
    ownerByIncome: table(share, undefined, '[grid]: P(owner) for when age is unknown.'),
    mortgageByIncome: table(share, undefined, '[grid]: P(mortgage | owner) for when age is unknown.'),
    composition: table(
      nonNegative,
      n * HOUSEHOLD_TYPES.length,
      '[category][HOUSEHOLD_TYPES (src/contract/schemas.ts)]: multiplicative composition factor.',
    ),
    compositionLogit: table(
      coefficient,
      undefined,
      "P(household type | the profile's known fields), for when the type is not given: per pattern of known fields " +
        '(COMPOSITION_PATTERNS, src/model/composition.ts) two logits on COMPOSITION_TERMS terms, ' +
        '[pattern][stage][term]: stage 0 P(married couple), stage 1 P(one parent | not a married couple).',
    ),
    region: table(nonNegative, n * REGION_SLOTS.length, '[category][REGION_SLOTS]: multiplicative factor.'),
    area: table(nonNegative, n * AREA_SLOTS.length, '[category][AREA_SLOTS]: multiplicative factor.'),
    rppComponent: table(
      componentIndex,
      n,
      '[category]: the RPP_COMPONENTS index its price response is keyed to.',
    ),
    rppElasticity: table(
      coefficient,
      n,
      '[category]: spending ∝ (RPP component / 100)^elasticity (before priceBudget re-normalises it).',
    ),
    priceBudget: Type.Optional(
      Type.Object(
        {
          totalElasticity: coefficient,
          share: table(share, n, '[category]: national budget share (sums to 1).'),
        },
        {
          additionalProperties: false,
          description:
            "The budget the price response respects (src/model/price.ts): the categories' price factors " +
            'are re-normalised so that, for these shares, total spending moves with the price level ' +
            '(Σ share × ln component parity) by totalElasticity. Absent: each factor stands alone.',
        },
      ),
    ),
    distribution: SpendingDistribution,
    stateFactor: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Z]{2}$' }), table(nonNegative, n, '[category]'), {
        description:
          'USPS state → [category]: multiplicative state effect (1 where a category has none); a state not ' +
          'listed, or an unknown state, has factor 1.',
      }),
    ),
    metroSizeFactor: Type.Optional(
      table(
        nonNegative,
        n * METRO_SIZE_CLASSES,
        '[category][metro-size class − 1] (src/geo/metro-size.ts: 1 more than 4 million people … 5 less than ' +
          '125 thousand): multiplicative factor for an urban place of that class; 1 for rural places, a place ' +
          'of unknown class, and when absent.',
      ),
    ),
  },
  { additionalProperties: false },
);

export type ModelArtifact = Static<typeof ModelArtifact>;
