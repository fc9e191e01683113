/**
 * Figure 1 — the engine in-process, one thread, on generated profiles after warm-up, per CPU-second:
 *
 * - (a) evaluation: a validated request to the three figure sets (geography + model + budget + score)
 *   in the engine's typed buffers (`householdFiguresOf`) — what issue #7's "model + budget + score"
 *   counts, and what the target is compared against;
 * - (b) the same from a JSON-shaped body, request validation included (`householdFigures`);
 * - (c) `household()`, which also builds the three response objects.
 *
 * Stages are timed separately by calling the engine's components on the same profiles.
 */
import { join } from 'node:path';
import { CATEGORY_COUNT, OTHER_DEBT_INDEX, SAVINGS_INDEX } from '../src/contract/categories.js';
import { PSA_KEY, SAVINGS_SCORE_KEY } from '../src/contract/schemas.js';
import { checkRequest, type ValidRequest } from '../src/contract/validate.js';
import { BudgetAllocator } from '../src/engine/budget.js';
import { readGivenBudget } from '../src/engine/given.js';
import { categoryRecord, fixedKeyRecord } from '../src/engine/record.js';
import { writeScoreValues } from '../src/engine/score.js';
import { loadGeoResolver } from '../src/geo/load.js';
import { loadSpendingModel } from '../src/model/load.js';
import { loadEngine } from '../src/runtime/load-engine.js';
import { parseBenchArgs } from './lib/args.js';
import { formatHotFunctions, hottestFunctions, profileInProcess } from './lib/cpu-profile.js';
import { perSecond } from './lib/format.js';
import { readRequestBodies } from './lib/households.js';
import { generateSample, withScratch } from './lib/outlay.js';
import { type Measurement, startFigure, writeResult } from './lib/result.js';
import { measureThroughput, type Throughput } from './lib/timing.js';

const args = parseBenchArgs({
  profiles: { full: 100_000, smoke: 500 },
  seconds: { full: 5, smoke: 0.2 },
  warmup: { full: 2, smoke: 0.1 },
});
const figureStart = startFigure();
const TARGET_PER_CORE = 1_000_000;
const timing = { warmupMs: args.warmup * 1000, measureMs: args.seconds * 1000, rounds: 5 };

const generated = await withScratch('engine', async (dir) => {
  const csv = join(dir, 'households.csv');
  await generateSample(args.profiles, csv, 'csv');
  return readRequestBodies(csv);
});
const [engine, model, geo] = await Promise.all([loadEngine(), loadSpendingModel(), loadGeoResolver()]);
const bodies = generated.filter((body) => engine.household(body).ok);
const requests: ValidRequest[] = bodies.map((body) => {
  const request = checkRequest(body);
  if (request === undefined) throw new Error('a profile the engine accepted failed validation');
  return request;
});

// Results feed a sink so that no stage's work can be optimised away.
const sink = new Float64Array(1);
const totals = {
  evaluation: (i: number) => {
    sink[0]! += engine.householdFiguresOf(requests[i]!).budget[0]!;
  },
  validated: (i: number) => {
    const result = engine.householdFigures(bodies[i]);
    if (result.ok) sink[0]! += result.value.budget[0]!;
  },
  household: (i: number) => {
    const result = engine.household(bodies[i]);
    if (result.ok) sink[0]! += result.value.budget.food_home;
  },
};
const measured = Object.fromEntries(
  Object.entries(totals).map(([name, run]) => [name, measureThroughput(bodies.length, run, timing)]),
) as Record<keyof typeof totals, Throughput>;

// Each stage's inputs are the previous stages' outputs, computed once beforehand for every profile.
const geographies = requests.map((request) => geo.resolve(request.demographics.zip));
const givens = requests.map((request) => {
  const amounts = new Float64Array(CATEGORY_COUNT);
  const isGiven = new Uint8Array(CATEGORY_COUNT);
  return { amounts, isGiven, whole: readGivenBudget(request.budget, amounts, isGiven) };
});
const modeled = requests.map((request, i) => {
  const amounts = new Float64Array(CATEGORY_COUNT);
  const fillableWeight = model.predict(request.demographics, geographies[i]!, amounts, givens[i]!.isGiven);
  amounts[OTHER_DEBT_INDEX] = 0;
  return { amounts, fillableWeight };
});
const given = new Float64Array(CATEGORY_COUNT);
const isGiven = new Uint8Array(CATEGORY_COUNT);
const amounts = new Float64Array(CATEGORY_COUNT);
const modelAmounts = new Float64Array(CATEGORY_COUNT);
const allocator = new BudgetAllocator();
const allocate = (i: number): number => {
  const { amounts: fixed, isGiven: fixedFlags, whole } = givens[i]!;
  const { amounts: weights, fillableWeight } = modeled[i]!;
  const netIncome = requests[i]!.demographics.net_annual_income;
  return allocator.allocate(
    netIncome,
    fixed,
    fixedFlags,
    whole,
    weights,
    fillableWeight,
    amounts,
    modelAmounts,
  );
};
const spendings = requests.map((_, i) => allocate(i));
const scoreRecord = fixedKeyRecord([PSA_KEY, engine.scoreKey, SAVINGS_SCORE_KEY]);
const scoreStrings = ['', '', ''];
const scoreValues = new Float64Array(3);
const figureSets = requests.map((request, i) => {
  const figures = engine.householdFiguresOf(request);
  return {
    budget: figures.budget.slice(),
    model: figures.model.slice(),
    score: [...figures.score],
    geography: geographies[i]!,
  };
});

