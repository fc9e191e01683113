/**
 * Evaluates the spending model for one profile from the artifact's precomputed tables. Per call: a log, a
 * few logistic terms and, per category, an income interpolation per tenure class, the demographic factor
 * (two interpolations, tabled once for every whole age and size), the household-type mixture
 * (composition.ts), the needs lift (needs.ts) and the place's price factors (price.ts), which are computed
 * once per distinct place. docs/fast-paths.md says what the tables save. Nothing is allocated per call once
 * a place has been seen.
 */
import { CATEGORY_COUNT, OTHER_DEBT_INDEX, SAVINGS_INDEX } from '../contract/categories.js';
import { METRO_SIZE_CLASSES } from '../geo/metro-size.js';
import type { Geography } from '../geo/types.js';
import {
  AREA_SLOTS,
  type ModelArtifact,
  REGION_SLOTS,
  RPP_COMPONENTS,
  type SpendingDistribution,
  TENURE_CLASSES,
} from './artifact.js';
import { type CompositionTables, CompositionWeigher } from './composition.js';
import { writeRanges } from './distribution.js';
import { type NeedsLifter, needsLifter } from './needs.js';
import { type PriceBudget, writeLogPriceFactors } from './price.js';
import type { BoundPrediction, Profile, SpendingModel } from './types.js';

const REGION_SLOT: Readonly<Record<string, number>> = { northeast: 0, midwest: 1, south: 2, west: 3 };
const UNKNOWN_REGION = REGION_SLOTS.length - 1;
const UNKNOWN_AREA = AREA_SLOTS.length - 1;
const URBAN_AREA = AREA_SLOTS.indexOf('urban');
/** Take-home below $1 has no meaningful logarithm; the income grid starts far above it anyway. */
const MIN_INCOME = 1;

export class TableSpendingModel implements SpendingModel {
  readonly version: string;
  readonly priceYear: number;
  private readonly tables: PredictionTables;
  private readonly distribution: SpendingDistribution | undefined;
  /** `predict`'s own evaluation state, made on its first call. */
  private prediction: Prediction | undefined;

  /** Without a distribution section (the build, before it fits one), `ranges` refuses. */
  constructor(artifact: MeanTables & { readonly distribution?: SpendingDistribution | undefined }) {
    this.version = artifact.version;
    this.priceYear = artifact.priceYear;
    this.tables = predictionTables(artifact);
    this.distribution = artifact.distribution;
  }

  ranges(profile: Profile, means: ArrayLike<number>, out: Float64Array): number {
    if (this.distribution === undefined)
      throw new Error(`model ${this.version} was built without its distribution section: no ranges`);
    return writeRanges(this.distribution, this.tables.n, profile, means, out);
  }

  predictInto(out: Float64Array, excluded: Uint8Array): BoundPrediction {
    const prediction = new Prediction(this.tables);
    return (profile, geo) => prediction.predict(profile, geo, out, excluded);
  }

  predict(profile: Profile, geo: Geography, out: Float64Array, excluded: Uint8Array = NONE_EXCLUDED): number {
    this.prediction ??= new Prediction(this.tables);
    return this.prediction.predict(profile, geo, out, excluded);
  }
}

/** The artifact's tables in the layout the prediction reads. */
interface PredictionTables {
  readonly n: number;
  readonly uMin: number;
  readonly uStep: number;
  readonly points: number;
  /** ln take-home at the grid's last point. */
  readonly uTop: number;
  readonly ageMin: number;
  readonly ageMax: number;
  readonly sizeMax: number;
  readonly ownerLogit: Float64Array;
  readonly mortgageLogit: Float64Array;
  readonly ownerByIncome: Float64Array;
  readonly mortgageByIncome: Float64Array;
  /** The income tables as interpolation segments, [grid interval][tenure class][category] (see `segments`). */
  readonly incomeSegments: Float64Array;
  /**
   * The demographic factor tables as segments, [interval][category]: age, size, the three income
   * marginals, and one interval of ones (a factor of exactly 1, for when age and size are both unknown
   * and the age × size marginal is the whole factor); the `…Rows` fields are where each table starts.
   */
  readonly factorSegments: Float64Array;
  readonly ageRows: number;
  readonly sizeRows: number;
  readonly ageMarginalRows: number;
  readonly sizeMarginalRows: number;
  readonly ageSizeMarginalRows: number;
  readonly onesRow: number;
  readonly region: Float64Array;
  readonly area: Float64Array;
  readonly rppComponent: Int32Array;
  readonly rppElasticity: Float64Array;
  readonly priceBudget: PriceBudget | undefined;
  /** USPS state → [category] factor (ModelArtifact.stateFactor). */
  readonly stateFactor: ReadonlyMap<string, Float64Array>;
  /** [category][metro-size class − 1] (ModelArtifact.metroSizeFactor), undefined when the artifact has none. */
  readonly metroSizeFactor: Float64Array | undefined;
  readonly composition: CompositionTables;
  /** The artifact's size table, [category][size − 1] (for the needs lift, needs.ts). */
  readonly size: Float64Array;
}

