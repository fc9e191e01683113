import { CATEGORIES, type CategoryRecord } from '../contract/categories.js';

/**
 * Builds the constructor of a response object with fixed keys, from the key list itself (the single
 * source of truth). A generated object literal gets one hidden class and one allocation; filling an
 * object key by key in a loop is about ten times slower, which matters at a million households a second.
 */
function recordFactory<T>(keys: readonly string[]): (values: ArrayLike<T>) => Record<string, T> {
  const fields = keys.map((key, i) => `${JSON.stringify(key)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${fields} };`) as (values: ArrayLike<T>) => Record<string, T>;
}

/** A category record from 38 amounts in CATEGORIES order. */
export const categoryRecord = recordFactory<number>(CATEGORIES) as (
  values: ArrayLike<number>,
) => CategoryRecord;

/** A record with the given keys, in that order; used for the score response, whose main key is configurable. */
export const fixedKeyRecord = (keys: readonly string[]) => recordFactory<string>(keys);
