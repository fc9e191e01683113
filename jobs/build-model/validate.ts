/**
 * The model card's validation tables (issue 3, items 1–4) and example profiles, computed from the committed
 * extract and artifact plus the raw shared folders, and written into docs/model.md between
 * `<!-- generated:NAME -->` … `<!-- /generated:NAME -->` markers (`outlay build-model --validate`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORIES, CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import { LIMITS } from '../../src/contract/limits.js';
import { HOUSEHOLD_TYPES } from '../../src/contract/schemas.js';
import { floorTable, parseBenchmarkFloors } from '../../src/engine/benchmark-floors.js';
import { createEngine } from '../../src/engine/create-engine.js';
import type { Geography, GeoResolver } from '../../src/geo/types.js';
import type { ModelArtifact } from '../../src/model/artifact.js';
import { parseModelArtifact } from '../../src/model/parse.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';
import { DEFAULT_BENCHMARK_FLOORS_PATH } from '../../src/runtime/load-engine.js';
import { incomeScaleToPriceYear, type LogStatePrice, recordMeans, statePriceLookup } from './build.js';
import { CUT_NAMES, cutIndex } from './calibrate.js';
import { CE_CATEGORIES } from './ce-categories.js';
import { designRow, P } from './design.js';
import { yearSample } from './distribution.js';
import { distributionCoverageTable } from './distribution-coverage.js';
import { HOUSEHOLDS_FILE, readStubs } from './extract-ce.js';
import { type Household, SURVEY_YEAR } from './extract-households.js';
import { designInputs, fitModel, SPENDING } from './fit.js';
import { heldOutFit } from './held-out-fit.js';
import { isHeldOut } from './hold-out.js';
import { householdsFromCsv } from './household-csv.js';
import { scoreLendingClub } from './lendingclub-scoring.js';
import { housingAndVehiclePayments } from './payments.js';
import { shippedPredictions } from './population.js';
import {
  type CutDimension,
  type CutTargets,
  categoryPriceRelatives,
  readCutTargets,
  readStateRpp,
  TARGET_YEAR,
} from './published.js';
import { calibrationPopulation } from './reweight.js';
import { NEEDS as NEEDS_CATEGORIES } from './size.js';
import { SourceReader } from './sources.js';
import { estimateStateEffects, readStateCodes } from './state-effects.js';
import { benchmarkStandardsTable } from './validate-benchmarks.js';
import { localPricesTable, stateEffectsTable, surveyBiasTable } from './validate-geo.js';
import { lendingClubTable } from './validate-lendingclub.js';
import { metroSizeSection } from './validate-metro-size.js';
import { type RankingInputs, rankingTable, trainingModel } from './validate-ranking.js';
import { publishedSpendingRatio, ruralSection, zipsFileOf } from './validate-rural.js';
import { householdSizeTable } from './validate-size.js';

export interface ValidateOptions {
  readonly ceDir: string;
  readonly geoDir: string;
  readonly cpiDir: string;
  readonly dataDir: string;
  readonly resolver: GeoResolver;
}

/** Calibration target of issue 3: every published cut within 3 %. */
const CALIBRATION_TOLERANCE = 0.03;
const PROPERTY_PROFILES = 100_000;
const REGION_NAMES = ['northeast', 'midwest', 'south', 'west'] as const;

/**
 * The generated sections, each computed only when asked for (`only`: their names; all by default), so that
 * one table can be regenerated without the others' cost.
 */
export function validateModel(options: ValidateOptions, only?: readonly string[]): Record<string, string> {
  const sections = validationSections(options);
  const names = only ?? Object.keys(sections);
  const unknown = names.filter((name) => !(name in sections));
  if (unknown.length > 0) {
    throw new Error(
      `no generated section ${unknown.join(', ')} (known: ${Object.keys(sections).join(', ')})`,
    );
  }
  return Object.fromEntries(names.map((name) => [name, sections[name]!()]));
}

