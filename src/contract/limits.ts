/**
 * Documented input bounds (docs/api.md, "Validation"). They are product decisions, not data:
 * wide enough for every real household, narrow enough to reject typos and garbage.
 */
export const LIMITS = {
  ageMin: 15,
  ageMax: 120,
  householdMin: 1,
  householdMax: 20,
  /**
   * Smallest net annual income, dollars: below one dollar a year every rounded amount of a budget is 0,
   * which describes no household.
   */
  netIncomeMin: 1,
  /** Upper bound for every money amount (annual, dollars). */
  amountMax: 100_000_000,
} as const;

/**
 * The proposed payment is assessed at this multiple of itself. Outlay does not see the loan's rate or
 * term, so it stresses the payment rather than the rate: a 3-percentage-point rise of the rate (APRA's
 * serviceability buffer since October 2021) raises an annuity's payment by 4.4 % at 12 % over 3 years,
 * 7.3 % at 7 % over 5 years, 24.5 % at 7 % over 20 years and 34 % at 6 % over 30 years (annuity
 * formula). 1.25 covers that rise for loans of up to about 20 years; a caller with a longer or a
 * variable-rate product passes its own.
 */
export const DEFAULT_STRESS_MULTIPLIER = 1.25;

/**
 * Bounds every answer keeps, following from the input bounds (docs/api.md, "Validation"; docs/scores.md,
 * "The index"). Each budget and model amount is at most `amountMax`: a given amount comes back as given, a
 * filled or modeled one is a share of the net income. The index and savings index are at most
 * 80 + 100 × 12 × PSA / take-home with PSA at most take-home / 12 plus half a unit of rounding, so at most
 * 180 + 600 / take-home, and 780 at the smallest take-home. A remote answer outside them is a server
 * error, never data.
 */
export const ANSWER_LIMITS = {
  amountMax: LIMITS.amountMax,
  indexMax: 180 + 600 / LIMITS.netIncomeMin,
} as const;
