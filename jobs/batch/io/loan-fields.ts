/** The loan fields a batch row may have beside the contract's (io/loan-columns.ts reads them). */
export const LOAN_FIELDS = ['loan_monthly_payment', 'loan_amount', 'loan_term_months', 'loan_rate'] as const;
export type LoanField = (typeof LOAN_FIELDS)[number];