/** Evaluates `make` once, on first use. */
function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: make() };
    return value.v;
  };
}

function validationSections(options: ValidateOptions): Record<string, () => string> {
  const source = new SourceReader(join(options.ceDir, '..'));
  const households = householdsFromCsv(readFileSync(join(options.dataDir, 'ce', HOUSEHOLDS_FILE)));
  const json = JSON.parse(readFileSync(join(options.dataDir, 'model', 'outlay-model.json'), 'utf8'));
  const model = parseModelArtifact(json);
  const notes = (json as ModelArtifact).build.notes;
  const rpp2023 = readStateRpp(source, options.geoDir, TARGET_YEAR);
  const stateCodes = readStateCodes(source, options.geoDir);
  const population = once(() => calibrationPopulation(source, options.ceDir, households));
  const scale = incomeScaleToPriceYear(source, options.ceDir, options.cpiDir);
  const relatives = categoryPriceRelatives(source, options.cpiDir);
  const targets = (dimension: CutDimension) => readCutTargets(source, options.ceDir, dimension);
  const predictions = (givesHouseholdType: boolean) =>
    shippedPredictions(
      model,
      population(),
      scale,
      rpp2023,
      stateCodes,
      SPENDING,
      relatives,
      givesHouseholdType,
    );
  const allDimensions = Object.keys(CUT_NAMES) as CutDimension[];
  const logStatePrice = statePriceLookup(source, options.geoDir, households);
  const { fitted, base, heldOut } = refits(households, logStatePrice);
  return {
    'build-notes': () => notes.map((note) => `- ${note}`).join('\n'),
    'bls-2014': () => blsMeansTable(source, options.ceDir, households),
    calibration: () => calibrationTable(population(), predictions(true), allDimensions, targets),
    'calibration-marginalised': () =>
      calibrationTable(
        population(),
        predictions(false),
        allDimensions.filter((d) => d !== 'composition'),
        targets,
      ),
    'out-of-sample': () => outOfSampleTable(households, logStatePrice),
    properties: () => propertyTable(model, rpp2023),
    'distribution-coverage': () =>
      distributionCoverageTable(
        { model, incomeScale: scale, rpp: rpp2023, stateCodes },
        yearSample(households),
      ),
    'household-size': () => householdSizeTable(model),
    examples: () => examplesTable(model, options.resolver),
    'local-prices': () => localPricesTable(model, options.resolver),
    'state-effects': () => stateEffectsSection(source, options.geoDir, households, stateCodes, base()),
    'metro-size': () =>
      metroSizeSection({ households, base: base(), heldOut: heldOut(), model, resolver: options.resolver }),
    rural: () =>
      ruralSection({
        ...{ households, base: base(), fitted: fitted(), heldOut: heldOut(), model },
        ...{ resolver: options.resolver, zipsFile: zipsFileOf(options.dataDir), area: targets('area') },
        ...{ published: publishedSpendingRatio(source, options.ceDir), predictions: predictions(true) },
        population: population(),
      }),
    'survey-bias': () => surveyBiasTable(model, households, scale, rpp2023, stateCodes),
    ranking: () =>
      rankingSection(source, options, households, { incomeScale: scale, rpp: rpp2023, stateCodes }),
    lendingclub: () => lendingClubTable(scoreLendingClub(join(options.ceDir, '..', 'lendingclub'))),
    'benchmark-standards': () => benchmarkStandardsTable(shippedEngine(model, options.resolver)),
  };
}

/**
 * The build's own fit, refitted here (the artifact keeps only the factors the estimates give), its fitted
 * means, and the fit on the training CUs the hold-out checks use; each computed on first use.
 */
function refits(households: readonly Household[], logStatePrice: LogStatePrice) {
  const fitted = once(() => fitModel(households, logStatePrice));
  const base = once(() => SPENDING.map((category) => recordMeans(fitted(), households, category)));
  return { fitted, base, heldOut: once(() => heldOutFit(households, logStatePrice)) };
}