const evaluationStages: Record<string, (i: number) => void> = {
  'fixed expenses (request → buffers, their sum in whole units)': (i) => {
    sink[0]! += readGivenBudget(requests[i]!.budget, given, isGiven);
  },
  'geography (ZIP → area, price parities)': (i) => {
    sink[0]! += geo.resolve(requests[i]!.demographics.zip).rpp.all;
  },
  'model (prediction, and the weight sum of the categories to fill)': (i) => {
    sink[0]! += model.predict(requests[i]!.demographics, geographies[i]!, amounts, givens[i]!.isGiven);
  },
  "budget (allocation; model in whole units and the score's spending in the same pass)": (i) => {
    sink[0]! += allocate(i);
  },
  'score (PSA, scores)': (i) => {
    const { amounts: fixed, isGiven: fixedFlags } = givens[i]!;
    const savings = fixedFlags[SAVINGS_INDEX] === 1 ? fixed[SAVINGS_INDEX]! : 0;
    writeScoreValues(
      requests[i]!.demographics.net_annual_income,
      spendings[i]!,
      savings,
      scoreStrings,
      scoreValues,
    );
    sink[0]! += scoreStrings[0]!.length;
  },
};
const otherStages: Record<string, (i: number) => void> = {
  'request validation (contract layer)': (i) => {
    if (checkRequest(bodies[i]) !== undefined) sink[0]! += 1;
  },
  'response objects (budget, model, score, geo)': (i) => {
    const { budget, model: modelAmounts, score, geography } = figureSets[i]!;
    const response = {
      budget: categoryRecord(budget),
      model: categoryRecord(modelAmounts),
      score: scoreRecord(score),
      geo: { geo_level: geography.level, state: geography.state, cbsa: geography.cbsa },
    };
    sink[0]! += response.budget.food_home + response.model.food_home;
  },
};
const costOf = (stages: Record<string, (i: number) => void>) =>
  Object.entries(stages).map(([name, stage]) => ({
    name,
    ns: measureThroughput(bodies.length, stage, timing).nanosecondsPerCall,
  }));
const evaluationCosts = costOf(evaluationStages);
const otherCosts = costOf(otherStages);
const evaluationNs = evaluationCosts.reduce((sum, stage) => sum + stage.ns, 0);

const met = measured.evaluation.callsPerCpuSecond >= TARGET_PER_CORE;
const notes = [
  `${bodies.length.toLocaleString('en-US')} generated profiles (of ${generated.length.toLocaleString('en-US')} ` +
    `rows), model ${engine.modelVersion}; one thread, rates per CPU-second of the process (median of 5 rounds). ` +
    'Stages are timed separately on the same profiles; what their sum misses is the calls between them and ' +
    'cache effects.',
];
if (!args.smoke && (args.profile || !met)) {
  for (const [name, title] of [
    ['evaluation', 'householdFiguresOf (evaluation)'],
    ['household', 'household (validation, evaluation, response objects)'],
  ] as const) {
    const profile = await profileInProcess(() => {
      measureThroughput(bodies.length, totals[name], { warmupMs: 0, measureMs: 3000, rounds: 1 });
    });
    notes.push(formatHotFunctions(title, hottestFunctions([profile])));
  }
}

const rate = (name: string, throughput: Throughput): Measurement => ({
  name,
  value: Math.round(throughput.callsPerCpuSecond),
  unit: 'profiles/s/core',
  detail:
    `${throughput.nanosecondsPerCall.toFixed(0)} ns of CPU per call; ` +
    `${perSecond(throughput.callsPerWallSecond)} by the wall clock`,
});
const measurements: Measurement[] = [
  rate('(a) evaluation — geography + model + budget + score into buffers (the target)', measured.evaluation),
  rate('(b) (a) + request validation of a JSON-shaped body', measured.validated),
  rate('(c) household() — (b) + response objects', measured.household),
  ...evaluationCosts.map(({ name, ns }) => ({
    name: `stage of (a): ${name}`,
    value: ns,
    unit: 'ns/call',
    detail: `${((100 * ns) / evaluationNs).toFixed(0)}% of the evaluation stages`,
  })),
  { name: 'sum of the evaluation stages', value: evaluationNs, unit: 'ns/call' },
  ...otherCosts.map(({ name, ns }) => ({ name: `outside (a): ${name}`, value: ns, unit: 'ns/call' })),
];

await writeResult(args.resultsDir, figureStart, {
  figure: 'engine',
  title: 'Engine: profiles per second per core',
  command: 'node dist/bench/engine.js',
  smoke: args.smoke,
  parameters: { profiles: bodies.length, warmupSeconds: args.warmup, measureSeconds: args.seconds },
  measurements,
  targets: [
    {
      name: 'model + budget + score (evaluation, a), per core',
      target: `≥ ${perSecond(TARGET_PER_CORE)}`,
      measured: perSecond(measured.evaluation.callsPerCpuSecond),
      met,
    },
  ],
  notes,
});
