/**
 * The model build: raw CE/geo/CPI folders → household extract (data/ce) → fit → calibration → artifact.
 * Every number stored in the artifact is rounded to 12 significant digits and every iteration order is
 * fixed, so the same inputs give the same bytes on every supported Node version.
 */
import { join } from 'node:path';
import {
  AREA_SLOTS,
  ARTIFACT_FORMAT,
  type ModelArtifact,
  REGION_SLOTS,
  type SpendingDistribution,
} from '../../src/model/artifact.js';
import { type MeanTables, TableSpendingModel } from '../../src/model/spending-model.js';
import { smoothAgeCurves } from './age-smoothing.js';
import {
  AGE_CUTS,
  type Calibration,
  calibrate,
  combine,
  harmonizeLevels,
  INCOME_CUTS,
  smoothFactor,
} from './calibrate.js';
import type { SpendingCategory } from './ce-categories.js';
import { fitCompositionLogits } from './composition.js';
import { COLUMNS, type DesignInput, designRow, INCOME_CEILING, INCOME_FLOOR, P } from './design.js';
import { spendingDistribution, yearSample } from './distribution.js';
import { extractCeHouseholds } from './extract-ce.js';
import type { Household } from './extract-households.js';
import { SURVEY_YEAR } from './extract-households.js';
import { type FittedModel, fitModel, PRICE_COMPONENT, PRICE_COMPONENT_INDEX, SPENDING } from './fit.js';
import {
  type CategoryMetroSizeEffects,
  estimateMetroSizeEffects,
  metroSizeFactorTable,
} from './metro-size-effects.js';
import { runningMax } from './monotone.js';
import { shippedPredictions } from './population.js';
import {
  allCuIncomeAfterTaxes,
  allItemsCpi,
  type CutDimension,
  type CutTargets,
  categoryPriceRelatives,
  PRICE_YEAR,
  type PriceComponent,
  readCutTargets,
  readStateRpp,
  TARGET_YEAR,
} from './published.js';
import { calibrationPopulation } from './reweight.js';
import { estimateRuralEffects, type RuralEffects } from './rural-effects.js';
import { holdTotalsRisingInSize, SIZE_TABLE_MAX, sizeTable } from './size.js';
import { SourceReader } from './sources.js';
import {
  type CategoryStateEffects,
  estimateStateEffects,
  readStateCodes,
  stateFactorTable,
} from './state-effects.js';

export const MODEL_VERSION = '1.0.0';
/**
 * Recorded in the artifact in this canonical form (paths as in the repository layout), so the bytes do not
 * depend on where the raw folders are mounted.
 */
export const BUILD_COMMAND =
  'outlay build-model --ce-dir ../shared/ce --geo-dir ../shared/geo --out data/model/outlay-model.json';
const GRID_POINTS = 96;
const AGE_MIN = 18;
const AGE_MAX = 90;
/** Kernel bandwidth in ln income for the "households like this one" marginals. */
const KERNEL_BANDWIDTH = 0.35;
/** Minimum income elasticity of every category's take-home curve (monotonicity guard, docs/model.md). */
const MIN_INCOME_SLOPE = 0.01;
/**
 * Where a category may fall with income (incomeDips), its income elasticity is at least −1 (its dollars
 * fall at most in proportion): a published dip between two close quintile knots otherwise gives
 * residential phone an elasticity near −2, enough to make a low-income 88-year-old's total fall with
 * income. (−0.5 also held the property but erased tobacco's and prescription drugs' published contrasts.)
 */
const MIN_DIP_SLOPE = -1;
/**
 * Categories whose published quintile means rise but whose take-home curve must fall somewhere to meet
 * them, and the quintile knot from which it may. Home maintenance: pre-tax quintile 4 spends 8 % more than
 * quintile 3 ($2,646 vs $2,448) while its owner share and take-home are higher; with the curve flat from the
 * third knot to the fifth (the least a non-decreasing curve can rise) the model's fourth quintile was still
 * 3.2 % high, the third 2.8 % low. Free from the lowest knot, it dipped at ~$17k instead, where it made
 * low-income homeowners' totals fall with income.
 */
const TAKE_HOME_DIPS: ReadonlyMap<SpendingCategory, number> = new Map([['home_maintenance_and_repairs', 2]]);
/**
 * Calibration rounds on the artifact's own predictions after the first (ln-errors shrink ~10× per round).
 * Two left 803 of 806 published cells within 3 % once mortgage principal entered the extract with its
 * sign (housing's price elasticity and budget share moved the first round's errors); three give 805.
 */
const SHIPPED_ROUNDS = 3;

export interface BuildOptions {
  readonly ceDir: string;
  readonly geoDir: string;
  readonly cpiDir: string;
  readonly dataDir: string;
  readonly command: string;
}

export interface BuildResult {
  readonly artifact: ModelArtifact;
  readonly households: Household[];
  readonly targets: Record<CutDimension, CutTargets>;
}

export function buildModel(options: BuildOptions): BuildResult {
  const source = new SourceReader(join(options.ceDir, '..'));
  const households = extractCeHouseholds(source, options.ceDir, join(options.dataDir, 'ce'));
  return { ...fitArtifact(source, options, households), households };
}

