/**
 * Figure 1 — the engine in-process: households per second per core for model + budget + score
 * (`Engine.household`, one thread) on generated profiles after warm-up, and the cost of each stage, timed
 * by calling the engine's component functions on the same profiles.
 */
import { join } from 'node:path';
import { CATEGORY_COUNT, OTHER_DEBT_INDEX } from '../src/contract/categories.js';
import { PSA_KEY, SAVINGS_SCORE_KEY } from '../src/contract/schemas.js';
import { type ValidRequest, validateRequest } from '../src/contract/validate.js';
import { BudgetAllocator } from '../src/engine/budget.js';
import { readGivenBudget } from '../src/engine/given.js';
import { categoryRecord, fixedKeyRecord } from '../src/engine/record.js';
import { roundHalfAwayFromZero } from '../src/engine/rounding.js';
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
import { measureThroughput } from './lib/timing.js';

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

// Results feed a sink so that no stage's work can be optimised away.
const sink = new Float64Array(1);
const household = (i: number) => {
  if (engine.household(bodies[i]).ok) sink[0]! += 1;
};
const total = measureThroughput(bodies.length, household, timing);

// Each stage's inputs are the previous stages' outputs, computed once beforehand for every profile.
const requests: ValidRequest[] = bodies.map((body) => {
  const validation = validateRequest(body);
  if (!validation.ok) throw new Error('a profile the engine accepted failed validation');
  return validation.request;
});
const geographies = requests.map((request) => geo.resolve(request.demographics.zip));
const givens = requests.map((request) => {
  const given = { amounts: new Float64Array(CATEGORY_COUNT), isGiven: new Uint8Array(CATEGORY_COUNT) };
  readGivenBudget(request.budget, given.amounts, given.isGiven);
  return given;
});
const modeled = requests.map((request, i) => {
  const out = new Float64Array(CATEGORY_COUNT);
  model.predict(request.demographics, geographies[i]!, out);
  out[OTHER_DEBT_INDEX] = 0;
  return out;
});
const given = new Float64Array(CATEGORY_COUNT);
const isGiven = new Uint8Array(CATEGORY_COUNT);
const amounts = new Float64Array(CATEGORY_COUNT);
const allocator = new BudgetAllocator();
const scoreRecord = fixedKeyRecord([PSA_KEY, engine.scoreKey, SAVINGS_SCORE_KEY]);
const scoreStrings = ['', '', ''];

const stages: Record<string, (i: number) => void> = {
  'request (validation, fixed expenses)': (i) => {
    const validation = validateRequest(bodies[i]);
    if (validation.ok) readGivenBudget(validation.request.budget, given, isGiven);
    sink[0]! += isGiven[0]!;
  },
  'geography (ZIP → area, price parities)': (i) => {
    sink[0]! += geo.resolve(requests[i]!.demographics.zip).rpp.all;
  },
  'model (prediction, model response)': (i) => {
    model.predict(requests[i]!.demographics, geographies[i]!, amounts);
    for (let c = 0; c < CATEGORY_COUNT; c++) amounts[c] = roundHalfAwayFromZero(amounts[c]!);
    sink[0]! += categoryRecord(amounts).food_home;
  },
  'budget (allocation, budget response)': (i) => {
    const { amounts: fixed, isGiven: fixedFlags } = givens[i]!;
    allocator.allocate(requests[i]!.demographics.net_annual_income, fixed, fixedFlags, modeled[i]!, amounts);
    sink[0]! += categoryRecord(amounts).food_home;
  },
  'score (PSA, scores, score response)': (i) => {
    const { amounts: fixed, isGiven: fixedFlags } = givens[i]!;
    writeScoreValues(
      requests[i]!.demographics.net_annual_income,
      fixed,
      fixedFlags,
      modeled[i]!,
      scoreStrings,
    );
    sink[0]! += scoreRecord(scoreStrings)[PSA_KEY]!.length;
  },
};
const stageCosts = Object.entries(stages).map(([name, stage]) => ({
  name,
  ns: measureThroughput(bodies.length, stage, timing).nanosecondsPerCall,
}));
const stagesNs = stageCosts.reduce((sum, stage) => sum + stage.ns, 0);

const met = total.callsPerCpuSecond >= TARGET_PER_CORE;
const notes = [
  `${bodies.length.toLocaleString('en-US')} generated profiles (of ${generated.length.toLocaleString('en-US')} ` +
    `rows), model ${engine.modelVersion}; one thread, rates per CPU-second of the process. Stages are timed ` +
    'separately on the same profiles; what their sum misses is the assembly of the household result and ' +
    'cache effects.',
];
if (!args.smoke && (args.profile || !met)) {
  const profile = await profileInProcess(() => {
    measureThroughput(bodies.length, household, { warmupMs: 0, measureMs: 3000, rounds: 1 });
  });
  notes.push(formatHotFunctions('Engine.household', hottestFunctions([profile])));
}

const measurements: Measurement[] = [
  {
    name: 'household() — model + budget + score',
    value: Math.round(total.callsPerCpuSecond),
    unit: 'profiles/s/core',
    detail:
      `${total.nanosecondsPerCall.toFixed(0)} ns of CPU per call; ` +
      `${perSecond(total.callsPerWallSecond)} by the wall clock`,
  },
  ...stageCosts.map(({ name, ns }) => ({
    name: `stage: ${name}`,
    value: ns,
    unit: 'ns/call',
    detail: `${((100 * ns) / stagesNs).toFixed(0)}% of the stages`,
  })),
  { name: 'sum of the stages', value: stagesNs, unit: 'ns/call' },
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
      name: 'model + budget + score, per core',
      target: `≥ ${perSecond(TARGET_PER_CORE)}`,
      measured: perSecond(total.callsPerCpuSecond),
      met,
    },
  ],
  notes,
});