/** The shipped engine's benchmarks: the shipped model, geography and public floors (src/runtime/load-engine.ts). */
function shippedEngine(model: SpendingModel, geo: GeoResolver) {
  const text = readFileSync(DEFAULT_BENCHMARK_FLOORS_PATH, 'utf8');
  const floors = floorTable(parseBenchmarkFloors(JSON.parse(text), DEFAULT_BENCHMARK_FLOORS_PATH));
  return createEngine({ model, geo, floors });
}

/** The ranking table, scored with the model refitted on the training CUs (validate-ranking.ts). */
function rankingSection(
  source: SourceReader,
  options: ValidateOptions,
  households: readonly Household[],
  view: Pick<RankingInputs, 'incomeScale' | 'rpp' | 'stateCodes'>,
): string {
  return rankingTable({
    ...view,
    model: trainingModel(source, options, households),
    households,
    payments: housingAndVehiclePayments(source, options.ceDir, readStubs(source, options.ceDir).interview),
  });
}

/** The state effects as the build estimates them, from the build's fitted means `base`. */
function stateEffectsSection(
  source: SourceReader,
  geoDir: string,
  households: readonly Household[],
  stateCodes: ReadonlyMap<string, string>,
  base: readonly Float64Array[],
): string {
  const utilities = new Map(
    [...readStateRpp(source, geoDir, SURVEY_YEAR)].flatMap(([fips, rpp]) => {
      const code = stateCodes.get(fips);
      return code === undefined ? [] : [[code, rpp.utilities] as const];
    }),
  );
  return stateEffectsTable(estimateStateEffects(households, base, stateCodes), utilities);
}

/** Replaces each generated section of the markdown file; every marker pair must already exist. */
export function writeSections(path: string, sections: Record<string, string>): void {
  let text = readFileSync(path, 'utf8');
  for (const [name, body] of Object.entries(sections)) {
    const open = `<!-- generated:${name} -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = text.indexOf(open);
    const end = text.indexOf(close);
    if (start < 0 || end < start) throw new Error(`${path}: no ${open} … ${close} markers`);
    text = `${text.slice(0, start + open.length)}\n${body.trim()}\n${text.slice(end)}`;
  }
  writeFileSync(path, text);
}

const money = (x: number) => Math.round(x).toLocaleString('en-US');
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const weightedMean = (households: readonly Household[], value: (h: Household) => number) => {
  let s = 0;
  let t = 0;
  for (const h of households) {
    s += h.weight * value(h);
    t += h.weight;
  }
  return s / t;
};

/** (1) Extract's weighted all-CU means vs BLS's own 2014 Interview means, per category. */
function blsMeansTable(source: SourceReader, ceDir: string, households: readonly Household[]): string {
  const { interviewMeans } = readStubs(source, ceDir);
  const lines = ['| category | extract (weighted) | BLS 2014 Interview | difference |', '|---|--:|--:|--:|'];
  for (const category of SPENDING) {
    const def = CE_CATEGORIES[category];
    const index = CATEGORIES.indexOf(category);
    const ours = weightedMean(households, (h) => h.spending[index]!);
    const codes = [
      ...def.stub.map((c) => [c, 1] as const),
      ...(def.minus ?? []).map((c) => [c, -1] as const),
      ...(def.reductions ?? []).map((c) => [c, -1] as const),
    ];
    const missing = codes.filter(([code]) => !interviewMeans.has(code)).map(([code]) => code);
    const bls = codes.reduce((sum, [code, sign]) => sum + sign * (interviewMeans.get(code) ?? 0), 0);
    if (codes.length === 0) {
      lines.push(`| ${category} | ${ours.toFixed(2)} | — | Diary-only in CE: a proxy (data/ce/README.md) |`);
    } else if (missing.length > 0) {
      lines.push(
        `| ${category} | ${ours.toFixed(2)} | ${bls.toFixed(2)} | ${(ours - bls).toFixed(2)} = ${missing.join(', ')} (not in BLS's mean file) |`,
      );
    } else {
      lines.push(`| ${category} | ${ours.toFixed(2)} | ${bls.toFixed(2)} | ${(ours - bls).toFixed(2)} |`);
    }
  }
  return lines.join('\n');
}