/**
 * Fit, calibration and artifact from extracted households: the build's own path after the extraction, also
 * run by the validation on the training consumer units alone (validate-ranking.ts's true hold-out).
 */
export function fitArtifact(
  source: SourceReader,
  options: Omit<BuildOptions, 'dataDir'>,
  households: Household[],
): Omit<BuildResult, 'households'> {
  const logStatePrice = statePriceLookup(source, options.geoDir, households);
  const fitted = fitModel(households, logStatePrice);
  const targets = Object.fromEntries(
    (['age', 'income', 'tenure', 'region', 'area', 'composition'] as const).map((d) => [
      d,
      readCutTargets(source, options.ceDir, d),
    ]),
  ) as Record<CutDimension, CutTargets>;
  const u = Float64Array.from(fitted.inputs, (x) => x.u);
  const base = SPENDING.map((category) => recordMeans(fitted, households, category));
  const stateCodes = readStateCodes(source, options.geoDir);
  const stateEffects = estimateStateEffects(households, base, stateCodes);
  const stateFactor = stateFactorTable(stateEffects);
  const metroSizeEffects = estimateMetroSizeEffects(households, base);
  const metroSizeFactor = metroSizeFactorTable(metroSizeEffects);
  const ruralEffects = estimateRuralEffects(households, fitted, base);
  const rural = ruralEffects.categories.map((e) => e.factor);
  const incomeScale = incomeScaleToPriceYear(source, options.ceDir, options.cpiDir);
  const relatives = categoryPriceRelatives(source, options.cpiDir);
  const rpp2023 = readStateRpp(source, options.geoDir, TARGET_YEAR);
  const dips = incomeDips(targets.income);
  const population = calibrationPopulation(source, options.ceDir, households);
  // Stage 1 rakes the fitted household means; the artifact then differs from them (tenure mix by logit,
  // monotonicity guard, 2023 prices), so each further round rakes what the artifact itself predicts.
  const shrunkBase = withRuralFactors(base, households, ruralEffects);
  const levelled = harmonizeLevels(population, SPENDING, targets, shrunkBase);
  let calibration = calibrate(population, u, shrunkBase, SPENDING, levelled);
  const build = (c: Calibration): ReturnType<typeof tables> => ({
    ...tables(fitted, c, rural, population, u, Math.log(incomeScale), relatives, dips),
    stateFactor,
    metroSizeFactor,
  });
  let artifact = build(calibration);
  for (let round = 0; round < SHIPPED_ROUNDS; round++) {
    const model = new TableSpendingModel({ ...artifact, build: { command: '', sources: {}, notes: [] } });
    const shipped = shippedPredictions(
      model,
      population,
      incomeScale,
      rpp2023,
      stateCodes,
      SPENDING,
      relatives,
      true,
    );
    calibration = combine(calibration, calibrate(population, u, shipped, SPENDING, levelled));
    artifact = build(calibration);
  }
  const means = new TableSpendingModel({ ...artifact, build: { command: '', sources: {}, notes: [] } });
  const view = { model: means, incomeScale, rpp: rpp2023, stateCodes };
  return {
    artifact: {
      ...artifact,
      distribution: roundDistribution(spendingDistribution(view, yearSample(households))),
      build: {
        command: options.command,
        sources: source.list(),
        notes: buildNotes(fitted, { stateEffects, metroSizeEffects, ruralEffects }, incomeScale),
      },
    },
    targets,
  };
}

/** The artifact's build notes: what was fitted, the price and state estimates, the income axis. */
function buildNotes(
  fitted: FittedModel,
  effects: {
    readonly stateEffects: readonly CategoryStateEffects[];
    readonly metroSizeEffects: readonly CategoryMetroSizeEffects[];
    readonly ruralEffects: RuralEffects;
  },
  incomeScale: number,
): string[] {
  const { stateEffects, metroSizeEffects, ruralEffects } = effects;
  return [
    `Fitted on CE Interview ${SURVEY_YEAR} microdata (FMLI/MTBI), calibrated to ${TARGET_YEAR} published means, in ${PRICE_YEAR} dollars (CPI-U category relatives).`,
    `Price elasticities (pooled per RPP component, state variation within Census regions, robust SE): ${[
      ...fitted.elasticity,
    ]
      .map(
        ([component, e]) =>
          `${component} ${e.estimate.toFixed(3)} (SE ${e.se.toFixed(3)}; used ${e.value.toFixed(3)})`,
      )
      .join(
        ', ',
      )}; total spending at fixed take-home to the price level ${fitted.totalElasticity.estimate.toFixed(3)} (SE ${fitted.totalElasticity.se.toFixed(3)}; used ${fitted.totalElasticity.value.toFixed(3)}), the component elasticities re-normalised to it.`,
    `State effects (observed / fitted spending per state, shrunk toward the Census region by DerSimonian–Laird; states CE suppresses keep the region level): between-state SD ${stateEffects
      .map((e) => `${e.category} ${e.tau.toFixed(3)}`)
      .join(', ')}.`,
    `Metro-size effects (urban households, observed / fitted per CE POPSIZE class 1…5 and category, shrunk toward 1; transport against its expected direction held at 1): shipped factors other than 1 ${metroSizeEffects
      .filter((e) => e.classes.some((k) => k.factor !== 1))
      .map((e) => `${e.category} ${e.classes.map((k) => k.factor.toFixed(3)).join('/')}`)
      .join(', ')}.`,
    `Rural effects (rural / urban spending at fixed take-home, age, size, tenure, region and state prices; ln ratio shrunk toward 0 by the between-category SD ${ruralEffects.tau.toFixed(3)}, held within its 95 % interval): total ${ruralEffects.total.raw.toFixed(3)} (95 % ${ruralEffects.total.low.toFixed(3)}–${ruralEffects.total.high.toFixed(3)}); shipped factors ${ruralEffects.categories
      .map((e) => `${e.category} ${e.factor.toFixed(3)}`)
      .join(', ')}.`,
    `Income axis: take-home (after-tax income minus pensions and Social Security) in ${PRICE_YEAR} dollars; ${SURVEY_YEAR} incomes × ${round(incomeScale)} (all-CU income after taxes ${TARGET_YEAR}/${SURVEY_YEAR} × CPI-U ${PRICE_YEAR}/${TARGET_YEAR}).`,
  ];
}

