import { CATEGORIES, type CategoryRecord } from '../contract/categories.js';

/** A record of `values` under `keys`, in that order (the key list is the single source of truth). */
function recordOf<T>(keys: readonly string[], values: ArrayLike<T>): Record<string, T> {
  return Object.fromEntries(keys.map((key, i) => [key, values[i]!]));
}

/** A category record from 38 amounts in CATEGORIES order. */
export const categoryRecord = (values: ArrayLike<number>): CategoryRecord =>
  recordOf(CATEGORIES, values) as CategoryRecord;

/** A record with the given keys, in that order; used for the score response, whose main key is configurable. */
export const fixedKeyRecord =
  (keys: readonly string[]) =>
  (values: ArrayLike<string>): Record<string, string> =>
    recordOf(keys, values);