/** The artifact's tables of means: everything but the distribution section. */
export type MeanTables = Omit<ModelArtifact, 'distribution'>;

function predictionTables(artifact: MeanTables): PredictionTables {
  const n = artifact.spendingCategories;
  const points = artifact.incomeGrid.points;
  const ages = artifact.ageMax - artifact.ageMin + 1;
  const factors = segments([
    { values: artifact.age, rows: n, length: ages },
    { values: artifact.size, rows: n, length: artifact.sizeMax },
    { values: artifact.ageMarginal, rows: n, length: points },
    { values: artifact.sizeMarginal, rows: n, length: points },
    { values: artifact.ageSizeMarginal, rows: n, length: points },
    { values: new Array<number>(2 * n).fill(1), rows: n, length: 2 },
  ]);
  const [ageRows, sizeRows, ageMarginalRows, sizeMarginalRows, ageSizeMarginalRows, onesRow] =
    factors.firstIntervals as [number, number, number, number, number, number];
  return {
    n,
    uMin: artifact.incomeGrid.uMin,
    uStep: artifact.incomeGrid.uStep,
    points,
    uTop: artifact.incomeGrid.uMin + (points - 1) * artifact.incomeGrid.uStep,
    ageMin: artifact.ageMin,
    ageMax: artifact.ageMax,
    sizeMax: artifact.sizeMax,
    ownerLogit: Float64Array.from(artifact.ownerLogit),
    mortgageLogit: Float64Array.from(artifact.mortgageLogit),
    ownerByIncome: Float64Array.from(artifact.ownerByIncome),
    mortgageByIncome: Float64Array.from(artifact.mortgageByIncome),
    // [tenure class][category][point] is 3n rows of grid points.
    incomeSegments: segments([{ values: artifact.income, rows: TENURE_CLASSES.length * n, length: points }])
      .values,
    factorSegments: factors.values,
    ageRows,
    sizeRows,
    ageMarginalRows,
    sizeMarginalRows,
    ageSizeMarginalRows,
    onesRow,
    region: Float64Array.from(artifact.region),
    area: Float64Array.from(artifact.area),
    rppComponent: Int32Array.from(artifact.rppComponent),
    rppElasticity: Float64Array.from(artifact.rppElasticity),
    priceBudget:
      artifact.priceBudget === undefined
        ? undefined
        : {
            totalElasticity: artifact.priceBudget.totalElasticity,
            share: Float64Array.from(artifact.priceBudget.share),
          },
    stateFactor: new Map(
      Object.entries(artifact.stateFactor ?? {}).map(([state, factors]) => [
        state,
        Float64Array.from(factors),
      ]),
    ),
    metroSizeFactor:
      artifact.metroSizeFactor === undefined ? undefined : Float64Array.from(artifact.metroSizeFactor),
    size: Float64Array.from(artifact.size),
    composition: {
      composition: artifact.composition,
      compositionLogit: artifact.compositionLogit,
      ageMin: artifact.ageMin,
      ageMax: artifact.ageMax,
      sizeMax: artifact.sizeMax,
      incomeGrid: artifact.incomeGrid,
    },
  };
}

/** Where a take-home falls on the income grid: ln take-home, the grid interval and the fraction within it. */
interface GridPosition {
  u: number;
  interval: number;
  fraction: number;
}

/** A profile's tenure mix: the weights of the renter, with-mortgage and outright-owner spending tables. */
interface TenureMix {
  renter: number;
  mortgage: number;
  outright: number;
}