/**
 * The fitted means with each rural household's fitted rural contrast replaced by the shipped one (factor /
 * raw ratio), so the calibration starts from the rural factors the artifact carries.
 */
function withRuralFactors(
  base: readonly Float64Array[],
  households: readonly Household[],
  rural: RuralEffects,
): Float64Array[] {
  return base.map((means, c) => {
    const { factor, raw } = rural.categories[c]!;
    return means.map((m, i) => (households[i]!.urban ? m : (m * factor) / raw));
  });
}

/**
 * Moves 2014 take-home incomes to the price year: all-CU mean income after taxes 2023/2014 (published age
 * tables) × CPI-U all items PRICE_YEAR/2023. This "ages" the 2014 population's incomes to 2023 levels.
 */
export function incomeScaleToPriceYear(source: SourceReader, ceDir: string, cpiDir: string): number {
  const cpi = allItemsCpi(source, cpiDir);
  return (
    (allCuIncomeAfterTaxes(source, ceDir, TARGET_YEAR) / allCuIncomeAfterTaxes(source, ceDir, SURVEY_YEAR)) *
    (cpi[String(PRICE_YEAR)]! / cpi[String(TARGET_YEAR)]!)
  );
}

export type LogStatePrice = (h: Household, component: PriceComponent) => number;

/** ln(state RPP 2014 / 100) of a household; a suppressed state gets its region's weighted mean. */
export function statePriceLookup(
  source: SourceReader,
  geoDir: string,
  households: readonly Household[],
): LogStatePrice {
  const rpp2014 = readStateRpp(source, geoDir, SURVEY_YEAR);
  const regionMeans = regionMeanLogRpp(households, rpp2014);
  return (h, component) => {
    const state = rpp2014.get(h.stateFips);
    return state ? Math.log(state[component] / 100) : (regionMeans.get(`${h.region}:${component}`) ?? 0);
  };
}

/** Households with a suppressed state get their region's weighted mean log RPP (region dummies absorb the rest). */
function regionMeanLogRpp(
  households: readonly Household[],
  rpp: Map<string, Record<PriceComponent, number>>,
): Map<string, number> {
  const sums = new Map<string, [number, number]>();
  for (const h of households) {
    const state = rpp.get(h.stateFips);
    if (!state || h.weight === 0) continue;
    for (const component of Object.keys(state) as PriceComponent[]) {
      const key = `${h.region}:${component}`;
      const s = sums.get(key) ?? [0, 0];
      s[0] += h.weight * Math.log(state[component] / 100);
      s[1] += h.weight;
      sums.set(key, s);
    }
  }
  return new Map([...sums].map(([k, [a, b]]) => [k, a / b]));
}

/**
 * Each household's fitted mean of one category (2014 dollars, its state's 2014 price parities); `inputs`
 * are the households' design inputs, by default those the model was fitted on (then `households` are those).
 */
export function recordMeans(
  fitted: FittedModel,
  households: readonly Household[],
  category: (typeof SPENDING)[number],
  inputs: readonly DesignInput[] = fitted.inputs,
): Float64Array {
  const c = SPENDING.indexOf(category);
  const beta = fitted.beta[c]!;
  const row = new Float64Array(P);
  return Float64Array.from(households, (h, i) => {
    designRow({ ...inputs[i]!, logPrice: fitted.logPriceFactor(h, c) }, fitted.incomeKnots, row, 0);
    let eta = 0;
    for (let j = 0; j < P; j++) eta += beta[j]! * row[j]!;
    return Math.exp(eta);
  });
}

