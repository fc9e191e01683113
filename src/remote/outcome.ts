/** What the remote client makes of one household's answer: its figures and explanation, or why it was refused. */
import type { ErrorItem } from '../contract/schemas.js';

/** The score's explanation as the scored file's columns read it, codes joined by `;`. */
export interface RemoteExplanation {
  readonly basis: string;
  readonly profile: string;
  readonly index: number;
  readonly savings_index: number;
  readonly percentile: number;
  readonly reasons: string;
  readonly flags: string;
  /** Lender mode, when the request had a `loan` and the answer is JSON (the rows answer carries none). */
  readonly lending?: RemoteLending;
}

/** `details.lending` as the scored file's lending columns read it, reason codes joined by `;`. */
export interface RemoteLending {
  readonly surplus: number;
  readonly index: number;
  readonly score: number;
  readonly reasons: string;
}

/** One household's answer: amounts in CATEGORIES order, the score answer's values as numbers, its explanation. */
export interface RemoteHousehold {
  readonly budget: Float64Array;
  readonly model: Float64Array;
  /** PSA, main score, SAViNGS score: `Number` of the answer's texts, which their schema's patterns bound. */
  readonly scoreValues: Float64Array;
  readonly explanation: RemoteExplanation;
}

/** A row the remote would not score: its field errors (400), or why it still failed after retries (`reason`). */
export interface RemoteRejection {
  readonly ok: false;
  readonly errors: readonly ErrorItem[];
  readonly reason?: string;
}

export type RemoteOutcome = { readonly ok: true; readonly value: RemoteHousehold } | RemoteRejection;