/**
 * One evaluation of the model at a time, with the buffers it reuses so that a call allocates nothing: the
 * composition weigher and needs lift (which keep per-profile state), the demographic factors and the
 * price factors of the places seen.
 */
class Prediction {
  private readonly weigher: CompositionWeigher;
  private readonly needs: NeedsLifter;
  private readonly places: PlaceFactors;
  private readonly demographic: DemographicFactors;
  private readonly grid: GridPosition = { u: 0, interval: 0, fraction: 0 };
  private readonly tenure: TenureMix = { renter: 0, mortgage: 0, outright: 0 };

  constructor(private readonly tables: PredictionTables) {
    this.weigher = new CompositionWeigher(tables.composition);
    this.needs = needsLifter(this.weigher, tables.size, tables.sizeMax, tables.n);
    this.places = new PlaceFactors(tables);
    this.demographic = new DemographicFactors(tables);
  }

  /** See SpendingModel.predict. */
  predict(profile: Profile, geo: Geography, out: Float64Array, excluded: Uint8Array): number {
    const { tables, grid } = this;
    locateOnGrid(tables, profile.net_annual_income, grid);
    mixTenure(tables, profile, grid, this.tenure);
    const demographic = this.demographic.of(profile, grid);
    this.needs.weighAndLift(profile, grid.u);
    const included = this.writeCategories(demographic, this.places.of(geo), out, excluded);
    writeRest(tables.n, profile.net_annual_income, out);
    return included;
  }

  /**
   * Each category's spending into `out`; returns the sum over the categories not excluded. Per category:
   * the renter, with-mortgage and outright-owner interpolations by income weighted by the tenure mix, times
   * the demographic factor, the needs lift, the household-type mixture and the place's price factor.
   */
  private writeCategories(
    demographic: Float64Array,
    placeFactors: Float64Array,
    out: Float64Array,
    excluded: Uint8Array,
  ): number {
    const { n, incomeSegments } = this.tables;
    const { interval, fraction } = this.grid;
    const { renter, mortgage, outright } = this.tenure;
    const { factors: typeFactors, weights } = this.weigher;
    const lift = this.needs.lift;
    // Household types in HOUSEHOLD_TYPES order: married couple, one parent, single or other.
    const married = weights[0]!;
    const oneParent = weights[1]!;
    const single = weights[2]!;
    // [interval][tenure class][category][lo, hi − lo], tenure classes in TENURE_CLASSES order.
    const renterAt = interval * TENURE_CLASSES.length * n * 2;
    const mortgageAt = renterAt + 2 * n;
    const outrightAt = mortgageAt + 2 * n;
    let included = 0;
    for (let c = 0; c < n; c++) {
      // A tenure class of weight 0 (a stated tenure) is left out: with the non-negative tables it would add
      // exactly +0, and the branches go the same way for every category of a call.
      let byIncome = 0;
      if (renter !== 0) byIncome = renter * interpolated(incomeSegments, renterAt + 2 * c, fraction);
      if (mortgage !== 0) byIncome += mortgage * interpolated(incomeSegments, mortgageAt + 2 * c, fraction);
      if (outright !== 0) byIncome += outright * interpolated(incomeSegments, outrightAt + 2 * c, fraction);
      const mixture =
        married * typeFactors[3 * c]! +
        oneParent * typeFactors[3 * c + 1]! +
        single * typeFactors[3 * c + 2]!;
      const value = byIncome * (demographic[c]! * lift[c]! * mixture) * placeFactors[c]!;
      out[c] = value;
      // Adding +0 for an excluded category gives the same double as skipping it: a sum from +0 is never −0.
      included += excluded[c] === 1 ? 0 : value;
    }
    return included;
  }
}

/** A segment's value at `fraction` of its interval: lo + fraction × (hi − lo). */
function interpolated(segments: Float64Array, at: number, fraction: number): number {
  return segments[at]! + fraction * segments[at + 1]!;
}

/** Places a take-home on the income grid; above the grid's top, in its last interval at fraction 1. */
function locateOnGrid(tables: PredictionTables, takeHome: number, grid: GridPosition): void {
  const u = Math.log(Math.max(takeHome, MIN_INCOME));
  const t = Math.min(Math.max((u - tables.uMin) / tables.uStep, 0), tables.points - 1);
  grid.u = u;
  grid.interval = Math.min(Math.floor(t), tables.points - 2);
  grid.fraction = t - grid.interval;
}