const round = (x: number) => Number(x.toPrecision(12));
const roundAll = (xs: ArrayLike<number>) => Array.from(xs, round);
const roundDistribution = (d: SpendingDistribution): SpendingDistribution => ({
  incomeGrid: { uMin: round(d.incomeGrid.uMin), uStep: d.incomeGrid.uStep, points: d.incomeGrid.points },
  ratio: roundAll(d.ratio),
  peers: roundAll(d.peers),
});

/**
 * Per category whose take-home curve may fall (at most at MIN_DIP_SLOPE), the quintile knot from which
 * it may: the lowest for those whose published 2023 quintile means fall (tobacco across the range;
 * prescription drugs, residential phone and heating fuels between two quintiles above the lowest; education
 * and medical supplies from the lowest to the second), TAKE_HOME_DIPS' own. The full guard erased the
 * published pattern: it cost prescription drugs 14 % in the third and fourth quintiles, education 9.9 % and
 * medical supplies 8.8 % in the lowest two. The issue's property is on total spending (holdTotalsRising;
 * checked over 100,000 profiles in validation).
 */
function incomeDips(income: CutTargets): Map<SpendingCategory, number> {
  const dips = new Map<SpendingCategory, number>();
  for (const c of SPENDING) {
    const means = INCOME_CUTS.map((cut) => income.get(cut)?.get(c) ?? Number.NaN);
    if (means.some((m, j) => means[j + 1]! < m)) dips.set(c, 0);
  }
  for (const [c, fromKnot] of TAKE_HOME_DIPS) dips.set(c, fromKnot);
  return dips;
}

function tables(
  fitted: FittedModel,
  calibration: Calibration,
  /** Per category: the rural factor (rural-effects.ts), relative to urban. */
  rural: readonly number[],
  households: readonly Household[],
  u14: Float64Array,
  logScale: number,
  relatives: Map<string, number>,
  dips: ReadonlyMap<SpendingCategory, number>,
): Omit<MeanTables, 'build'> {
  const n = SPENDING.length;
  const uMin = Math.log(INCOME_FLOOR);
  const uStep = (Math.log(INCOME_CEILING) - uMin) / (GRID_POINTS - 1);
  const grid = Array.from({ length: GRID_POINTS }, (_, g) => uMin + g * uStep);
  const block = designBlock(fitted.incomeKnots);
  const income = incomeCurves(fitted, calibration, grid, relatives, block);
  const density = incomeDensity(households, u14, grid, uStep);
  guardIncomeCurves(income, grid, uStep, density, calibration.incomeKnots, dips);
  const ages = Array.from({ length: AGE_MAX - AGE_MIN + 1 }, (_, i) => AGE_MIN + i);
  const { age, size } = ageAndSize(fitted, calibration, income, ages, block);
  holdTotalsRising(income, dips, age, ages.length, size);
  const likeThisOne = householdKernel(households, u14, grid);
  const { ageMarginal, sizeMarginal, ageSizeMarginal } = kernelMarginals(
    likeThisOne,
    households,
    age,
    ages.length,
    size,
  );
  const { ownerByIncome, mortgageByIncome } = tenureByIncome(likeThisOne, households);
  const { region, area } = regionAndArea(fitted, calibration, rural, households, likeThisOne.live);
  if (region.length !== n * REGION_SLOTS.length || area.length !== n * AREA_SLOTS.length)
    throw new Error('slots');

  return {
    format: ARTIFACT_FORMAT,
    version: MODEL_VERSION,
    priceYear: PRICE_YEAR,
    spendingCategories: n,
    incomeGrid: { uMin: round(uMin + logScale), uStep: round(uStep), points: GRID_POINTS },
    income: roundAll(income),
    ageMin: AGE_MIN,
    ageMax: AGE_MAX,
    age: roundAll(age),
    sizeMax: SIZE_TABLE_MAX,
    size: roundAll(size),
    // The "households like this one" mixes shift toward older, smaller households at low take-home, which
    // would make totals dip with income there; held non-decreasing per category (guard, docs/model.md).
    ageMarginal: roundAll(perCategoryRunningMax(ageMarginal)),
    sizeMarginal: roundAll(perCategoryRunningMax(sizeMarginal)),
    ageSizeMarginal: roundAll(perCategoryRunningMax(ageSizeMarginal)),
    ownerLogit: roundAll(shiftLogit(fitted.ownerLogit, logScale)),
    mortgageLogit: roundAll(shiftLogit(fitted.mortgageLogit, logScale)),
    // Held non-decreasing in income, like the logits at evaluation (see spending-model.ts).
    ownerByIncome: roundAll(runningMax(ownerByIncome)),
    mortgageByIncome: roundAll(runningMax(mortgageByIncome)),
    composition: roundAll(calibration.composition.flatMap((factors) => [...factors])),
    compositionLogit: roundAll(
      fitCompositionLogits(
        households,
        u14.map((u) => u + logScale),
        [AGE_MIN, AGE_MAX],
        SIZE_TABLE_MAX,
      ),
    ),
    region: roundAll(region),
    area: roundAll(area),
    rppComponent: SPENDING.map(PRICE_COMPONENT_INDEX),
    rppElasticity: SPENDING.map((c) => round(fitted.elasticity.get(PRICE_COMPONENT[c])!.value)),
    priceBudget: {
      totalElasticity: round(fitted.budget.totalElasticity),
      share: roundAll(fitted.budget.share),
    },
  };
}