/**
 * (2) The shipped model's predictions (predict path, per category and household) averaged over each
 * published 2023 cut of the given dimensions vs the published mean.
 */
function calibrationTable(
  households: readonly Household[],
  predictions: readonly Float64Array[],
  dimensions: readonly CutDimension[],
  readTargets: (dimension: CutDimension) => CutTargets,
): string {
  const weights = Float64Array.from(households, (h) => (h.region > 0 ? h.weight : 0));
  const worst = new Map<string, number[]>();
  let within = 0;
  let cells = 0;
  for (const dimension of dimensions) {
    const targets = readTargets(dimension);
    const member = cutIndex(households, weights, dimension);
    CUT_NAMES[dimension].forEach((cut, j) => {
      SPENDING.forEach((category, c) => {
        const target = targets.get(cut)?.get(category);
        if (target === undefined || target <= 0) return;
        let s = 0;
        let t = 0;
        households.forEach((_, i) => {
          if (member[i] !== j) return;
          s += weights[i]! * predictions[c]![i]!;
          t += weights[i]!;
        });
        const error = Math.abs(s / t / target - 1);
        const row = worst.get(category) ?? dimensions.map(() => 0);
        row[dimensions.indexOf(dimension)] = Math.max(row[dimensions.indexOf(dimension)]!, error);
        worst.set(category, row);
        cells++;
        if (error <= CALIBRATION_TOLERANCE) within++;
      });
    });
  }
  const lines = [
    `Max |model − published| / published over each dimension's cuts (2023 dollars; suppressed cells skipped). ${within} of ${cells} category × cut cells within ${pct(CALIBRATION_TOLERANCE)}.`,
    '',
    `| category | ${dimensions.join(' | ')} |`,
    `|---|${dimensions.map(() => '--:').join('|')}|`,
  ];
  for (const category of SPENDING) {
    lines.push(`| ${category} | ${(worst.get(category) ?? []).map(pct).join(' | ')} |`);
  }
  const passing = dimensions.map(
    (_, d) => SPENDING.filter((c) => (worst.get(c)?.[d] ?? 0) <= CALIBRATION_TOLERANCE).length,
  );
  lines.push(
    `| **categories within ${pct(CALIBRATION_TOLERANCE)} on every cut** | ${passing.map((k) => `${k}/${SPENDING.length}`).join(' | ')} |`,
  );
  return lines.join('\n');
}

/** (3) Refit without the held-out CUs; weighted mean absolute error vs the cell-means baseline. */
function outOfSampleTable(households: readonly Household[], logStatePrice: LogStatePrice): string {
  const live = households.filter((h) => h.weight > 0 && h.region > 0);
  const train = live.filter((h) => !isHeldOut(h.newid));
  const test = live.filter((h) => isHeldOut(h.newid));
  const fitted = fitModel(train, logStatePrice);
  const weights = Float64Array.from(live, (h) => h.weight);
  const keys = (['age', 'income', 'tenure', 'region'] as const).map((d) => cutIndex(live, weights, d));
  const isTest = live.map((h) => isHeldOut(h.newid));
  const fine = live.map((_, i) => keys.map((k) => k[i]).join('|'));
  const coarse = live.map((_, i) =>
    keys
      .slice(0, 3)
      .map((k) => k[i])
      .join('|'),
  );
  const lines = [
    `Held out: ${test.length} of ${live.length} CU-quarters (every CU whose FNV-1a hash of the CU id is 0 mod 5). Weighted mean absolute error per household, 2014 dollars.`,
    '',
    '| category | model | cell means | model / baseline |',
    '|---|--:|--:|--:|',
  ];
  let wins = 0;
  const sample: HoldOutSample = { live, isTest, fine, coarse, testInputs: designInputs(test, logStatePrice) };
  SPENDING.forEach((category, c) => {
    const cellMean = trainingCellMeans(sample, CATEGORIES.indexOf(category));
    const { modelError, baseError, total } = heldOutErrors(sample, category, fitted, c, cellMean);
    if (modelError < baseError) wins++;
    lines.push(
      `| ${category} | ${money(modelError / total)} | ${money(baseError / total)} | ${(modelError / baseError).toFixed(3)} |`,
    );
  });
  lines.splice(1, 0, `The model beats the baseline in ${wins} of ${SPENDING.length} categories.`);
  return lines.join('\n');
}

