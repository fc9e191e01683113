/**
 * The rules of a request's `grouped_inputs` that its schema cannot state: a total in whole cents, each
 * category in one group at most, and no category both in a group and in `budget` (a stated amount and a
 * share of a group total for one category would be two answers to one question; the request is refused
 * rather than one of them chosen).
 */
import type { ErrorItem, GroupedInput, OperationRequest } from './schemas.js';

/** Whether `value` is written with at most two decimals: the double nearest to its own cents. */
export const isWholeCents = (value: number): boolean => Number(value.toFixed(2)) === value;

/** The problems of a schema-valid request's grouped inputs, in request order; none without them. */
export function groupingConflicts({ budget, grouped_inputs: groups }: OperationRequest): ErrorItem[] {
  if (groups === undefined) return [];
  const errors: ErrorItem[] = [];
  const groupOf = new Map<string, number>();
  groups.forEach((group: GroupedInput, g: number) => {
    if (!isWholeCents(group.value))
      errors.push({
        path: `/grouped_inputs/${g}/value`,
        message: 'must be in whole cents (at most 2 decimals)',
      });
    group.items.forEach((item, i) => {
      const path = `/grouped_inputs/${g}/items/${i}`;
      const earlier = groupOf.get(item);
      if (earlier !== undefined)
        errors.push({
          path,
          message: `"${item}" is already in /grouped_inputs/${earlier}: a category belongs to one group at most`,
        });
      else groupOf.set(item, g);
      if (budget?.[item] !== undefined)
        errors.push({
          path,
          message: `"${item}" is also stated in /budget/${item}: state a category either in budget or in one group`,
        });
    });
  });
  return errors;
}