/** The design's reference household: the tables carry each factor relative to it. */
const REFERENCE_HOUSEHOLD: DesignInput = {
  u: 0,
  age: 50,
  size: 1,
  tenure: 0,
  urban: false,
  region: 1,
  logPrice: 0,
};

/** η of the design columns [from, to) of one input: one block of a category's linear predictor. */
type DesignBlock = (beta: Float64Array, input: DesignInput, from: number, to: number) => number;

function designBlock(incomeKnots: readonly number[]): DesignBlock {
  const row = new Float64Array(P);
  return (beta, input, from, to) => {
    designRow(input, incomeKnots, row, 0);
    let eta = 0;
    for (let j = from; j < to; j++) eta += beta[j]! * row[j]!;
    return eta;
  };
}

/** Calibrated spending by take-home, [tenure][category][grid point], before the guards. */
function incomeCurves(
  fitted: FittedModel,
  calibration: Calibration,
  grid: readonly number[],
  relatives: Map<string, number>,
  block: DesignBlock,
): number[] {
  const income: number[] = [];
  for (let tenure = 0; tenure < 3; tenure++) {
    for (let c = 0; c < SPENDING.length; c++) {
      const beta = fitted.beta[c]!;
      const tenureFactor = calibration.tenure[c]![tenure === 0 ? 0 : 1]!;
      const price = relatives.get(SPENDING[c]!)!;
      for (const u of grid) {
        const eta =
          beta[COLUMNS.intercept]! +
          block(beta, { ...REFERENCE_HOUSEHOLD, u, tenure }, COLUMNS.income, COLUMNS.age) +
          block(beta, { ...REFERENCE_HOUSEHOLD, u, tenure }, COLUMNS.mortgage, COLUMNS.urban);
        income.push(
          Math.exp(eta) *
            smoothFactor(calibration.incomeKnots, calibration.incomeLog[c]!, u) *
            tenureFactor *
            price,
        );
      }
    }
  }
  return income;
}

/** Weighted household density at each grid point (Gaussian kernel one grid step wide). */
function incomeDensity(
  households: readonly Household[],
  u14: Float64Array,
  grid: readonly number[],
  uStep: number,
): number[] {
  return grid.map((g) =>
    households.reduce(
      (s, h, i) =>
        h.weight > 0 && h.region > 0 ? s + h.weight * Math.exp(-0.5 * ((u14[i]! - g) / uStep) ** 2) : s,
      0,
    ),
  );
}

/**
 * Guard: take-home spending curves must not fall with income (issue 3 property). Where the fitted curve
 * dips (very low take-home, where CE records are dominated by dissaving retirees and students),
 * pool-adjacent-violators in log space weighted by where households are, then a minimum slope so totals
 * rise strictly. A category that may dip (incomeDips) is guarded only up to its dip's first knot (the
 * lowest quintile's, where no published cut shapes the curve, unless named in TAKE_HOME_DIPS); above it the
 * calibrated curve carries the dip, with a bounded rate of decline.
 */
function guardIncomeCurves(
  income: number[],
  grid: readonly number[],
  uStep: number,
  density: readonly number[],
  incomeKnots: readonly number[],
  dips: ReadonlyMap<SpendingCategory, number>,
): void {
  for (let start = 0; start < income.length; start += GRID_POINTS) {
    const fromKnot = dips.get(SPENDING[(start / GRID_POINTS) % SPENDING.length]!);
    const points =
      fromKnot === undefined ? GRID_POINTS : grid.filter((g) => g <= incomeKnots[fromKnot]!).length;
    const logs = [
      ...monotoneLog(income.slice(start, start + points), density, MIN_INCOME_SLOPE * uStep),
      ...income.slice(start + points, start + GRID_POINTS),
    ].map(Math.log);
    for (let g = points; g < GRID_POINTS; g++)
      logs[g] = Math.max(logs[g]!, logs[g - 1]! + MIN_DIP_SLOPE * uStep);
    income.splice(start, GRID_POINTS, ...logs.map(Math.exp));
  }
}

/**
 * The age factors, [category][age] (calibrated, steep steps spread, smoothed across the knots), and the
 * size factors, [category][members − 1], with totals held rising in size at those ages.
 */
function ageAndSize(
  fitted: FittedModel,
  calibration: Calibration,
  income: readonly number[],
  ages: readonly number[],
  block: DesignBlock,
): { age: number[]; size: number[] } {
  const size = sizeTable((c, members) =>
    Math.exp(
      block(fitted.beta[c]!, { ...REFERENCE_HOUSEHOLD, size: members }, COLUMNS.size, COLUMNS.mortgage),
    ),
  );
  const age = smoothAgeCurves(
    spreadSteepAgeSteps(income, ageCurves(fitted, calibration, ages, block), ages.length, size),
    ages.length,
  );
  holdTotalsRisingInSize(size, income, GRID_POINTS, age, ages.length);
  return { age, size };
}

