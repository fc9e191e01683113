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