/**
 * The tenure mix: the owner share as stated, else from age and income, else from income alone; the
 * mortgage share among owners likewise. Above the grid the tenure logits hold their last point, as the
 * income tables do: a mortgage share still rising there moved owners toward the tenure that spends less at
 * the top, and totals fell.
 */
function mixTenure(tables: PredictionTables, profile: Profile, grid: GridPosition, mix: TenureMix): void {
  const age = profile.age;
  const ageKnown = age !== undefined && Number.isFinite(age);
  const ageTerm = ageKnown ? (age - 50) / 10 : 0;
  const u = Math.min(grid.u, tables.uTop);
  const { interval, fraction } = grid;
  const stated = profile.is_homeowner;
  let owner: number;
  if (stated !== undefined) owner = stated ? 1 : 0;
  else if (ageKnown) owner = logistic(tables.ownerLogit, u, ageTerm);
  else owner = lerp(tables.ownerByIncome, interval, fraction);
  let mortgage = 0;
  if (owner !== 0) {
    mortgage = ageKnown
      ? logistic(tables.mortgageLogit, u, ageTerm)
      : lerp(tables.mortgageByIncome, interval, fraction);
  }
  mix.renter = 1 - owner;
  mix.mortgage = owner * mortgage;
  mix.outright = owner - mix.mortgage;
}

/**
 * The demographic factors of a profile (`writeDemographicFactors`). Those of every whole age and size
 * within the tables, all the contract allows, are computed once, by the same function, so they are the
 * same doubles: per call, a lookup instead of 36 products of two interpolations, about a tenth of an
 * evaluation's instructions (docs/fast-paths.md).
 */
class DemographicFactors {
  /** [age − ageMin][size − 1], one row of n factors each. */
  private readonly whole: Float64Array[] = [];
  /** The factors of a profile without a whole age and size, written per call. */
  private readonly other: Float64Array;

  constructor(private readonly tables: PredictionTables) {
    const { ageMin, ageMax, sizeMax, n } = tables;
    const noGrid: GridPosition = { u: 0, interval: 0, fraction: 0 };
    // One buffer for all rows, so that they lie side by side in memory.
    const buffer = new Float64Array((ageMax - ageMin + 1) * sizeMax * n);
    for (let age = ageMin; age <= ageMax; age++) {
      for (let size = 1; size <= sizeMax; size++) {
        const at = this.whole.length * n;
        const row = buffer.subarray(at, at + n);
        writeDemographicFactors(tables, { net_annual_income: 0, age, household_members: size }, noGrid, row);
        this.whole.push(row);
      }
    }
    this.other = new Float64Array(n);
  }

  of(profile: Profile, grid: GridPosition): Float64Array {
    const { age, household_members: size } = profile;
    const { ageMin, ageMax, sizeMax } = this.tables;
    const isWhole = Number.isInteger(age) && Number.isInteger(size);
    if (isWhole && age! >= ageMin && age! <= ageMax && size! >= 1 && size! <= sizeMax) {
      return this.whole[(age! - ageMin) * sizeMax + size! - 1]!;
    }
    writeDemographicFactors(this.tables, profile, grid, this.other);
    return this.other;
  }
}

/**
 * The demographic factor per category: the product of an age factor and a size factor, each interpolated
 * in its own table, or — for a field not given — in the income marginal that stands in for it (the age ×
 * size marginal and a factor of 1 when neither is given).
 */
function writeDemographicFactors(
  tables: PredictionTables,
  profile: Profile,
  grid: GridPosition,
  into: Float64Array,
): void {
  const { age, household_members: members } = profile;
  const { ageMin, ageMax, sizeMax } = tables;
  const ageKnown = age !== undefined && Number.isFinite(age);
  const sizeKnown = members !== undefined && Number.isFinite(members);
  let firstRow = (sizeKnown ? tables.ageMarginalRows : tables.ageSizeMarginalRows) + grid.interval;
  let firstF = grid.fraction;
  if (ageKnown) {
    const x = Math.min(Math.max(age, ageMin), ageMax);
    const interval = intervalOf(x, ageMin, ageMax);
    firstRow = tables.ageRows + interval;
    firstF = x - ageMin - interval;
  }
  let secondRow = ageKnown ? tables.sizeMarginalRows + grid.interval : tables.onesRow;
  let secondF = ageKnown ? grid.fraction : 0;
  if (sizeKnown) {
    const x = Math.min(Math.max(members, 1), sizeMax);
    const interval = intervalOf(x, 1, sizeMax);
    secondRow = tables.sizeRows + interval;
    secondF = x - 1 - interval;
  }
  writeDemographicPair(tables.factorSegments, tables.n, firstRow, firstF, secondRow, secondF, into);
}