/** Calibrated age factors, [category][age]. */
function ageCurves(
  fitted: FittedModel,
  calibration: Calibration,
  ages: readonly number[],
  block: DesignBlock,
): number[] {
  const ageKnots = AGE_CUTS.map((c) => c[3] as number);
  const ageFactor = (c: number, age: number) =>
    Math.exp(block(fitted.beta[c]!, { ...REFERENCE_HOUSEHOLD, age }, COLUMNS.age, COLUMNS.size)) *
    smoothFactor(ageKnots, calibration.ageLog[c]!, age);
  return SPENDING.flatMap((_, c) => ages.map((a) => ageFactor(c, a)));
}

/**
 * "Households like this one": Gaussian kernel weights in ln income over the weighted 2014 households, per
 * grid point; `live` lists the households (indexes) the weights refer to.
 */
interface HouseholdKernel {
  readonly live: readonly number[];
  readonly kernel: readonly (readonly number[])[];
}

function householdKernel(
  households: readonly Household[],
  u14: Float64Array,
  grid: readonly number[],
): HouseholdKernel {
  const live = households.flatMap((h, i) => (h.weight > 0 && h.region > 0 ? [i] : []));
  const kernel = grid.map((g) =>
    live.map((i) => households[i]!.weight * Math.exp(-0.5 * ((u14[i]! - g) / KERNEL_BANDWIDTH) ** 2)),
  );
  return { live, kernel };
}

/** Kernel mean at grid point g of value(j), j indexing `live`. */
function kernelMean({ kernel }: HouseholdKernel, g: number, value: (j: number) => number): number {
  let s = 0;
  let t = 0;
  kernel[g]!.forEach((k, j) => {
    s += k * value(j);
    t += k;
  });
  return s / t;
}

/** Mean age, size and age × size factors of the households like this one, [category][grid point]. */
function kernelMarginals(
  likeThisOne: HouseholdKernel,
  households: readonly Household[],
  age: readonly number[],
  ages: number,
  size: readonly number[],
): { ageMarginal: number[]; sizeMarginal: number[]; ageSizeMarginal: number[] } {
  const { live, kernel } = likeThisOne;
  const clampAge = (a: number) => Math.min(Math.max(a, AGE_MIN), AGE_MAX);
  const clampSize = (s: number) => Math.min(Math.max(s, 1), SIZE_TABLE_MAX);
  const ageMarginal: number[] = [];
  const sizeMarginal: number[] = [];
  const ageSizeMarginal: number[] = [];
  for (let c = 0; c < SPENDING.length; c++) {
    const ageAt = Float64Array.from(live, (i) => age[c * ages + clampAge(households[i]!.age) - AGE_MIN]!);
    const sizeAt = Float64Array.from(
      live,
      (i) => size[c * SIZE_TABLE_MAX + clampSize(households[i]!.members) - 1]!,
    );
    const bothAt = ageAt.map((a, j) => a * sizeAt[j]!);
    kernel.forEach((_, g) => {
      ageMarginal.push(kernelMean(likeThisOne, g, (j) => ageAt[j]!));
      sizeMarginal.push(kernelMean(likeThisOne, g, (j) => sizeAt[j]!));
      ageSizeMarginal.push(kernelMean(likeThisOne, g, (j) => bothAt[j]!));
    });
  }
  return { ageMarginal, sizeMarginal, ageSizeMarginal };
}

/** Share of homeowners, and of owners with a mortgage, among the households like this one, per grid point. */
function tenureByIncome(
  likeThisOne: HouseholdKernel,
  households: readonly Household[],
): { ownerByIncome: number[]; mortgageByIncome: number[] } {
  const { live, kernel } = likeThisOne;
  const ownerByIncome = kernel.map((_, g) =>
    kernelMean(likeThisOne, g, (j) => (households[live[j]!]!.isHomeowner ? 1 : 0)),
  );
  const mortgageByIncome = kernel.map((_, g) => {
    let s = 0;
    let t = 0;
    kernel[g]!.forEach((k, j) => {
      const h = households[live[j]!]!;
      if (!h.isHomeowner) return;
      s += k * (h.cutenure === 2 ? 0 : 1);
      t += k;
    });
    return s / t;
  });
  return { ownerByIncome, mortgageByIncome };
}

/**
 * Region and area factors per category, each followed by its population-weighted mean (the unknown slot).
 * Urban is the fit's urban term; rural is urban times the shrunk rural factor (the area table is not raked).
 */
