/**
 * The engine's evaluation taken apart, for figure 1's cost split: the engine's own steps
 * (`evaluationSteps`) — fixed expenses, geography, model, budget, score — run on every profile as
 * cumulative prefixes (the first step, the first two, …, all five), and each step's cost is its prefix's
 * minus the one before. Each step thus runs on the inputs the steps before it produced, as in the engine,
 * with no copies of precomputed inputs in between; the figure measures the engine's own call separately.
 *
 * Its own process: the model's prediction and the budget's allocation are bound to fixed buffers, and
 * V8 compiles them for those buffers only while they are the only ones bound in the thread (see
 * `bindPrediction` in src/model/spending-model.ts). Next to the engine of figure 1 they would be second
 * bindings and run slower than the engine's do.
 *
 * Usage: node dist/bench/stack/engine-stages.js <households.csv> <warm-up ms> <measured ms>
 * Prints a JSON array of {name, through, step}: CPU ns per profile of the prefix that ends with the step,
 * and of the step (its prefix's minus the one before, round by round); medians of 15 interleaved rounds.
 */
import { checkRequest, type ValidRequest } from '../../src/contract/validate.js';
import { evaluationSteps } from '../../src/engine/evaluation.js';
import { loadGeoResolver } from '../../src/geo/load.js';
import type { Geography } from '../../src/geo/types.js';
import { loadSpendingModel } from '../../src/model/load.js';
import { readRequestBodies } from '../lib/households.js';
import { median } from '../lib/stats.js';
import { interleavedRounds } from '../lib/timing.js';

const [csvPath, warmupMs, measureMs] = process.argv.slice(2);
const warmup = Number(warmupMs);
const measure = Number(measureMs);
if (csvPath === undefined || !(warmup >= 0) || !(measure > 0)) {
  throw new Error(
    'usage: node dist/bench/stack/engine-stages.js <households.csv> <warm-up ms> <measured ms>',
  );
}

const [model, geo, bodies] = await Promise.all([
  loadSpendingModel(),
  loadGeoResolver(),
  readRequestBodies(csvPath),
]);
const requests = bodies.flatMap((body): ValidRequest[] => {
  const request = checkRequest(body);
  return request === undefined ? [] : [request];
});

const { readFixedExpenses, predict, allocate, score } = evaluationSteps(model);

// What each step hands the next, as the engine's locals do.
let givenWhole = 0;
let geography: Geography = geo.resolve('');
let fillableWeight = 0;
let spending = 0;

function fixedExpenses(request: ValidRequest): void {
  givenWhole = readFixedExpenses(request.budget);
}
function geographyOf(request: ValidRequest): void {
  geography = geo.resolve(request.demographics.zip);
}
function modelOf(request: ValidRequest): void {
  fillableWeight = predict(request.demographics, geography);
}
function budgetOf(request: ValidRequest): void {
  spending = allocate(request.demographics.net_annual_income, givenWhole, fillableWeight);
}
function scoreOf(request: ValidRequest): void {
  score(request.demographics.net_annual_income, spending);
}

// Each prefix written out, so that every step is a direct call it can inline: one loop calling the steps
// through an array would pay a megamorphic call per step and book it to the steps.
const prefixes: readonly { name: string; run: (request: ValidRequest) => void }[] = [
  {
    name: 'fixed expenses (request → buffers, their sum in whole units)',
    run: (r) => fixedExpenses(r),
  },
  {
    name: 'geography (ZIP → area, price parities)',
    run: (r) => {
      fixedExpenses(r);
      geographyOf(r);
    },
  },
  {
    name: 'model (prediction, and the weight sum of the categories to fill)',
    run: (r) => {
      fixedExpenses(r);
      geographyOf(r);
      modelOf(r);
    },
  },
  {
    name: "budget (allocation; model in whole units and the score's spending in the same pass)",
    run: (r) => {
      fixedExpenses(r);
      geographyOf(r);
      modelOf(r);
      budgetOf(r);
    },
  },
  {
    name: 'score (PSA, scores)',
    run: (r) => {
      fixedExpenses(r);
      geographyOf(r);
      modelOf(r);
      budgetOf(r);
      scoreOf(r);
    },
  },
];

// Interleaved rounds, each step's cost the median over rounds of its prefix's minus the one before in
// the same round: a drift of the machine's speed between two prefixes would otherwise land on one step.
const perRound = interleavedRounds(
  requests.length,
  prefixes.map(
    ({ run }) =>
      (i: number) =>
        run(requests[i]!),
  ),
  { warmupMs: warmup, measureMs: measure, rounds: 15 },
).map((rounds) => rounds.map((rate) => 1e9 / rate.perCpuSecond));
const stages = prefixes.map(({ name }, p) => ({
  name,
  through: median(perRound[p]!),
  step: median(perRound[p]!.map((ns, round) => ns - (p === 0 ? 0 : perRound[p - 1]![round]!))),
}));
process.stdout.write(`${JSON.stringify(stages)}\n`);