/** The live households split into training and test, with each one's fine and coarse cell key. */
interface HoldOutSample {
  readonly live: readonly Household[];
  readonly isTest: readonly boolean[];
  readonly fine: readonly string[];
  readonly coarse: readonly string[];
  /** Design inputs of the test households, in their order within `live`. */
  readonly testInputs: ReturnType<typeof designInputs>;
}

/**
 * The baseline: the training households' weighted mean spending on one category in the household's fine cell
 * (age × income × tenure × region), else its coarse cell (without region), else overall.
 */
function trainingCellMeans(sample: HoldOutSample, index: number): (i: number) => number {
  const { live, isTest, fine, coarse } = sample;
  const cells = new Map<string, [number, number]>();
  const add = (key: string, h: Household) => {
    const s = cells.get(key) ?? [0, 0];
    s[0] += h.weight * h.spending[index]!;
    s[1] += h.weight;
    cells.set(key, s);
  };
  live.forEach((h, i) => {
    if (isTest[i]) return;
    add(`f${fine[i]}`, h);
    add(`c${coarse[i]}`, h);
    add('all', h);
  });
  return (i: number) => {
    const cell = cells.get(`f${fine[i]}`) ?? cells.get(`c${coarse[i]}`) ?? cells.get('all')!;
    return cell[0] / cell[1];
  };
}

/** Weighted absolute errors of the refitted model and of the baseline over the test households. */
function heldOutErrors(
  sample: HoldOutSample,
  category: (typeof SPENDING)[number],
  fitted: ReturnType<typeof fitModel>,
  c: number,
  cellMean: (i: number) => number,
): { modelError: number; baseError: number; total: number } {
  const index = CATEGORIES.indexOf(category);
  const row = new Float64Array(P);
  let modelError = 0;
  let baseError = 0;
  let total = 0;
  let t = 0;
  sample.live.forEach((h, i) => {
    if (!sample.isTest[i]) return;
    designRow(
      { ...sample.testInputs[t++]!, logPrice: fitted.logPriceFactor(h, c) },
      fitted.incomeKnots,
      row,
      0,
    );
    let eta = 0;
    for (let j = 0; j < P; j++) eta += fitted.beta[c]![j]! * row[j]!;
    const y = h.spending[index]!;
    modelError += h.weight * Math.abs(y - Math.exp(eta));
    baseError += h.weight * Math.abs(y - cellMean(i));
    total += h.weight;
  });
  return { modelError, baseError, total };
}

