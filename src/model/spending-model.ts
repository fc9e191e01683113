/**
 * Evaluates the spending model for one profile from the artifact's precomputed tables. Per call: a log, a
 * few logistic terms and, per category, an income interpolation per tenure class with a non-zero share,
 * two demographic interpolations, the composition factor (composition.ts) and a product; the geography's price factors
 * (one exp per category) are computed once per distinct place and looked up when the Geography object
 * changes. Nothing is allocated per call once a place has been seen.
 */
import { CATEGORY_COUNT, OTHER_DEBT_INDEX, SAVINGS_INDEX } from '../contract/categories.js';
import type { Geography } from '../geo/types.js';
import { AREA_SLOTS, type ModelArtifact, REGION_SLOTS, RPP_COMPONENTS, TENURE_CLASSES } from './artifact.js';
import { CompositionFactors } from './composition.js';
import type { Profile, SpendingModel } from './types.js';

const REGION_SLOT: Readonly<Record<string, number>> = { northeast: 0, midwest: 1, south: 2, west: 3 };
const UNKNOWN_REGION = REGION_SLOTS.length - 1;
const UNKNOWN_AREA = AREA_SLOTS.length - 1;
/** Take-home below $1 has no meaningful logarithm; the income grid starts far above it anyway. */
const MIN_INCOME = 1;

export class TableSpendingModel implements SpendingModel {
  readonly version: string;
  readonly priceYear: number;
  private readonly n: number;
  private readonly uMin: number;
  private readonly uStep: number;
  private readonly points: number;
  private readonly ageMin: number;
  private readonly ageMax: number;
  private readonly sizeMax: number;
  private readonly ownerLogit: Float64Array;
  private readonly mortgageLogit: Float64Array;
  private readonly ownerByIncome: Float64Array;
  private readonly mortgageByIncome: Float64Array;
  /** The income tables as interpolation segments, [grid interval][tenure class][category] (see `segments`). */
  private readonly incomeSegments: Float64Array;
  /**
   * The demographic factor tables as segments, [interval][category]: age, size, the three income
   * marginals, and one interval of ones (a factor of exactly 1, for when age and size are both unknown
   * and the age × size marginal is the whole factor); the `…Rows` fields are where each table starts.
   */
  private readonly factorSegments: Float64Array;
  private readonly ageRows: number;
  private readonly sizeRows: number;
  private readonly ageMarginalRows: number;
  private readonly sizeMarginalRows: number;
  private readonly ageSizeMarginalRows: number;
  private readonly onesRow: number;
  private readonly composition: CompositionFactors;
  private readonly region: Float64Array;
  private readonly area: Float64Array;
  private readonly rppComponent: Int32Array;
  private readonly rppElasticity: Float64Array;
  /**
   * The price factors of every place seen, n per place, one place after another (place 0 is scratch for
   * a geography that may change); `geoFactorAt` is where the current geography's factors start. One array
   * instead of one per place: the factors are read without first loading a typed array object, a likely
   * cache miss.
   */
  private placeFactors: Float64Array;
  private places = 1;
  private geoFactorAt = 0;
  private readonly logRpp = new Float64Array(RPP_COMPONENTS.length);
  private lastGeo: Geography | null = null;
  /**
   * Where the price factors start in `placeFactors`, per Geography object (the resolver shares frozen
   * objects, so there are only as many as distinct places), and per distinct (price parities, region,
   * area) so that places with the same inputs share one place: a switch of geography is a WeakMap
   * look-up, not 36 `exp` calls.
   */
  private readonly factorsAtByGeo = new WeakMap<Geography, number>();
  private readonly factorsAtByRpp = new WeakMap<object, number[]>();

  constructor(artifact: ModelArtifact) {
    this.version = artifact.version;
    this.priceYear = artifact.priceYear;
    const n = artifact.spendingCategories;
    const points = artifact.incomeGrid.points;
    const ages = artifact.ageMax - artifact.ageMin + 1;
    this.n = n;
    this.uMin = artifact.incomeGrid.uMin;
    this.uStep = artifact.incomeGrid.uStep;
    this.points = points;
    this.ageMin = artifact.ageMin;
    this.ageMax = artifact.ageMax;
    this.sizeMax = artifact.sizeMax;
    this.ownerLogit = Float64Array.from(artifact.ownerLogit);
    this.mortgageLogit = Float64Array.from(artifact.mortgageLogit);
    this.ownerByIncome = Float64Array.from(artifact.ownerByIncome);
    this.mortgageByIncome = Float64Array.from(artifact.mortgageByIncome);
    // [tenure class][category][point] is 3n rows of grid points.
    this.incomeSegments = segments([
      { values: artifact.income, rows: TENURE_CLASSES.length * n, length: points },
    ]).values;
    const factors = segments([
      { values: artifact.age, rows: n, length: ages },
      { values: artifact.size, rows: n, length: artifact.sizeMax },
      { values: artifact.ageMarginal, rows: n, length: points },
      { values: artifact.sizeMarginal, rows: n, length: points },
      { values: artifact.ageSizeMarginal, rows: n, length: points },
      { values: new Array<number>(2 * n).fill(1), rows: n, length: 2 },
    ]);
    this.factorSegments = factors.values;
    [
      this.ageRows,
      this.sizeRows,
      this.ageMarginalRows,
      this.sizeMarginalRows,
      this.ageSizeMarginalRows,
      this.onesRow,
    ] = factors.firstIntervals as [number, number, number, number, number, number];
    this.composition = new CompositionFactors(artifact);
    this.region = Float64Array.from(artifact.region);
    this.area = Float64Array.from(artifact.area);
    this.rppComponent = Int32Array.from(artifact.rppComponent);
    this.rppElasticity = Float64Array.from(artifact.rppElasticity);
    this.placeFactors = new Float64Array(n * PLACES_AT_FIRST);
  }

