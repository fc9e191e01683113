/**
 * Evaluates the spending model for one profile from the artifact's precomputed tables. Per call: a log, a
 * few logistic terms and, per category, an income interpolation per tenure class with a non-zero share,
 * the demographic factor (two interpolations, precomputed for whole ages and sizes), the composition
 * factor (composition.ts) and a product; the geography's price factors (src/model/price.ts) are
 * computed once per distinct place and looked up when the Geography object changes. Nothing is allocated
 * per call once a place has been seen.
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
import { type CompositionTables, compositionWeigher } from './composition.js';
import { writeRanges } from './distribution.js';
import { needsLifter } from './needs.js';
import { type PriceBudget, writeLogPriceFactors } from './price.js';
import type { BoundPrediction, Profile, SpendingModel } from './types.js';

const REGION_SLOT: Readonly<Record<string, number>> = { northeast: 0, midwest: 1, south: 2, west: 3 };
const UNKNOWN_REGION = REGION_SLOTS.length - 1;
const UNKNOWN_AREA = AREA_SLOTS.length - 1;
const URBAN_AREA = AREA_SLOTS.indexOf('urban');
/** Take-home below $1 has no meaningful logarithm; the income grid starts far above it anyway. */
const MIN_INCOME = 1;
/** The tenure mix of a profile: renters only, owners only (with or without a mortgage), or all three. */
const RENTERS = 0;
const OWNERS = 1;
const MIXED = 2;

export class TableSpendingModel implements SpendingModel {
  readonly version: string;
  readonly priceYear: number;
  private readonly tables: PredictionTables;
  private readonly distribution: SpendingDistribution | undefined;
  /** `predict`'s own buffers and bound prediction, made on its first call. */
  private scratch: { out: Float64Array; excluded: Uint8Array; predict: BoundPrediction } | undefined;

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
    return bindPrediction(this.tables, out, excluded);
  }

  predict(profile: Profile, geo: Geography, out: Float64Array, excluded: Uint8Array = NONE_EXCLUDED): number {
    if (this.scratch === undefined) {
      const buffers = { out: new Float64Array(CATEGORY_COUNT), excluded: new Uint8Array(CATEGORY_COUNT) };
      this.scratch = { ...buffers, predict: bindPrediction(this.tables, buffers.out, buffers.excluded) };
    }
    const scratch = this.scratch;
    scratch.excluded.set(excluded);
    const included = scratch.predict(profile, geo);
    out.set(scratch.out);
    return included;
  }
}