function regionAndArea(
  fitted: FittedModel,
  calibration: Calibration,
  rural: readonly number[],
  households: readonly Household[],
  live: readonly number[],
): { region: number[]; area: number[] } {
  const populationShare = (key: (h: Household) => number, slots: number) => {
    const shares = new Float64Array(slots);
    for (const i of live) shares[key(households[i]!)]! += households[i]!.weight;
    const total = shares.reduce((a, b) => a + b, 0);
    return shares.map((s) => s / total);
  };
  const regionShare = populationShare((h) => h.region - 1, 4);
  const areaShare = populationShare((h) => (h.urban ? 1 : 0), 2);
  const region = SPENDING.flatMap((_, c) => {
    const beta = fitted.beta[c]!;
    const factors = [0, 1, 2, 3].map(
      (r) => (r === 0 ? 1 : Math.exp(beta[COLUMNS.region + r - 1]!)) * calibration.region[c]![r]!,
    );
    return [...factors, factors.reduce((s, f, r) => s + f * regionShare[r]!, 0)];
  });
  const area = SPENDING.flatMap((_, c) => {
    const urban = Math.exp(fitted.beta[c]![COLUMNS.urban]!);
    const factors = [rural[c]! * urban, urban];
    return [...factors, factors[0]! * areaShare[0]! + factors[1]! * areaShare[1]!];
  });
  return { region, area };
}

/**
 * Share of the other categories' rise that the falling ones may take at each income step, for every age
 * and household size: the rest is left for the region, urbanity and price factors the tables do not carry.
 */
const DIP_SHARE_OF_RISE = 0.5;

/**
 * Second guard, on totals: where categories fall with income (incomeDips), their fall at each grid step is
 * scaled back until it takes at most DIP_SHARE_OF_RISE of what the other categories add, for every tenure,
 * age and household size. Bounding each category's elasticity alone did not hold the total: education is a
 * quarter of an 18-year-old student renter's spending at ~$17k take-home, where the other curves leave the
 * pooled low-income stretch almost flat; at −1 those totals fell by up to 0.3 % per 5 % more income, and
 * even at −0.5 (which left education 3.1 % off by income) by up to 0.02 % per 1 %.
 * `income` is [tenure][category][grid point], `age` [category][age], `size` [category][members − 1].
 */
function holdTotalsRising(
  income: number[],
  dips: ReadonlyMap<SpendingCategory, number>,
  age: readonly number[],
  ages: number,
  size: readonly number[],
): void {
  const n = SPENDING.length;
  const falling = SPENDING.map((c) => dips.has(c));
  const weights = Array.from({ length: ages * SIZE_TABLE_MAX }, (_, k) =>
    SPENDING.map(
      (_, c) =>
        age[c * ages + Math.floor(k / SIZE_TABLE_MAX)]! * size[c * SIZE_TABLE_MAX + (k % SIZE_TABLE_MAX)]!,
    ),
  );
  for (let tenure = 0; tenure < 3; tenure++) {
    const at = (c: number, g: number) => (tenure * n + c) * GRID_POINTS + g;
    for (let g = 1; g < GRID_POINTS; g++) {
      const scale = allowedFallScale(income, weights, falling, at, g);
      if (scale === 1) continue;
      for (let c = 0; c < n; c++) {
        const before = income[at(c, g - 1)]!;
        if (falling[c] && income[at(c, g)]! < before)
          income[at(c, g)] = before - scale * (before - income[at(c, g)]!);
      }
    }
  }
}

/**
 * The largest scale (≤ 1) of the falling categories' fall from grid point g − 1 to g that keeps it within
 * DIP_SHARE_OF_RISE of the others' rise, for every age and size weighting.
 */
function allowedFallScale(
  income: readonly number[],
  weights: readonly number[][],
  falling: readonly boolean[],
  at: (c: number, g: number) => number,
  g: number,
): number {
  let scale = 1;
  for (const w of weights) {
    let rise = 0;
    let fall = 0;
    for (let c = 0; c < falling.length; c++) {
      const step = (income[at(c, g)]! - income[at(c, g - 1)]!) * w[c]!;
      if (falling[c] && step < 0) fall -= step;
      else rise += step;
    }
    if (fall > 0) scale = Math.min(scale, Math.max(0, (DIP_SHARE_OF_RISE * rise) / fall));
  }
  return scale;
}

/**
 * Largest change of the tables' total spending (income × age × size, per tenure, over the whole take-home
 * grid up to its ceiling) from one year of age to the next: the issue's 6 %. The region, area,
 * household-type and price factors the tables do not carry are checked on the shipped predictions (table 4;
 * a sweep of ages 18–89 × take-home $5k–$500k × regions × area × types × sizes × tenure found no step
 * ≥ 6 %): the largest table steps are at the grid's ceiling ($636k), above the profiles' range.
 */
const MAX_AGE_STEP = 0.06;

/**
 * Third guard, on the age axis: where one year of age would move a total (any tenure, take-home grid point
 * and household size) by more than MAX_AGE_STEP, the ln-steps of the categories moving that way are scaled
 * back by one common factor until none does, and what is held back is carried into the following years
 * (spread, not dropped), so the curve rejoins the calibrated one once the slope eases (at 28). The
 * calibration's age knots sit at the band centres 22 and 30 with the filled under-25 education cell
 * ($2,955 vs $900 at 25–34) between them: education fell 19 % a year there, other lodging and vehicle
 * purchases with it, and the totals of rich young Northeast couples fell 6.3 % from 22 to 23. The raking
 * rounds that follow see the spread curve.
 * `income` is [tenure][category][grid point], `age` [category][age], `size` [category][members − 1].
 */
