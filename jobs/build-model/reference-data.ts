/**
 * What the published reference tables in data/reference/ share (figures the model card compares the model
 * with, never used to build or run it): where each figure was read, how a file is checked when it is
 * read, and how a published price level becomes the model's.
 */
import { readFileSync } from 'node:fs';
import Type, { Compile, type Static, type TSchema } from '../../src/vendor/typebox.js';
import { PRICE_YEAR } from './published.js';

/** Where figures were published and the copy they were read from (no live page is fetched). */
export const ReferenceSources = Type.Array(
  Type.Object(
    { what: Type.String(), published: Type.String(), retrieved_via: Type.String() },
    { additionalProperties: false },
  ),
  { minItems: 1 },
);

/** A reference table's parser and reader: `parse` checks parsed JSON; `read` reads a file (default `path`). */
export interface ReferenceTable<T> {
  readonly parse: (json: unknown, source: string) => T;
  readonly read: (path?: string) => T;
}

/**
 * The parser and reader of the reference table at `path`: JSON is checked against `schema` (errors name
 * the file and the first failing path), then by `check` (what the shape cannot say), and its price level
 * must be set for the model's price year.
 */
export function referenceTable<T extends TSchema>(
  schema: T,
  path: string,
  check: (json: Static<T>, source: string) => void,
): ReferenceTable<Static<T>> {
  const compiled = Compile(schema);
  const parse = (json: unknown, source: string): Static<T> => {
    if (!compiled.Check(json)) {
      const [first] = compiled.Errors(json);
      throw new Error(`${source} at '${first?.instancePath ?? ''}': ${first?.message ?? 'unknown error'}`);
    }
    check(json as Static<T>, source);
    const modelYear = (json as { price_level: { model_year: number } }).price_level.model_year;
    if (modelYear !== PRICE_YEAR) {
      throw new Error(`${source}: price_level.model_year ${modelYear} is not ${PRICE_YEAR}`);
    }
    return json as Static<T>;
  };
  return { parse, read: (file = path) => parse(JSON.parse(readFileSync(file, 'utf8')), file) };
}

/** Monthly dollars at a published index level as annual dollars at the model's level of the same index. */
export function annualAtIndex(monthly: number, modelIndex: number, publishedIndex: number): number {
  return (12 * monthly * modelIndex) / publishedIndex;
}