/** The artifact's tables in the layout the prediction reads. */
interface PredictionTables {
  readonly n: number;
  readonly uMin: number;
  readonly uStep: number;
  readonly points: number;
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

/**
 * The prediction over `tables` into `out`, `excluded` read for the sum it returns (see SpendingModel).
 *
 * A closure rather than a method: everything it reads (the tables, the buffers, the composition's and
 * the place cache's arrays) is a `const` of this call, and when a process binds one prediction — the
 * engine's, as in the server and in each batch worker — V8's optimizing compiler folds them in. The loops
 * then read the arrays at fixed addresses up to a constant bound, instead of re-checking each array's
 * type and length on every iteration as they do for an object's fields or a function's arguments: the
 * whole evaluation took 20–25 % less CPU than the same code as methods (bench/analysis/engine.md, in git history).
 */
function bindPrediction(tables: PredictionTables, out: Float64Array, excluded: Uint8Array): BoundPrediction {
  const { n, points, uMin, uStep, ageMin, ageMax, sizeMax } = tables;
  const { ownerLogit, mortgageLogit, ownerByIncome, mortgageByIncome, incomeSegments, factorSegments } =
    tables;
  const { ageRows, sizeRows, ageMarginalRows, sizeMarginalRows, ageSizeMarginalRows, onesRow } = tables;
  const weigher = compositionWeigher(tables.composition);
  const { factors: typeFactors, weights } = weigher;
  const { lift: needsLift, weighAndLift } = needsLifter(weigher, tables.size, sizeMax, n);
  const { placeFactors, factorsAt } = placeFactorCache(tables);
  const { pairs, pairRowAt } = demographicPairs(tables);
  const uTop = uMin + (points - 1) * uStep;
  let lastGeo: Geography | null = null;
  let geoFactorAt = 0;

  /** The owner share: as stated, else from age and income, else from income alone. */
  function ownerShare(
    isHomeowner: boolean | undefined,
    ageKnown: boolean,
    u: number,
    a: number,
    k: number,
    f: number,
  ) {
    if (isHomeowner !== undefined) return isHomeowner ? 1 : 0;
    return ageKnown ? logistic(ownerLogit, u, a) : lerp(ownerByIncome, k, f);
  }

  /**
   * Where the profile's demographic factors start in `pairs`: a precomputed row for whole age and size,
   * else row 0, written here from the rows (or income marginals) that stand in for what is not known.
   */
  function demographicPairAt(
    age: number | undefined,
    members: number | undefined,
    k: number,
    f: number,
  ): number {
    const ageKnown = age !== undefined && Number.isFinite(age);
    const sizeKnown = members !== undefined && Number.isFinite(members);
    if (ageKnown && sizeKnown && Number.isInteger(age) && Number.isInteger(members)) {
      return pairRowAt(Math.min(Math.max(age, ageMin), ageMax), Math.min(Math.max(members, 1), sizeMax));
    }
    let firstRow = (sizeKnown ? ageMarginalRows : ageSizeMarginalRows) + k;
    let firstF = f;
    if (ageKnown) {
      const x = Math.min(Math.max(age, ageMin), ageMax);
      const ageRow = intervalOf(x, ageMin, ageMax);
      firstRow = ageRows + ageRow;
      firstF = x - ageMin - ageRow;
    }
    let secondRow = ageKnown ? sizeMarginalRows + k : onesRow;
    let secondF = ageKnown ? f : 0;
    if (sizeKnown) {
      const x = Math.min(Math.max(members, 1), sizeMax);
      const sizeRow = intervalOf(x, 1, sizeMax);
      secondRow = sizeRows + sizeRow;
      secondF = x - 1 - sizeRow;
    }
    writeDemographicPair(factorSegments, n, firstRow, firstF, secondRow, secondF, pairs, 0);
    return 0;
  }

  /** A category's spending by income: the interpolations at rc, mc and oc weighted by the tenure mix. */
  function spendingByIncome(
    tenure: number,
    rc: number,
    mc: number,
    oc: number,
    f: number,
    renterW: number,
    mortgageW: number,
    outrightW: number,
  ): number {
    if (tenure === RENTERS) return incomeSegments[rc]! + f * incomeSegments[rc + 1]!;
    if (tenure === OWNERS) {
      return (
        mortgageW * (incomeSegments[mc]! + f * incomeSegments[mc + 1]!) +
        outrightW * (incomeSegments[oc]! + f * incomeSegments[oc + 1]!)
      );
    }
    return (
      renterW * (incomeSegments[rc]! + f * incomeSegments[rc + 1]!) +
      mortgageW * (incomeSegments[mc]! + f * incomeSegments[mc + 1]!) +
      outrightW * (incomeSegments[oc]! + f * incomeSegments[oc + 1]!)
    );
  }

  /**
   * Each category's spending into `out`; returns the sum over the categories not excluded. Per category:
   * the tenure mix of the renter, with-mortgage and outright-owner interpolations by income, weighted by
   * their shares (terms of weight 0, a given tenure, are left out: with the non-negative spending tables
   * they add exactly +0, so the sums are the same doubles), times the demographic and price factors.
   */
  function writeCategories(k: number, f: number, ownerP: number, mortgageP: number, pairAt: number): number {
    const renterW = 1 - ownerP;
    const mortgageW = ownerP * mortgageP;
    const outrightW = ownerP - mortgageW;
    const tenure = ownerP === 0 ? RENTERS : ownerP === 1 ? OWNERS : MIXED;
    const r = k * TENURE_CLASSES.length * n * 2;
    const m = r + 2 * n;
    const o = m + 2 * n;
    // Weights and factors in HOUSEHOLD_TYPES order: married couple, one parent, single or other.
    const married = weights[0]!;
    const oneParent = weights[1]!;
    const single = weights[2]!;
    // As an int32 (it is one): the tagged value was checked and untagged in every iteration of the loop.
    const place = geoFactorAt | 0;
    let included = 0;
    // `tenure` is the same for every category, so its branch is always predicted.
    for (let c = 0; c < n; c++) {
      // The tenure classes' offsets as int32 sums that wrap (they stay far below 2^31): as plain sums of
      // offsets computed per call, every one of them was checked for overflow.
      const rc = (r + 2 * c) | 0;
      const mc = (m + 2 * c) | 0;
      const oc = (o + 2 * c) | 0;
      const byIncome = spendingByIncome(tenure, rc, mc, oc, f, renterW, mortgageW, outrightW);
      // A lift of exactly 1 (every category but a falling need without a stated type) keeps the double.
      const demographic =
        pairs[pairAt + c]! *
        needsLift[c]! *
        (married * typeFactors[3 * c]! +
          oneParent * typeFactors[3 * c + 1]! +
          single * typeFactors[3 * c + 2]!);
      const value = byIncome * demographic * placeFactors[place + c]!;
      out[c] = value;
      // Adding +0 for an excluded category gives the same double as skipping it: a sum from +0 is never −0.
      included += excluded[c] === 1 ? 0 : value;
    }
    return included;
  }

  /** The categories the model does not predict: nothing, except savings, which get what is left. */
  function writeRest(takeHome: number): void {
    let total = 0;
    for (let c = 0; c < n; c++) total += out[c]!;
    for (let c = n; c < CATEGORY_COUNT; c++) out[c] = 0;
    out[SAVINGS_INDEX] = Math.max(takeHome - total, 0);
    out[OTHER_DEBT_INDEX] = 0;
  }

  return function predict(profile: Profile, geo: Geography): number {
    const takeHome = profile.net_annual_income;
    const u = Math.log(Math.max(takeHome, MIN_INCOME));
    const t = Math.min(Math.max((u - uMin) / uStep, 0), points - 1);
    // The last interval for t at the grid's top (f = 1 there). A min, not a branch: a branch taken only for
    // take-home above the grid had the function compiled again (bench/analysis/engine.md, eighth round, in git history).
    const k = Math.min(Math.floor(t), points - 2);
    const f = t - k;
    const age = profile.age;
    const ageKnown = age !== undefined && Number.isFinite(age);
    const a = ageKnown ? (age - 50) / 10 : 0;
    // Above the grid the income tables hold their last point, and so do the tenure logits: a mortgage
    // share still rising there moved owners toward the tenure that spends less at the top, and totals fell.
    const uTenure = Math.min(u, uTop);
    const ownerP = ownerShare(profile.is_homeowner, ageKnown, uTenure, a, k, f);
    // Not needed by renters, whose mortgage weight is 0 whatever it is.
    const mortgageP =
      ownerP === 0 ? 0 : ageKnown ? logistic(mortgageLogit, uTenure, a) : lerp(mortgageByIncome, k, f);
    if (geo !== lastGeo) {
      geoFactorAt = factorsAt(geo);
      lastGeo = geo;
    }
    const pairAt = demographicPairAt(age, profile.household_members, k, f);
    weighAndLift(profile, u);
    const included = writeCategories(k, f, ownerP, mortgageP, pairAt);
    writeRest(takeHome);
    return included;
  };
}

/**
 * The demographic factor is a product of two interpolated factors, each from an exact age or size row or
 * from the income marginal that stands in for an unknown one. For whole ages and sizes (all the contract
 * allows) the product is computed here once per (age, size), the same doubles as in a call: row
 * 1 + (age − ageMin) × sizeMax + size − 1, n per row. Row 0 is the current call's, for the others.
 */
function demographicPairs(tables: PredictionTables): {
  readonly pairs: Float64Array;
  pairRowAt(age: number, size: number): number;
} {
  const { n, ageMin, ageMax, sizeMax, factorSegments, ageRows, sizeRows } = tables;
  const pairs = new Float64Array((1 + (ageMax - ageMin + 1) * sizeMax) * n);
  const pairRowAt = (age: number, size: number) => (1 + (age - ageMin) * sizeMax + size - 1) * n;
  for (let age = ageMin; age <= ageMax; age++) {
    const ageRow = intervalOf(age, ageMin, ageMax);
    for (let size = 1; size <= sizeMax; size++) {
      const sizeRow = intervalOf(size, 1, sizeMax);
      const [firstF, secondF] = [age - ageMin - ageRow, size - 1 - sizeRow];
      const at = pairRowAt(age, size);
      writeDemographicPair(
        factorSegments,
        n,
        ageRows + ageRow,
        firstF,
        sizeRows + sizeRow,
        secondF,
        pairs,
        at,
      );
    }
  }
  return { pairs, pairRowAt };
}

/**
 * The price factors of every place seen, n per place, one place after another (place 0 is scratch for a
 * geography that may change, or one beyond the capacity); `factorsAt` returns where a geography's factors
 * start. One array instead of one per place: the factors are read without first loading a typed array
 * object, a likely cache miss; of fixed size, so that the prediction's compiled code can hold it.
 */
function placeFactorCache(tables: PredictionTables): {
  readonly placeFactors: Float64Array;
  factorsAt(geo: Geography): number;
} {
  const { n, region, area, rppComponent, rppElasticity, priceBudget, stateFactor, metroSizeFactor } = tables;
  const placeFactors = new Float64Array(n * PLACE_CAPACITY);
  const logRpp = new Float64Array(RPP_COMPONENTS.length);
  const logPrice = new Float64Array(n);
  let places = 1;
  /**
   * Where the price factors start, per Geography object (the resolver shares frozen objects, so there
   * are only as many as distinct places), and per distinct (price parities, region, area, rent index,
   * state, metro-size class) so that places with the same inputs share one place: a switch of geography is a WeakMap
   * look-up, not 36 `exp` calls.
   */
  const factorsAtByGeo = new WeakMap<Geography, number>();
  const factorsAtByRpp = new WeakMap<object, Map<string, number>>();

  /** The metro-size class whose factors apply (estimated within urban households), else 0: none. */
  function metroSizeOf(geo: Geography, areaSlot: number): number {
    const size = geo.metroSize;
    return metroSizeFactor === undefined || areaSlot !== URBAN_AREA || size === undefined || size === null
      ? 0
      : size;
  }

  function computeFactors(geo: Geography, regionSlot: number, areaSlot: number, at: number): void {
    const rpp = geo.rpp;
    logRpp[0] = Math.log(rpp.all / 100);
    logRpp[1] = Math.log(rpp.goods / 100);
    // BEA's parity is the area's average rent level; the ZIP's rent index places it within the area.
    logRpp[2] = Math.log(rpp.housing / 100) + Math.log(geo.rentIndex ?? 1);
    logRpp[3] = Math.log(rpp.utilities / 100);
    logRpp[4] = Math.log(rpp.other / 100);
    const state = geo.state === null ? undefined : stateFactor.get(geo.state);
    const metroSize = metroSizeOf(geo, areaSlot);
    writeLogPriceFactors(logRpp, rppComponent, rppElasticity, priceBudget, logPrice);
    for (let c = 0; c < n; c++) {
      placeFactors[at + c] =
        Math.exp(logPrice[c]!) *
        region[c * REGION_SLOTS.length + regionSlot]! *
        area[c * AREA_SLOTS.length + areaSlot]! *
        (state === undefined ? 1 : state[c]!) *
        (metroSize === 0 ? 1 : metroSizeFactor![c * METRO_SIZE_CLASSES + metroSize - 1]!);
    }
  }

  /** Where the factors of a place not cached by Geography object start, computing them on first sight. */
  function placeAt(geo: Geography, regionSlot: number, areaSlot: number): number {
    let byPlace = factorsAtByRpp.get(geo.rpp);
    if (byPlace === undefined) {
      byPlace = new Map();
      factorsAtByRpp.set(geo.rpp, byPlace);
    }
    const stateKey = geo.state !== null && stateFactor.has(geo.state) ? geo.state : '';
    const place = `${regionSlot}|${areaSlot}|${geo.rentIndex ?? 1}|${stateKey}|${metroSizeOf(geo, areaSlot)}`;
    const known = byPlace.get(place);
    if (known !== undefined) return known;
    if (places === PLACE_CAPACITY) {
      computeFactors(geo, regionSlot, areaSlot, 0);
      return 0;
    }
    const at = places++ * n;
    computeFactors(geo, regionSlot, areaSlot, at);
    byPlace.set(place, at);
    return at;
  }

  function factorsAt(geo: Geography): number {
    const cached = factorsAtByGeo.get(geo);
    if (cached !== undefined) return cached;
    const regionSlot = geo.region === null ? UNKNOWN_REGION : (REGION_SLOT[geo.region] ?? UNKNOWN_REGION);
    const areaSlot = geo.urban === null ? UNKNOWN_AREA : geo.urban ? URBAN_AREA : 0;
    // Cached only for immutable inputs (the resolver's interned objects), so factors cannot go stale.
    if (!Object.isFrozen(geo) || !Object.isFrozen(geo.rpp)) {
      computeFactors(geo, regionSlot, areaSlot, 0);
      return 0;
    }
    const at = placeAt(geo, regionSlot, areaSlot);
    // At capacity, place 0 is scratch: not a place to remember this Geography by.
    if (at !== 0) factorsAtByGeo.set(geo, at);
    return at;
  }

  return { placeFactors, factorsAt };
}

/** `predict`'s default: no category excluded from the sum it returns. */
const NONE_EXCLUDED = new Uint8Array(CATEGORY_COUNT);

/**
 * Room for this many places' price factors per bound prediction (a place is n doubles, 288 bytes, so
 * 2.4 MB; the shipped geography has 7,306 distinct places, counted by resolving every ZIP, once ZIP
 * rent indices, state effects and metro-size classes count: the classes add 50, urban ZIPs priced at
 * their state's parities in CBSAs of different sizes; 862 without any of them). A fixed capacity keeps
 * the factors in one array the compiler can treat as a constant; places beyond it are computed again on
 * each switch (place 0).
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
 * The product of two interpolated demographic factors per category, into into[at…at+n): rows of
 * `factorSegments` ([lo, hi − lo] per category) and the fractions within them.
 */
function writeDemographicPair(
  factorSegments: Float64Array,
  n: number,
  firstRow: number,
  firstF: number,
  secondRow: number,
  secondF: number,
  into: Float64Array,
  at: number,
): void {
  const first = firstRow * n * 2;
  const second = secondRow * n * 2;
  for (let c = 0; c < n; c++) {
    into[at + c] =
      (factorSegments[first + 2 * c]! + firstF * factorSegments[first + 2 * c + 1]!) *
      (factorSegments[second + 2 * c]! + secondF * factorSegments[second + 2 * c + 1]!);
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
