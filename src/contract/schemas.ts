/**
 * Request and response schemas, defined once. Types, runtime validation (src/contract/validate.ts),
 * the OpenAPI document and CSV columns are all derived from these.
 */

import Type, { type Static, type TSchema } from '../vendor/typebox.js';
import { CATEGORIES, type Category } from './categories.js';
import { DEFAULT_STRESS_MULTIPLIER, LIMITS } from './limits.js';

const money = (description: string) => Type.Number({ minimum: 0, maximum: LIMITS.amountMax, description });

export const ZIP_PATTERN = '^[0-9]{5}(-[0-9]{4})?$';

/**
 * The household's composition, CE's three published groups (FAM_TYPE of the reference person's consumer
 * unit): married couple CUs (FAM_TYPE 1–5, with or without children or other members), one parent with
 * own children, at least one under 18 (6–7), single persons and other CUs (8–9: living alone, or
 * unrelated / other relatives without a married couple or a parent with a minor child).
 */
export const HOUSEHOLD_TYPES = ['married_couple', 'one_parent', 'single_or_other'] as const;
export type HouseholdType = (typeof HOUSEHOLD_TYPES)[number];

export const Demographics = Type.Object(
  {
    age: Type.Optional(
      Type.Integer({
        minimum: LIMITS.ageMin,
        maximum: LIMITS.ageMax,
        description: 'Age of the reference person, years.',
      }),
    ),
    gross_annual_income: Type.Optional(money('Household income before taxes, annual.')),
    household_members: Type.Optional(
      Type.Integer({
        minimum: LIMITS.householdMin,
        maximum: LIMITS.householdMax,
        description: 'Number of people in the household.',
      }),
    ),
    household_type: Type.Optional(
      Type.Enum(HOUSEHOLD_TYPES, {
        type: 'string',
        description:
          'Composition, as the BLS Consumer Expenditure Survey groups consumer units: "married_couple" ' +
          '(a married couple, with or without children or others), "one_parent" (one parent with own ' +
          'children, at least one under 18), "single_or_other" (a single person, or other consumer units). ' +
          'A household of 1 member is "single_or_other".',
      }),
    ),
    is_homeowner: Type.Optional(Type.Boolean({ description: 'Whether the household owns its home.' })),
    net_annual_income: Type.Number({
      exclusiveMinimum: 0,
      maximum: LIMITS.amountMax,
      description:
        'Household take-home pay, annual (after taxes, Social Security and pension contributions).',
    }),
    zip: Type.String({
      pattern: ZIP_PATTERN,
      description: '5-digit ZIP code, or ZIP+4 (normalised to 5 digits).',
    }),
  },
  { additionalProperties: false },
);

const categoryProperties = <T extends TSchema>(make: (c: Category) => T) =>
  Object.fromEntries(CATEGORIES.map((c) => [c, make(c)])) as Record<Category, T>;

/** Fixed expenses the caller already knows: any subset of the categories, annual amounts. */
export const GivenBudget = Type.Object(
  categoryProperties((c) => Type.Optional(money(`Fixed annual amount for ${c}; 0 means fixed at zero.`))),
  { additionalProperties: false },
);

/** The score's bases: which amount of a stated category the PSA subtracts (docs/scores.md). */
export const BASES = ['stated', 'benchmark'] as const;
export type Basis = (typeof BASES)[number];