  predict(profile: Profile, geo: Geography, out: Float64Array, excluded: Uint8Array = NONE_EXCLUDED): number {
    const n = this.n;
    const points = this.points;
    const takeHome = profile.net_annual_income;
    const u = Math.log(Math.max(takeHome, MIN_INCOME));
    const t = Math.min(Math.max((u - this.uMin) / this.uStep, 0), points - 1);
    const k = t >= points - 1 ? points - 2 : Math.floor(t);
    const f = t - k;

    const age = profile.age;
    const ageKnown = age !== undefined && Number.isFinite(age);
    const a = ageKnown ? (age - 50) / 10 : 0;
    let ownerP: number;
    if (profile.is_homeowner !== undefined) ownerP = profile.is_homeowner ? 1 : 0;
    else ownerP = ageKnown ? logistic(this.ownerLogit, u, a) : lerp(this.ownerByIncome, k, f);
    // Not needed by renters, whose mortgage weight is 0 whatever it is.
    let mortgageP = 0;
    if (ownerP !== 0) {
      mortgageP = ageKnown ? logistic(this.mortgageLogit, u, a) : lerp(this.mortgageByIncome, k, f);
    }
    if (geo !== this.lastGeo) this.updateGeo(geo);

    writeByIncome(this.incomeSegments, k * TENURE_CLASSES.length * n * 2, n, f, ownerP, mortgageP, out);

    // The demographic factor is a product of two interpolated factors, each from an exact age or size
    // row or from the income marginal that stands in for an unknown one.
    const members = profile.household_members;
    const sizeKnown = members !== undefined && Number.isFinite(members);
    let firstRow: number;
    let firstF: number;
    if (ageKnown) {
      const x = Math.min(Math.max(age, this.ageMin), this.ageMax);
      const ageRow = Math.min(Math.floor(x - this.ageMin), this.ageMax - this.ageMin - 1);
      firstRow = this.ageRows + ageRow;
      firstF = x - this.ageMin - ageRow;
    } else {
      firstRow = (sizeKnown ? this.ageMarginalRows : this.ageSizeMarginalRows) + k;
      firstF = f;
    }
    let secondRow: number;
    let secondF: number;
    if (sizeKnown) {
      const x = Math.min(Math.max(members, 1), this.sizeMax);
      const sizeRow = Math.min(Math.floor(x - 1), this.sizeMax - 2);
      secondRow = this.sizeRows + sizeRow;
      secondF = x - 1 - sizeRow;
    } else if (ageKnown) {
      secondRow = this.sizeMarginalRows + k;
      secondF = f;
    } else {
      secondRow = this.onesRow;
      secondF = 0;
    }

    const composition = this.composition;
    composition.weigh(profile, u);
    const typeFactors = composition.factors;
    // Weights and factors in HOUSEHOLD_TYPES order: married couple, one parent, single or other.
    const weights = composition.weights;
    const married = weights[0]!;
    const oneParent = weights[1]!;
    const single = weights[2]!;
    const factors = this.factorSegments;
    const placeFactors = this.placeFactors;
    const place = this.geoFactorAt;
    let first = firstRow * n * 2;
    let second = secondRow * n * 2;
    let types = 0;
    let total = 0;
    let included = 0;
    for (let c = 0; c < n; c++, first += 2, second += 2, types += 3) {
      const demographic =
        (factors[first]! + firstF * factors[first + 1]!) *
        (factors[second]! + secondF * factors[second + 1]!) *
        (married * typeFactors[types]! +
          oneParent * typeFactors[types + 1]! +
          single * typeFactors[types + 2]!);
      const value = out[c]! * demographic * placeFactors[place + c]!;
      out[c] = value;
      total += value;
      // Adding +0 for an excluded category gives the same double as skipping it: a sum from +0 is never −0.
      included += excluded[c] === 1 ? 0 : value;
    }
    for (let c = n; c < CATEGORY_COUNT; c++) out[c] = 0;
    const left = takeHome - total;
    out[SAVINGS_INDEX] = Math.max(left, 0);
    out[OTHER_DEBT_INDEX] = 0;
    return included;
  }

