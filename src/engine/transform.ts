/**
 * SPENDiD's transformer: the budget or the model under the caller's own labels, one alias per category,
 * the amounts of categories that share an alias summed. It shapes an answer and changes no amount, so it
 * is applied to the engine's answer by whoever sends it (the API, the one-off commands), after any
 * conversion of the amounts (`outlay budget --period`).
 */
import { CATEGORIES, type CategoryRecord } from '../contract/categories.js';
import type { OperationRequest, Transformer } from '../contract/schemas.js';
import type { Result } from './types.js';

/**
 * Each alias with the sum of its categories' amounts, aliases in the order of their first category
 * (JavaScript puts aliases that are array indices, such as "2024", first, in numeric order).
 */
export function aliasedAmounts(amounts: CategoryRecord, transformer: Transformer): Record<string, number> {
  const sums = new Map<string, number>();
  for (const category of CATEGORIES) {
    const alias = transformer[category];
    sums.set(alias, (sums.get(alias) ?? 0) + amounts[category]);
  }
  // fromEntries defines each alias as an own property, "__proto__" included.
  return Object.fromEntries(sums);
}

/** The request's transformer, for a body the engine has accepted; undefined for any other body. */
export function transformerOf(body: unknown): Transformer | undefined {
  return typeof body === 'object' && body !== null ? (body as OperationRequest).transformer : undefined;
}

/**
 * An accepted budget or model answer (`{budget: …}` or `{model: …}`) under the request's aliases when it
 * has a transformer; any other result as it is.
 */
export function withAliases<K extends 'budget' | 'model'>(
  key: K,
  result: Result<Record<K, CategoryRecord>>,
  body: unknown,
): Result<Record<K, CategoryRecord | Record<string, number>>> {
  const transformer = transformerOf(body);
  if (!result.ok || transformer === undefined) return result;
  return {
    ok: true,
    value: { [key]: aliasedAmounts(result.value[key], transformer) } as Record<K, Record<string, number>>,
  };
}