/** (4) Issue 3's properties over generated profiles (fixed LCG: the same profiles on every run). */
function propertyTable(model: SpendingModel, rpp2023: ReturnType<typeof readStateRpp>): string {
  const next = lcg(20_140_101);
  const states = [...rpp2023.keys()].sort();
  const a = new Float64Array(CATEGORY_COUNT);
  const b = new Float64Array(CATEGORY_COUNT);
  const counts: PropertyCounts = {
    finite: [0, 0],
    deterministic: [0, 0],
    income: [0, 0],
    age: [0, 0],
    ageCurvature: [0, 0],
    size: [0, 0],
    needs: [0, 0],
    needsMixed: [0, 0],
  };
  const check = (key: keyof PropertyCounts, ok: boolean) => {
    counts[key][0]!++;
    if (!ok) counts[key][1]!++;
  };
  for (let n = 0; n < PROPERTY_PROFILES; n++) {
    const { profile, geo } = randomProfile(next, states, rpp2023);
    checkProperties(model, profile, geo, [a, b], check);
  }
  const rows: [keyof typeof counts, string][] = [
    ['finite', 'all 38 outputs finite and ≥ 0'],
    ['deterministic', 'same output after an unrelated call'],
    ['income', 'total spending does not fall when take-home rises 5 %'],
    ['age', 'total spending moves < 6 % for one more year of age'],
    [
      'ageCurvature',
      `second difference of total spending in age ≤ ${100 * MAX_AGE_SECOND_DIFFERENCE} % of the total (ages 19–89)`,
    ],
    ['size', 'total spending moves < 30 % for one more member'],
    [
      'needs',
      'one more member lowers neither total spending nor an IRS national-standard category (type given)',
    ],
    ['needsMixed', 'the same, household type not given (the type mixture moves with size)'],
  ];
  return [
    `${PROPERTY_PROFILES.toLocaleString('en-US')} generated profiles (take-home $5k–$10M log-uniform, age 18–89, 1–19 members, age, size and tenure each missing 10 % of the time, household type missing 50 % of the time and otherwise any type possible for the size, random state price parities, region and urbanity).`,
    '',
    '| property | checks | failures |',
    '|---|--:|--:|',
    ...rows.map(([key, label]) => `| ${label} | ${counts[key][0]} | ${counts[key][1]} |`),
  ].join('\n');
}

/** Property → [checks, failures]. */
type PropertyCounts = Record<
  'finite' | 'deterministic' | 'income' | 'age' | 'ageCurvature' | 'size' | 'needs' | 'needsMixed',
  [number, number]
>;

/** Bound on |T(a + 1) − 2 T(a) + T(a − 1)| / T(a) (docs/model.md, "Age curves"). */
const MAX_AGE_SECOND_DIFFERENCE = 0.015;
/** The IRS Collection Financial Standards' national-standard categories (size.ts), as output indexes. */
const NEEDS = NEEDS_CATEGORIES.map((c) => CATEGORY_INDEX[c]);

/**
 * A need held at a smaller size's level without the household type (src/model/needs.ts) is that level
 * recomputed through a ratio: two sizes held at one level can differ in the last bits.
 */
const HELD_ROUNDING = 1e-12;

/** A fixed linear congruential generator of numbers in [0, 1): the same sequence on every run. */
function lcg(start: number): () => number {
  let seed = start;
  return () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 4_294_967_296;
  };
}

/** One generated profile and its geography (the order of the draws fixes the sequence; keep it). */
function randomProfile(
  next: () => number,
  states: readonly string[],
  rpp2023: ReturnType<typeof readStateRpp>,
): { profile: Profile; geo: Geography } {
  const state = states[Math.floor(next() * states.length)]!;
  const geo: Geography = {
    level: 'state',
    state: null,
    cbsa: null,
    region: REGION_NAMES[Math.floor(next() * 4)]!,
    urban: next() < 0.8,
    rpp: rpp2023.get(state)!,
    rppScope: 'state',
  };
  const members = next() < 0.1 ? undefined : 1 + Math.floor(next() * (LIMITS.householdMax - 1));
  // Most clients will not send a household type; one member is always single_or_other (the contract).
  const type = HOUSEHOLD_TYPES[Math.floor(next() * HOUSEHOLD_TYPES.length)]!;
  const profile: Profile = {
    net_annual_income: Math.round(Math.exp(Math.log(5_000) + next() * Math.log(2_000))),
    age: next() < 0.1 ? undefined : 18 + Math.floor(next() * 72),
    household_members: members,
    is_homeowner: next() < 0.1 ? undefined : next() < 0.6,
    household_type: next() < 0.5 ? undefined : members === 1 ? 'single_or_other' : type,
  };
  return { profile, geo };
}