function spreadSteepAgeSteps(
  income: readonly number[],
  age: readonly number[],
  ages: number,
  size: readonly number[],
): number[] {
  const n = SPENDING.length;
  const ln = Array.from({ length: n }, (_, c) => age.slice(c * ages, (c + 1) * ages).map(Math.log));
  const out = ln.map((l) => [l[0]!]);
  const carried = new Float64Array(n);
  const year: AgeYear = {
    income,
    size,
    step: new Float64Array(n),
    previous: new Float64Array(n),
    scaled: new Uint8Array(n),
  };
  const { step, scaled } = year;
  for (let a = 1; a < ages; a++) {
    for (let c = 0; c < n; c++) {
      step[c] = ln[c]![a]! - ln[c]![a - 1]! + carried[c]!;
      year.previous[c] = Math.exp(out[c]![a - 1]!);
      scaled[c] = 1;
    }
    const scale = ageStepScale(year);
    for (let c = 0; c < n; c++) {
      const kept = scaled[c] ? scale : 1;
      out[c]!.push(out[c]![a - 1]! + kept * step[c]!);
      carried[c] = (1 - kept) * step[c]!;
    }
  }
  return out.flatMap((l) => l.map(Math.exp));
}

/** One year-of-age step of spreadSteepAgeSteps: per category its ln-step, level before, and whether it is scaled. */
interface AgeYear {
  readonly income: readonly number[];
  readonly size: readonly number[];
  readonly step: Float64Array;
  readonly previous: Float64Array;
  readonly scaled: Uint8Array;
}

/**
 * The common scale of the ln-steps moving the worst total's way that keeps every total within MAX_AGE_STEP
 * (1 when none exceeds it; found by bisection). Marks in `scaled` the categories it applies to.
 */
function ageStepScale(year: AgeYear): number {
  const limit = Math.log1p(MAX_AGE_STEP);
  const move = worstTotalMove(year, 1);
  if (!(Math.abs(move) > limit)) return 1;
  for (let c = 0; c < year.step.length; c++)
    year.scaled[c] = Math.sign(year.step[c]!) === Math.sign(move) ? 1 : 0;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (Math.abs(worstTotalMove(year, mid)) > limit) hi = mid;
    else lo = mid;
  }
  return lo;
}

/** Largest ln(total after / total before) in absolute value, with its sign, at ln-steps scaled by `scale`. */
function worstTotalMove({ income, size, step, previous, scaled }: AgeYear, scale: number): number {
  const n = step.length;
  let max = 0;
  for (let k = 0; k < 3 * GRID_POINTS * SIZE_TABLE_MAX; k++) {
    const tenure = Math.floor(k / (GRID_POINTS * SIZE_TABLE_MAX));
    const g = Math.floor(k / SIZE_TABLE_MAX) % GRID_POINTS;
    const s = k % SIZE_TABLE_MAX;
    let before = 0;
    let after = 0;
    for (let c = 0; c < n; c++) {
      const w = income[(tenure * n + c) * GRID_POINTS + g]! * size[c * SIZE_TABLE_MAX + s]! * previous[c]!;
      before += w;
      after += w * Math.exp((scaled[c] ? scale : 1) * step[c]!);
    }
    const move = Math.log(after / before);
    if (Math.abs(move) > Math.abs(max)) max = move;
  }
  return max;
}

/**
 * Weighted isotonic (non-decreasing) regression of ln(values) by pool-adjacent-violators, then each point
 * at least `minStep` (in ln) above the previous one.
 */
export function monotoneLog(
  values: readonly number[],
  weights: readonly number[],
  minStep: number,
): number[] {
  const blocks: { mean: number; weight: number; count: number }[] = [];
  values.forEach((v, g) => {
    const weight = Math.max(weights[g]!, 1e-9);
    blocks.push({ mean: Math.log(Math.max(v, 1e-9)), weight, count: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.mean > blocks[blocks.length - 1]!.mean) {
      const b = blocks.pop()!;
      const a = blocks[blocks.length - 1]!;
      a.mean = (a.mean * a.weight + b.mean * b.weight) / (a.weight + b.weight);
      a.weight += b.weight;
      a.count += b.count;
    }
  });
  const logs = blocks.flatMap((b) => Array.from({ length: b.count }, () => b.mean));
  for (let g = 1; g < logs.length; g++) logs[g] = Math.max(logs[g]!, logs[g - 1]! + minStep);
  return logs.map(Math.exp);
}

/** runningMax over each category's row of GRID_POINTS income points. */
function perCategoryRunningMax(values: readonly number[]): number[] {
  const out: number[] = [];
  for (let start = 0; start < values.length; start += GRID_POINTS) {
    out.push(...runningMax(values.slice(start, start + GRID_POINTS)));
  }
  return out;
}

/** Re-expresses logit terms [1,u,u²,a,a²,a·u] fitted on u = v − L in terms of v (price-year income). */
function shiftLogit(b: Float64Array, l: number): number[] {
  return [b[0]! - b[1]! * l + b[2]! * l * l, b[1]! - 2 * b[2]! * l, b[2]!, b[3]! - b[5]! * l, b[4]!, b[5]!];
}
