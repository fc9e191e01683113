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
