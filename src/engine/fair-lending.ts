/**
 * The fair-lending score profile: the score computed as if the request gave neither the reference
 * person's age nor the household type (which carries marital status), so that the model marginalises
 * them over the calibration population as it does for any request that leaves them out (docs/model.md).
 * Budgets and models may still use them; only the score's evaluation takes this request.
 */
import type { OperationRequest } from '../contract/schemas.js';

/** The request without age and household type; everything else as sent. A valid request stays valid. */
export function fairLendingRequest<R extends OperationRequest>(request: R): R {
  const { age: _age, household_type: _type, ...demographics } = request.demographics;
  return { ...request, demographics };
}