  private updateGeo(geo: Geography): void {
    let at = this.factorsAtByGeo.get(geo);
    if (at === undefined) {
      const regionSlot = geo.region === null ? UNKNOWN_REGION : (REGION_SLOT[geo.region] ?? UNKNOWN_REGION);
      const areaSlot = geo.urban === null ? UNKNOWN_AREA : geo.urban ? 1 : 0;
      const rpp = geo.rpp;
      if (Object.isFrozen(geo) && Object.isFrozen(rpp)) {
        // Cached only for immutable inputs (the resolver's interned objects), so factors cannot go stale.
        let byPlace = this.factorsAtByRpp.get(rpp);
        if (byPlace === undefined) {
          byPlace = new Array<number>(REGION_SLOTS.length * AREA_SLOTS.length).fill(-1);
          this.factorsAtByRpp.set(rpp, byPlace);
        }
        const place = regionSlot * AREA_SLOTS.length + areaSlot;
        at = byPlace[place]!;
        if (at < 0) {
          at = this.newPlace();
          this.computeFactors(rpp, regionSlot, areaSlot, at);
          byPlace[place] = at;
        }
        this.factorsAtByGeo.set(geo, at);
      } else {
        at = 0;
        this.computeFactors(rpp, regionSlot, areaSlot, at);
      }
    }
    this.geoFactorAt = at;
    this.lastGeo = geo;
  }

  /** Where a new place's factors go in `placeFactors`, which doubles when full. */
  private newPlace(): number {
    const at = this.places * this.n;
    if (at + this.n > this.placeFactors.length) {
      const grown = new Float64Array(this.placeFactors.length * 2);
      grown.set(this.placeFactors);
      this.placeFactors = grown;
    }
    this.places++;
    return at;
  }

  private computeFactors(rpp: Geography['rpp'], regionSlot: number, areaSlot: number, at: number): void {
    const logRpp = this.logRpp;
    logRpp[0] = Math.log(rpp.all / 100);
    logRpp[1] = Math.log(rpp.goods / 100);
    logRpp[2] = Math.log(rpp.housing / 100);
    logRpp[3] = Math.log(rpp.utilities / 100);
    logRpp[4] = Math.log(rpp.other / 100);
    for (let c = 0; c < this.n; c++) {
      const price = Math.exp(this.rppElasticity[c]! * logRpp[this.rppComponent[c]!]!);
      this.placeFactors[at + c] =
        price *
        this.region[c * REGION_SLOTS.length + regionSlot]! *
        this.area[c * AREA_SLOTS.length + areaSlot]!;
    }
  }
}

/** `predict`'s default: no category excluded from the sum it returns. */
const NONE_EXCLUDED = new Uint8Array(CATEGORY_COUNT);

/** Room for this many places' price factors before the first growth (a place is n doubles). */
const PLACES_AT_FIRST = 256;

function lerp(table: Float64Array, k: number, f: number): number {
  const lo = table[k]!;
  return lo + f * (table[k + 1]! - lo);
}

/**
 * Spending by income for the tenure mix, into out[0..n): renter, with-mortgage and outright-owner
 * interpolations weighted by their shares. Terms of weight 0 (a given tenure) are left out: with the
 * non-negative spending tables they add exactly +0, so the sums are the same doubles.
 */
function writeByIncome(
  segs: Float64Array,
  interval: number,
  n: number,
  f: number,
  ownerP: number,
  mortgageP: number,
  out: Float64Array,
): void {
  const renterW = 1 - ownerP;
  const mortgageW = ownerP * mortgageP;
  const outrightW = ownerP - mortgageW;
  const stride = n * 2;
  let r = interval;
  let m = interval + stride;
  let o = m + stride;
  if (ownerP === 0) {
    for (let c = 0; c < n; c++, r += 2) out[c] = segs[r]! + f * segs[r + 1]!;
  } else if (ownerP === 1) {
    for (let c = 0; c < n; c++, m += 2, o += 2) {
      out[c] = mortgageW * (segs[m]! + f * segs[m + 1]!) + outrightW * (segs[o]! + f * segs[o + 1]!);
    }
  } else {
    for (let c = 0; c < n; c++, r += 2, m += 2, o += 2) {
      out[c] =
        renterW * (segs[r]! + f * segs[r + 1]!) +
        mortgageW * (segs[m]! + f * segs[m + 1]!) +
        outrightW * (segs[o]! + f * segs[o + 1]!);
    }
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