/** The categories the model does not predict: nothing, except savings, which get what is left. */
function writeRest(n: number, takeHome: number, out: Float64Array): void {
  let total = 0;
  for (let c = 0; c < n; c++) total += out[c]!;
  for (let c = n; c < CATEGORY_COUNT; c++) out[c] = 0;
  out[SAVINGS_INDEX] = Math.max(takeHome - total, 0);
  out[OTHER_DEBT_INDEX] = 0;
}

/**
 * The price factors of each place, n per place, computed on first sight: a place's factors take 36 `exp`
 * calls. Kept per Geography object (the resolver shares one frozen object per distinct place) and per
 * distinct inputs (price parities, region, area, rent index, state, metro-size class), up to
 * PLACE_CAPACITY places; beyond that, computed on each call.
 */
class PlaceFactors {
  private readonly byGeography = new WeakMap<Geography, Float64Array>();
  private readonly byInputs = new Map<string, Float64Array>();

  constructor(private readonly tables: PredictionTables) {}

  of(geo: Geography): Float64Array {
    const known = this.byGeography.get(geo);
    if (known !== undefined) return known;
    const slots = placeSlots(this.tables, geo);
    const key = placeKey(this.tables, geo, slots);
    let factors = this.byInputs.get(key);
    if (factors === undefined) {
      factors = placeFactors(this.tables, geo, slots);
      if (this.byInputs.size < PLACE_CAPACITY) this.byInputs.set(key, factors);
    }
    // Only an immutable place can be remembered by its object: its factors cannot go stale.
    if (Object.isFrozen(geo) && Object.isFrozen(geo.rpp)) this.byGeography.set(geo, factors);
    return factors;
  }
}

/** A place's slots in the artifact's region, area and metro-size tables. */
interface PlaceSlots {
  readonly region: number;
  readonly area: number;
  /** The metro-size class whose factors apply (estimated within urban households), else 0: none. */
  readonly metroSize: number;
}

function placeSlots(tables: PredictionTables, geo: Geography): PlaceSlots {
  const region = geo.region === null ? UNKNOWN_REGION : (REGION_SLOT[geo.region] ?? UNKNOWN_REGION);
  const area = geo.urban === null ? UNKNOWN_AREA : geo.urban ? URBAN_AREA : 0;
  const size = geo.metroSize;
  const hasSize = tables.metroSizeFactor !== undefined && area === URBAN_AREA && size !== undefined;
  return { region, area, metroSize: hasSize && size !== null ? size : 0 };
}

/** Everything a place's factors depend on, as a key. */
function placeKey(tables: PredictionTables, geo: Geography, slots: PlaceSlots): string {
  const { all, goods, housing, utilities, other } = geo.rpp;
  const state = geo.state !== null && tables.stateFactor.has(geo.state) ? geo.state : '';
  const rpp = `${all}|${goods}|${housing}|${utilities}|${other}`;
  return `${rpp}|${slots.region}|${slots.area}|${geo.rentIndex ?? 1}|${state}|${slots.metroSize}`;
}

/** A place's price factor per category: price level, region, area, state and metro size. */
function placeFactors(tables: PredictionTables, geo: Geography, slots: PlaceSlots): Float64Array {
  const { n, region, area, stateFactor, metroSizeFactor } = tables;
  const rpp = geo.rpp;
  const logRpp = new Float64Array(RPP_COMPONENTS.length);
  logRpp[0] = Math.log(rpp.all / 100);
  logRpp[1] = Math.log(rpp.goods / 100);
  // BEA's parity is the area's average rent level; the ZIP's rent index places it within the area.
  logRpp[2] = Math.log(rpp.housing / 100) + Math.log(geo.rentIndex ?? 1);
  logRpp[3] = Math.log(rpp.utilities / 100);
  logRpp[4] = Math.log(rpp.other / 100);
  const logPrice = new Float64Array(n);
  writeLogPriceFactors(logRpp, tables.rppComponent, tables.rppElasticity, tables.priceBudget, logPrice);
  const state = geo.state === null ? undefined : stateFactor.get(geo.state);
  const factors = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    factors[c] =
      Math.exp(logPrice[c]!) *
      region[c * REGION_SLOTS.length + slots.region]! *
      area[c * AREA_SLOTS.length + slots.area]! *
      (state === undefined ? 1 : state[c]!) *
      (slots.metroSize === 0 ? 1 : metroSizeFactor![c * METRO_SIZE_CLASSES + slots.metroSize - 1]!);
  }
  return factors;
}

