/**
 * Rows that give only a ZIP's three first digits, as public and anonymised loan files do (`860xx`, `860`):
 * scored by the local engine at the ZIP3 level, the prefix's state (src/geo/resolver.ts, the fallback of
 * an unknown ZIP of a known prefix), with `geo_level` `zip3`; a prefix USPS does not assign is rejected.
 * The API's contract takes 5-digit ZIPs only, so a remote run rejects such rows saying so
 * (docs/batch.md, "ZIP3 rows").
 */
import type { ErrorItem } from '../../../src/contract/schemas.js';
import { checkRequest, type ValidRequest } from '../../../src/contract/validate.js';

const ZIP3 = /^([0-9]{3})(?:xx|XX)?$/;

/** The prefix of a ZIP3 cell (`860xx`, `860XX`, `860`), else undefined. */
export const zip3Of = (zip: unknown): string | undefined =>
  typeof zip === 'string' ? ZIP3.exec(zip)?.[1] : undefined;

/** A body with `zip` in place of its ZIP. */
const withZip = (body: { demographics: Record<string, unknown> }, zip: string) => ({
  ...body,
  demographics: { ...body.demographics, zip },
});

/** The body with a 5-digit ZIP of `prefix` in place of its ZIP3, for the contract's check of the rest. */
export const withPrefixZip = (body: { demographics: Record<string, unknown> }, prefix: string) =>
  withZip(body, `${prefix}00`);

/**
 * A ZIP3 row's request: the body checked by the contract with a 5-digit ZIP of the prefix in place of
 * its own (every other field as strictly as any row's), then carrying the prefix, which the engine
 * resolves at the ZIP3 level. Undefined when the row is not a ZIP3 row or the contract refuses the rest.
 */
export function zip3Request(body: { demographics: Record<string, unknown> }): ValidRequest | undefined {
  const prefix = zip3Of(body.demographics.zip);
  if (prefix === undefined) return undefined;
  const checked = checkRequest(withPrefixZip(body, prefix));
  return checked === undefined ? undefined : (withZip(checked, prefix) as ValidRequest);
}

/** A ZIP3 row's errors: the contract's on the rest of the row, without its complaint about the ZIP's form. */
export const zip3Errors = (errors: readonly ErrorItem[], zip: unknown): ErrorItem[] =>
  zip3Of(zip) === undefined ? [...errors] : errors.filter((error) => error.path !== '/demographics/zip');

export const unknownPrefix = (prefix: string): ErrorItem => ({
  path: '/demographics/zip',
  message: `${prefix} is not a 3-digit ZIP prefix USPS assigns`,
});

export const REMOTE_ZIP3: ErrorItem = {
  path: '/demographics/zip',
  message:
    'a 3-digit ZIP (860xx) is scored by the local engine only: the API takes 5-digit ZIPs (run with --engine local)',
};
