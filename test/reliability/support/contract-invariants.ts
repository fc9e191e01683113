/**
 * What every 200 answer must satisfy, checked against the request that produced it. Written from the
 * contract's statements rather than from the engine's code, so that a wrong engine cannot vouch for itself:
 * 38 whole non-negative amounts; a budget that keeps the given amounts and adds up to the rounded net income
 * unless the given amounts alone exceed it; score strings that parse, and scores that follow from the PSA
 * by the published formula (80 + 100 × (12 × PSA − savings) / net income, clamped to 0–100, one decimal).
 */
import { CATEGORIES } from '../../../src/contract/categories.js';
import { DEFAULT_SCORE_KEY, PSA_KEY, SAVINGS_SCORE_KEY } from '../../../src/contract/schemas.js';

export type Operation = 'budgets' | 'models' | 'scores';

interface Request {
  readonly demographics: { readonly net_annual_income: number };
  readonly budget?: Readonly<Record<string, number>>;
}

const NEVER_FILLED = new Set(['savings', 'other_debt_payments']);
/** Scores are rounded to tenths; the check allows the rounding plus floating-point noise. */
const TENTHS_TOLERANCE = 0.5 + 1e-6;

const sameKeys = (actual: object, expected: readonly string[]) =>
  Object.keys(actual).length === expected.length && expected.every((key) => Object.hasOwn(actual, key));

function wholeAmounts(record: unknown, what: string): string[] {
  if (typeof record !== 'object' || record === null || !sameKeys(record, CATEGORIES)) {
    return [`${what} must have exactly the 38 categories`];
  }
  const values = record as Record<string, unknown>;
  return CATEGORIES.filter((c) => !(Number.isInteger(values[c]) && (values[c] as number) >= 0)).map(
    (c) => `${what}.${c} = ${String(values[c])} is not a whole amount ≥ 0`,
  );
}

function budgetViolations(request: Request, response: Record<string, unknown>): string[] {
  if (!sameKeys(response, ['budget'])) return ['budget response must have exactly the key "budget"'];
  const budget = response.budget as Record<string, number>;
  const problems = wholeAmounts(budget, 'budget');
  if (problems.length > 0) return problems;
  const given = request.budget ?? {};
  let fixed = 0;
  let fillable = 0;
  for (const category of CATEGORIES) {
    const amount = given[category];
    if (amount !== undefined) {
      fixed += Math.round(amount);
      if (budget[category] !== Math.round(amount))
        problems.push(`given ${category} ${amount} came back as ${budget[category]}`);
    } else if (NEVER_FILLED.has(category)) {
      if (budget[category] !== 0) problems.push(`${category} was not given but is ${budget[category]}`);
    } else {
      fillable++;
    }
  }
  const net = Math.round(request.demographics.net_annual_income);
  const sum = CATEGORIES.reduce((total, c) => total + budget[c]!, 0);
  const expected = fillable === 0 ? fixed : Math.max(net, fixed);
  if (sum !== expected)
    problems.push(`budget adds up to ${sum}, expected ${expected} (net ${net}, fixed ${fixed})`);
  return problems;
}

function modelViolations(response: Record<string, unknown>): string[] {
  if (!sameKeys(response, ['model'])) return ['model response must have exactly the key "model"'];
  const problems = wholeAmounts(response.model, 'model');
  const model = response.model as Record<string, number>;
  if (problems.length === 0 && model.other_debt_payments !== 0)
    problems.push('model.other_debt_payments must be 0');
  return problems;
}

function scoreTenths(text: unknown, what: string, problems: string[]): number {
  if (typeof text !== 'string' || !/^[0-9]{1,3}\.[0-9]$/.test(text) || Number(text) > 100) {
    problems.push(`${what} ${JSON.stringify(text)} is not a score string 0.0–100.0`);
    return Number.NaN;
  }
  return Math.round(Number(text) * 10);
}

function expectedTenths(psa: number, savings: number, net: number): number {
  return Math.min(1000, Math.max(0, 800 + (1000 * (12 * psa - savings)) / net));
}

function scoreViolations(request: Request, response: Record<string, unknown>): string[] {
  if (!sameKeys(response, [PSA_KEY, DEFAULT_SCORE_KEY, SAVINGS_SCORE_KEY])) {
    return [
      `score response must have exactly the keys ${PSA_KEY}, ${DEFAULT_SCORE_KEY}, ${SAVINGS_SCORE_KEY}`,
    ];
  }
  const problems: string[] = [];
  const psaText = response[PSA_KEY];
  if (typeof psaText !== 'string' || !/^-?[0-9]+$/.test(psaText))
    return [`PSA ${JSON.stringify(psaText)} is not a whole number string`];
  const psa = Number(psaText);
  const net = request.demographics.net_annual_income;
  // Spending is never negative, so nothing can be saved beyond the whole monthly income.
  if (psa > Math.round(net / 12)) problems.push(`PSA ${psa} exceeds the monthly net income ${net / 12}`);
  const savings = request.budget?.savings ?? 0;
  const checks: [unknown, string, number][] = [
    [response[DEFAULT_SCORE_KEY], DEFAULT_SCORE_KEY, expectedTenths(psa, 0, net)],
    [response[SAVINGS_SCORE_KEY], SAVINGS_SCORE_KEY, expectedTenths(psa, savings, net)],
  ];
  for (const [text, what, expected] of checks) {
    const tenths = scoreTenths(text, what, problems);
    if (Math.abs(tenths - expected) > TENTHS_TOLERANCE) {
      problems.push(
        `${what} ${String(text)} does not follow from PSA ${psa} (expected ${(expected / 10).toFixed(3)})`,
      );
    }
  }
  return problems;
}

/** Violations of the contract by a 200 answer to `requestText` (the raw body, parsed as the server parses it). */
export function contractViolations(operation: Operation, requestText: string, response: unknown): string[] {
  let request: Request;
  try {
    request = JSON.parse(requestText.replace(/^\uFEFF/, '')) as Request;
  } catch {
    return ['200 for a body that is not JSON'];
  }
  if (typeof response !== 'object' || response === null) return ['200 body is not a JSON object'];
  const body = response as Record<string, unknown>;
  if (operation === 'budgets') return budgetViolations(request, body);
  if (operation === 'models') return modelViolations(body);
  return scoreViolations(request, body);
}