/** `predict`'s default: no category excluded from the sum it returns. */
const NONE_EXCLUDED = new Uint8Array(CATEGORY_COUNT);

/**
 * Room for this many places' price factors per bound prediction (a place is n doubles, 288 bytes, so
 * 2.4 MB; the shipped geography has 7,306 distinct places, counted by resolving every ZIP, once ZIP
 * rent indices, state effects and metro-size classes count: the classes add 50, urban ZIPs priced at
 * their state's parities in CBSAs of different sizes; 862 without any of them). The capacity bounds the
 * memory the kept factors take; places beyond it are computed again on each call.
 */
export const PLACE_CAPACITY = 8192;

function lerp(table: Float64Array, k: number, f: number): number {
  const lo = table[k]!;
  return lo + f * (table[k + 1]! - lo);
}

/** The interval of a table over lo…hi (one point per whole value) that x, clamped to lo…hi, lies in. */
function intervalOf(x: number, lo: number, hi: number): number {
  return Math.min(Math.floor(x - lo), hi - lo - 1);
}

/**
 * The product of two interpolated demographic factors per category, into `into`: rows of `factorSegments`
 * ([lo, hi − lo] per category) and the fractions within them.
 */
function writeDemographicPair(
  factorSegments: Float64Array,
  n: number,
  firstRow: number,
  firstF: number,
  secondRow: number,
  secondF: number,
  into: Float64Array,
): void {
  const first = firstRow * n * 2;
  const second = secondRow * n * 2;
  for (let c = 0; c < n; c++) {
    into[c] =
      interpolated(factorSegments, first + 2 * c, firstF) *
      interpolated(factorSegments, second + 2 * c, secondF);
  }
}

/**
 * Tables laid out for interpolation: each table's `values` are `rows` × `length` points; the result is
 * [interval][row][lo, hi − lo] over each table's length − 1 intervals, the tables one after another,
 * with the interval at which each table starts. An evaluation reads one interval of a table, so the
 * numbers it needs for all categories sit side by side instead of one pair per category row; and hi − lo
 * is the same double the interpolation used to compute from the two points.
 */
function segments(tables: readonly { values: readonly number[]; rows: number; length: number }[]): {
  values: Float64Array;
  firstIntervals: number[];
} {
  const values = new Float64Array(tables.reduce((sum, t) => sum + 2 * t.rows * (t.length - 1), 0));
  const firstIntervals: number[] = [];
  let at = 0;
  let intervals = 0;
  for (const { values: points, rows, length } of tables) {
    firstIntervals.push(intervals);
    intervals += length - 1;
    for (let interval = 0; interval < length - 1; interval++) {
      for (let row = 0; row < rows; row++) {
        const lo = points[row * length + interval]!;
        values[at++] = lo;
        values[at++] = points[row * length + interval + 1]! - lo;
      }
    }
  }
  return { values, firstIntervals };
}

/**
 * Logistic model on [1, u, u², a, a², a·u] (see ModelArtifact.ownerLogit), held non-decreasing in income:
 * beyond the vertex of the quadratic in u (where the fit turns against income, in the thin tails) u is
 * clamped to the vertex. Owners with a mortgage spend more than outright owners, so a share that fell with
 * income would make total spending fall with income.
 */
function logistic(beta: Float64Array, u: number, a: number): number {
  const curvature = beta[2]!;
  let x = u;
  if (curvature !== 0) {
    const vertex = -(beta[1]! + beta[5]! * a) / (2 * curvature);
    if (curvature > 0 ? x < vertex : x > vertex) x = vertex;
  }
  const z = beta[0]! + beta[1]! * x + curvature * x * x + beta[3]! * a + beta[4]! * a * a + beta[5]! * a * x;
  return 1 / (1 + Math.exp(-z));
}