/** Total spending (all categories before savings). */
function totalSpending(out: Float64Array): number {
  let s = 0;
  for (let c = 0; c < CATEGORY_INDEX.savings; c++) s += out[c]!;
  return s;
}

/** Checks the five properties on one profile; `a` and `b` are scratch outputs. */
function checkProperties(
  model: SpendingModel,
  profile: Profile,
  geo: Geography,
  [a, b]: [Float64Array, Float64Array],
  check: (key: keyof PropertyCounts, ok: boolean) => void,
): void {
  model.predict(profile, geo, a);
  check(
    'finite',
    a.every((v) => Number.isFinite(v) && v >= 0),
  );
  model.predict({ net_annual_income: 50_000 }, geo, b);
  model.predict(profile, geo, b);
  check(
    'deterministic',
    a.every((v, c) => v === b[c]),
  );
  const base = totalSpending(a);
  model.predict({ ...profile, net_annual_income: profile.net_annual_income * 1.05 }, geo, b);
  check('income', totalSpending(b) >= base);
  if (profile.age !== undefined) {
    model.predict({ ...profile, age: profile.age + 1 }, geo, b);
    const older = totalSpending(b);
    check('age', Math.abs(older / base - 1) < 0.06);
    if (profile.age > 18) {
      model.predict({ ...profile, age: profile.age - 1 }, geo, b);
      check(
        'ageCurvature',
        Math.abs(older - 2 * base + totalSpending(b)) <= MAX_AGE_SECOND_DIFFERENCE * base,
      );
    }
  }
  if (profile.household_members !== undefined) {
    model.predict({ ...profile, household_members: profile.household_members + 1 }, geo, b);
    check('size', Math.abs(totalSpending(b) / base - 1) < 0.3);
    check(
      profile.household_type === undefined ? 'needsMixed' : 'needs',
      totalSpending(b) >= base && NEEDS.every((c) => b[c]! >= a[c]! * (1 - HELD_ROUNDING)),
    );
  }
}

/** The two example profiles of issue 3, resolved through the real geography tables. */
function examplesTable(model: SpendingModel, resolver: GeoResolver): string {
  const examples: [string, string, Profile][] = [
    [
      'Single renter, 25, Birmingham AL',
      '35210',
      { net_annual_income: 41_004, age: 25, household_members: 1, is_homeowner: false },
    ],
    [
      'Family of four homeowners, Sugar Land TX',
      '77479',
      { net_annual_income: 102_000, age: 40, household_members: 4, is_homeowner: true },
    ],
  ];
  const outputs = examples.map(([, zip, profile]) => {
    const out = new Float64Array(CATEGORY_COUNT);
    model.predict(profile, resolver.resolve(zip), out);
    return out;
  });
  const lines = [
    examples
      .map(([label, zip, profile]) => {
        const geo = resolver.resolve(zip);
        return `- ${label}: \`${JSON.stringify({ zip, ...profile })}\` → geography level ${geo.level}, RPP ${geo.rppScope} (all ${geo.rpp.all}, goods ${geo.rpp.goods}, housing ${geo.rpp.housing}, utilities ${geo.rpp.utilities}, other ${geo.rpp.other}), region ${geo.region}, urban ${geo.urban}.`;
      })
      .join('\n'),
    '',
    `| category | ${examples.map(([label]) => label).join(' | ')} |`,
    '|---|--:|--:|',
    ...CATEGORIES.map((category, c) => `| ${category} | ${outputs.map((o) => money(o[c]!)).join(' | ')} |`),
    `| **total spending** | ${outputs.map((o) => money(o.slice(0, CATEGORY_INDEX.savings).reduce((x, y) => x + y, 0))).join(' | ')} |`,
  ];
  return lines.join('\n');
}
