/**
 * The monthly payment of a fixed-rate, fully amortising loan (an annuity), for callers that know the loan's
 * amount, term and rate but not its payment (docs/scores.md, "Lender mode"):
 *
 *     payment = amount × r / (1 − (1 + r)^−n)        r = annual rate / 12, n = term in months
 *
 * and amount / n at a rate of 0. Unrounded: lender mode rounds what it derives from it.
 */
export function annuityPayment(amount: number, termMonths: number, annualRate: number): number {
  if (!(amount >= 0) || !Number.isFinite(amount))
    throw new RangeError(`loan amount must be a number ≥ 0, got ${amount}`);
  if (!Number.isSafeInteger(termMonths) || termMonths < 1)
    throw new RangeError(`loan term must be a whole number of months ≥ 1, got ${termMonths}`);
  if (!(annualRate >= 0) || !Number.isFinite(annualRate))
    throw new RangeError(`loan rate must be a fraction ≥ 0, got ${annualRate}`);
  const r = annualRate / 12;
  return r === 0 ? amount / termMonths : (amount * r) / (1 - (1 + r) ** -termMonths);
}
