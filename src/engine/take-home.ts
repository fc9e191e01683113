/**
 * Take-home pay estimated from gross income and household size, for a request that gives gross income
 * alone and opts in (`"options": {"take_home": "estimate"}`; a batch row without take-home). The relation
 * is the one the CE survey's own households show between their income before and after taxes
 * (data/take-home/ce-take-home.json, built by jobs/extract/take-home.ts; docs/model.md, "Take-home pay
 * estimated from gross income"): per household-size group, take-home is interpolated linearly between
 * knots (weighted medians of gross and take-home), from 0 at 0, and beyond the last knot at its ratio.
 * The result is rounded to whole dollars and never above gross income. The state is not used: the
 * survey's state samples are thin and 15 % of its weight has the state suppressed.
 */

import TABLE from '../../data/take-home/ce-take-home.json' with { type: 'json' };
import type { InvalidRequestBody } from '../contract/schemas.js';
import { invalidRequest } from '../contract/validate.js';
import { roundHalfAwayFromZero } from './rounding.js';

/**
 * Household-size groups of the table: 1, 2, 3, and 4 or more members; the table's last group, all
 * households, is the relation for a household whose size is not given (the survey's mix of sizes, as the
 * model marginalises a field not given).
 */
export const TAKE_HOME_SIZE_GROUPS = 4;

export interface TakeHomeTable {
  readonly source: Readonly<Record<string, string>>;
  readonly method: string;
  /** Per size group, [gross, take-home] knots in rising gross. */
  readonly knots: readonly (readonly (readonly number[])[])[];
}

export const TAKE_HOME_TABLE: TakeHomeTable = TABLE;

/** The flag a row or an answer carries when its take-home pay was estimated. */
export const TAKE_HOME_ESTIMATED = 'TAKE_HOME_ESTIMATED' as const;

/** Estimated annual take-home pay, whole dollars, from gross annual income and household members if given. */
export function estimateTakeHome(
  gross: number,
  members: number | undefined,
  table = TAKE_HOME_TABLE,
): number {
  const group =
    members === undefined ? TAKE_HOME_SIZE_GROUPS : Math.min(Math.max(members, 1), TAKE_HOME_SIZE_GROUPS) - 1;
  const knots = table.knots[group]!;
  let [fromGross, fromNet] = [0, 0];
  for (const [knotGross, knotNet] of knots) {
    if (gross <= knotGross!) {
      const net = fromNet + ((knotNet! - fromNet) * (gross - fromGross)) / (knotGross! - fromGross);
      return Math.min(gross, roundHalfAwayFromZero(net));
    }
    [fromGross, fromNet] = [knotGross!, knotNet!];
  }
  return Math.min(gross, roundHalfAwayFromZero((gross * fromNet) / fromGross));
}

/** A body's take-home estimated: the body with it, the estimate and gross, or why it cannot be estimated. */
export type TakeHomeEstimate =
  | { readonly ok: true; readonly body: unknown; readonly estimate?: { net: number; gross: number } }
  | { readonly ok: false; readonly error: InvalidRequestBody };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a body asks for the estimate: `options.take_home` is "estimate" and it gives no take-home. */
export function wantsEstimate(body: unknown): body is { demographics: Record<string, unknown> } {
  return (
    isObject(body) &&
    isObject(body.options) &&
    body.options.take_home === 'estimate' &&
    isObject(body.demographics) &&
    body.demographics.net_annual_income === undefined
  );
}

const REQUIRED_FOR_ESTIMATE =
  'is required when options.take_home is "estimate" and net_annual_income is not given';

/**
 * The body with `net_annual_income` estimated when it asks for it (`wantsEstimate`), else as it is. Its
 * gross income must be given (above 0); household size is used when given. The contract then checks the
 * whole body as usual.
 */
export function withEstimatedTakeHome(body: unknown): TakeHomeEstimate {
  if (!wantsEstimate(body)) return { ok: true, body };
  const { gross_annual_income: gross, household_members: members } = body.demographics;
  if (!(typeof gross === 'number' && gross > 0 && Number.isFinite(gross)))
    return {
      ok: false,
      error: invalidRequest([{ path: '/demographics/gross_annual_income', message: REQUIRED_FOR_ESTIMATE }]),
    };
  // A size out of range estimates nothing: the contract refuses it next, naming it.
  const size = Number.isSafeInteger(members) && (members as number) >= 1 ? (members as number) : undefined;
  const net = estimateTakeHome(gross, size);
  return {
    ok: true,
    body: { ...body, demographics: { ...body.demographics, net_annual_income: net } },
    estimate: { net, gross: gross as number },
  };
}
