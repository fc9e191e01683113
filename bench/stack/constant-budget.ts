import { CATEGORIES } from '../../src/contract/categories.js';

/** What both ceiling servers answer: a 38-key budget shaped like a real response, computed once. */
export const CONSTANT_BUDGET = {
  budget: Object.fromEntries(CATEGORIES.map((c, i) => [c, 1200 + i * 37])),
};

/** The path of the constant route on Outlay's own server stack (outlay-ceiling-server.ts). */
export const CONSTANT_ROUTE = '/bench/constant-budget';