/** A request's optional `loan`: the proposed payment, and optionally the lender's own stress multiplier. */
export const LoanRequest = Type.Object(
  {
    monthly_payment: Type.Number({
      minimum: 0,
      maximum: LIMITS.amountMax,
      description: 'The proposed loan payment, monthly.',
    }),
    stress_multiplier: Type.Optional(
      Type.Number({
        minimum: 1,
        maximum: 10,
        description: `The payment is assessed at this multiple of itself (default ${DEFAULT_STRESS_MULTIPLIER}; docs/scores.md).`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type LoanRequest = Static<typeof LoanRequest>;

/** A request's optional `options`. */
export const ScoreOptions = Type.Object(
  {
    basis: Type.Optional(
      Type.Enum(BASES, {
        type: 'string',
        description:
          '"stated" (default): stated amounts as sent. "benchmark": every spending category at the greater ' +
          'of its stated amount (0 when not stated) and its benchmark: what peers spend (median for basics, ' +
          'housing included, 25th percentile for discretionary spending), never below the public standard ' +
          'that covers it (docs/scores.md, "The benchmark basis").',
      }),
    ),
    rent_free: Type.Optional(
      Type.Boolean({
        description:
          'true: the household pays no rent or mortgage (it lives rent-free, e.g. with family). Housing ' +
          '(`mortgage_and_rent`) is then stated at 0 on every basis, exempt from its benchmark, and the ' +
          'explained score flags it (RENT_FREE). Never inferred from a stated 0. Refused beside a ' +
          '`mortgage_and_rent` above 0 or in `grouped_inputs`.',
        examples: [true],
      }),
    ),
    take_home: Type.Optional(
      Type.Enum(['estimate'], {
        type: 'string',
        description:
          '"estimate": a request without `net_annual_income` has it estimated from `gross_annual_income` and ' +
          "`household_members` (both then required) by the relation the CE survey's households show " +
          '(docs/model.md, "Take-home pay estimated from gross income"); the explained score flags it ' +
          'TAKE_HOME_ESTIMATED. Ignored when `net_annual_income` is given.',
        examples: ['estimate'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ScoreOptions = Static<typeof ScoreOptions>;

const categoryName = Type.Enum(CATEGORIES, {
  type: 'string',
  description: 'One of the 38 budget categories.',
});

/**
 * A known annual total for a group of categories (SPENDiD's grouped input, same shape): the engine shares
 * it among them in proportion to the peer model's amounts, then treats the shares as stated amounts.
 */
export const GroupedInput = Type.Object(
  {
    items: Type.Array(categoryName, {
      minItems: 1,
      uniqueItems: true,
      description:
        'The categories the total covers, each at most once, in no group else and not in `budget`.',
    }),
    value: Type.Number({
      minimum: 0,
      maximum: LIMITS.amountMax,
      description: "The group's annual total, in whole cents at most (two decimals).",
    }),
  },
  { additionalProperties: false },
);
export type GroupedInput = Static<typeof GroupedInput>;

/** Example of `grouped_inputs`: all utilities known as one yearly total (docs/api.md, "Grouping"). */
export const GROUPED_INPUTS_EXAMPLE = [
  {
    items: [
      'natural_gas',
      'electricity',
      'heating_fuels_other',
      'residential_phone_service',
      'water_and_public_services',
    ],
    value: 2369,
  },
] satisfies GroupedInput[];

export const GroupedInputs = Type.Array(GroupedInput, {
  maxItems: CATEGORIES.length,
  description:
    "Known totals of groups of categories, each shared among its categories by the peer model's " +
    'proportions and then treated as stated (docs/api.md, "Grouping").',
  examples: [GROUPED_INPUTS_EXAMPLE],
});

/** SPENDiD's published transformer example, over the 38 categories (docs/api.md, "Grouping"). */
export const TRANSFORMER_EXAMPLE = {
  food_home: 'Groceries',
  food_out: 'Dining Out',
  alcoholic_beverages: 'Entertainment & Travel',
  mortgage_and_rent: 'Mortage/Rent',
  home_maintenance_and_repairs: 'Household Expenses',
  other_lodging: 'Entertainment & Travel',
  natural_gas: 'Utilities',
  electricity: 'Utilities',
  heating_fuels_other: 'Utilities',
  residential_phone_service: 'Utilities',
  cellular_phone_service: 'Cell Phone',
  water_and_public_services: 'Utilities',
  household_operations: 'Household Expenses',
  housekeeping_supplies: 'Household Expenses',
  furniture_and_appliances: 'Household Expenses',
  clothing_items_and_services: 'Clothing & Jewelry',
  vehicle_purchase_and_lease: 'Vehicle Payment',
  gasoline: 'Gasoline',
  vehicle_maintenance_and_repairs: 'Vehicle Maintenance',
  vehicle_insurance: 'Vehicle Insurance',
  public_and_other_transportation: 'Public Transportation',
  health_insurance: 'Health Insurance',
  medical_services: 'Medical Services & Supplies',
  prescription_drugs: 'Prescriptions',
  medical_supplies: 'Medical Services & Supplies',
  fees_and_admissions: 'Entertainment & Travel',
  media_hardware_and_services: 'Entertainment & Travel',
  pets: 'Entertainment & Travel',
  toys_and_hobbies: 'Entertainment & Travel',
  personal_care: 'Personal Care',
  reading: 'Miscellaneous',
  education: 'Education',
  tobacco_and_smoking: 'Miscellaneous',
  miscellaneous: 'Miscellaneous',
  cash_contributions: 'Charitable Giving',
  life_and_personal_insurance: 'Miscellaneous',
  savings: 'Savings',
  other_debt_payments: 'Debt',
} satisfies Record<Category, string>;

export const ALIAS_MAX_LENGTH = 100;

/**
 * SPENDiD's transformer: an alias for every one of the 38 categories; the budget and the model answer
 * under the aliases, categories sharing one summed.
 */
export const Transformer = Type.Object(
  categoryProperties((c) =>
    Type.String({ minLength: 1, maxLength: ALIAS_MAX_LENGTH, description: `The alias of ${c}.` }),
  ),
  {
    additionalProperties: false,
    description:
      'An alias for each of the 38 categories; the budget and the model answer under the aliases, the ' +
      'amounts of categories sharing one summed (docs/api.md, "Grouping"). The score ignores it.',
    examples: [TRANSFORMER_EXAMPLE],
  },
);
export type Transformer = Static<typeof Transformer>;

/**
 * A request: the household, its fixed expenses (stated one by one or as group totals), for the score a
 * proposed loan and the options of its basis (docs/scores.md), which budgets and models ignore, and the
 * aliases the budget and the model answer under.
 */
export const OperationRequest = Type.Object(
  {
    demographics: Demographics,
    budget: Type.Optional(GivenBudget),
    grouped_inputs: Type.Optional(GroupedInputs),
    loan: Type.Optional(LoanRequest),
    options: Type.Optional(ScoreOptions),
    transformer: Type.Optional(Transformer),
  },
  { additionalProperties: false },
);

const wholeAmounts = (what: string) =>
  Type.Object(
    categoryProperties((c) =>
      Type.Integer({ minimum: 0, description: `${what}: ${c}, annual, whole dollars.` }),
    ),
    { additionalProperties: false },
  );

export const BudgetResponse = Type.Object(
  { budget: wholeAmounts('Budget') },
  { additionalProperties: false },
);
export const ModelResponse = Type.Object(
  { model: wholeAmounts('Expected spending of similar households') },
  { additionalProperties: false },
);

const aliasedAmounts = (what: string) =>
  Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: `${what} under the request's aliases: each the sum of its categories, annual, whole dollars, in the order of each alias's first category.`,
  });

/** The budget with a `transformer` in the request. */
export const AliasedBudgetResponse = Type.Object(
  { budget: aliasedAmounts('Budget') },
  { additionalProperties: false },
);
/** The model with a `transformer` in the request. */
export const AliasedModelResponse = Type.Object(
  { model: aliasedAmounts('Expected spending of similar households') },
  { additionalProperties: false },
);

export const PSA_KEY = 'Predicted Saving Ability';
export const SAVINGS_SCORE_KEY = 'SAViNGS';
export const DEFAULT_SCORE_KEY = 'OUTLAY';
/** The lending index's key, in score answers to a request with a `loan` (docs/scores.md, "Lender mode"). */
export const LENDING_SCORE_KEY = 'LENDiNG';

/**
 * A score's text: 0.0 to 100.0 in tenths, written as `scoreTexts` writes it (no leading zero, one
 * decimal), so that a text the pattern accepts is the text of its number.
 */
const SCORE_TEXT = '^(100\\.0|[1-9]?[0-9]\\.[0-9])$';

/**
 * The PSA's text: a whole number as `String` writes it (no leading zero, no "-0"), of at most 15 digits so
 * that its number is exact (amounts are at most 100,000,000 a year each).
 */
const PSA_TEXT = '^(0|-?[1-9][0-9]{0,14})$';

/** An index's text: unclamped, one decimal, as `formatIndex` (src/engine/rounding.ts) writes it (no leading zero, no "-0.0"). */
const INDEX_TEXT = '^(0\\.[0-9]|-0\\.[1-9]|-?[1-9][0-9]{0,14}\\.[0-9])$';

/** The score response; its main key is configurable (default OUTLAY) for callers migrating from other services. */
export const scoreResponseSchema = (scoreKey: string = DEFAULT_SCORE_KEY) =>
  Type.Object(
    {
      [PSA_KEY]: Type.String({
        pattern: PSA_TEXT,
        description: 'Monthly predicted saving ability, whole dollars.',
      }),
      [scoreKey]: Type.String({ pattern: SCORE_TEXT, description: 'Cash-flow score 0.0–100.0.' }),
      [SAVINGS_SCORE_KEY]: Type.String({
        pattern: SCORE_TEXT,
        description: 'Score with the requested savings counted as a fixed expense, 0.0–100.0.',
      }),
    },
    { additionalProperties: false },
  );

/**
 * The scores operation's answer: the score response and, when the request has a `loan`, the lending index
 * under LENDING_SCORE_KEY after the other three (docs/scores.md, "Lender mode").
 */
export const scoreAnswerSchema = (scoreKey: string = DEFAULT_SCORE_KEY) => {
  const plain = scoreResponseSchema(scoreKey);
  return Type.Object(
    {
      ...plain.properties,
      [LENDING_SCORE_KEY]: Type.Optional(
        Type.String({
          pattern: INDEX_TEXT,
          description:
            'Only when the request has a `loan`: the lending index, 80 + 100 × 12 × (PSA − stressed ' +
            'payment) / take-home, one decimal, unclamped (docs/scores.md, "Lender mode").',
          examples: ['55.5'],
        }),
      ),
    },
    { additionalProperties: false },
  );
};

export const ErrorItem = Type.Object(
  { path: Type.String(), message: Type.String() },
  { additionalProperties: false },
);
export const InvalidRequestBody = Type.Object(
  { message: Type.Literal('Invalid request body'), errors: Type.Array(ErrorItem) },
  { additionalProperties: false },
);
export const ErrorMessage = Type.Object({ message: Type.String() });

export type Demographics = Static<typeof Demographics>;
export type GivenBudget = Static<typeof GivenBudget>;
export type OperationRequest = Static<typeof OperationRequest>;
export type BudgetResponse = Static<typeof BudgetResponse>;
export type ModelResponse = Static<typeof ModelResponse>;
export type AliasedBudgetResponse = Static<typeof AliasedBudgetResponse>;
export type AliasedModelResponse = Static<typeof AliasedModelResponse>;
export type ScoreResponse = Record<string, string>;
export type ErrorItem = Static<typeof ErrorItem>;
export type InvalidRequestBody = Static<typeof InvalidRequestBody>;
