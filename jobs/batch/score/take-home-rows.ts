/**
 * Rows that give gross income and no take-home pay: scored with take-home estimated as the API does for a
 * request that opts in (`"options": {"take_home": "estimate"}`, src/engine/take-home.ts), and flagged
 * TAKE_HOME_ESTIMATED in the row's `expense_flags`, last, as the API's `details.flags` lists it.
 */
import { TAKE_HOME_ESTIMATED } from '../../../src/engine/take-home.js';

type RowBody = { demographics: Record<string, unknown>; options?: Record<string, unknown> };

/** Whether a row asks for the estimate: gross income given, take-home not. */
export const estimatesTakeHome = ({ demographics }: RowBody): boolean =>
  demographics.net_annual_income === undefined && demographics.gross_annual_income !== undefined;

/** The row's body, with the option that asks for the estimate when it gives gross income alone. */
export const withTakeHomeOption = <B extends RowBody>(body: B): B =>
  estimatesTakeHome(body) ? { ...body, options: { ...body.options, take_home: 'estimate' } } : body;

/** The row's flags with TAKE_HOME_ESTIMATED last. */
export const withEstimatedFlag = (flags: string): string =>
  flags === '' ? TAKE_HOME_ESTIMATED : `${flags};${TAKE_HOME_ESTIMATED}`;
