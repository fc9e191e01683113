/**
 * Evaluates the spending model for one profile from the artifact's precomputed tables. Per call: a log, a
 * few logistic terms and, per category, three interpolations and a product; the geography's price factors
 * (one exp per category) are computed once per distinct place and looked up when the Geography object
 * changes. Nothing is allocated per call once a place has been seen.
 */
import { CATEGORY_COUNT, OTHER_DEBT_INDEX, SAVINGS_INDEX } from '../contract/categories.js';
import type { Geography } from '../geo/types.js';
import { AREA_SLOTS, type ModelArtifact, REGION_SLOTS, RPP_COMPONENTS } from './artifact.js';
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
  private readonly income: Float64Array;
  private readonly ageMin: number;
  private readonly ageMax: number;
  private readonly age: Float64Array;
  private readonly sizeMax: number;
  private readonly size: Float64Array;
  private readonly ageMarginal: Float64Array;
  private readonly sizeMarginal: Float64Array;
  private readonly ageSizeMarginal: Float64Array;
  private readonly ownerLogit: Float64Array;
  private readonly mortgageLogit: Float64Array;
  private readonly ownerByIncome: Float64Array;
  private readonly mortgageByIncome: Float64Array;
  private readonly region: Float64Array;
  private readonly area: Float64Array;
  private readonly rppComponent: Int32Array;
  private readonly rppElasticity: Float64Array;
  private geoFactor: Float64Array;
  private readonly logRpp = new Float64Array(RPP_COMPONENTS.length);
  private lastGeo: Geography | null = null;
  /**
   * Price factors per Geography object (the resolver shares frozen objects, so there are only as many
   * as distinct places), and per distinct (price parities, region, area) so that places with the same
   * inputs share one vector: a switch of geography is a WeakMap look-up, not 36 `exp` calls.
   */
  private readonly factorsByGeo = new WeakMap<Geography, Float64Array>();
  private readonly factorsByRpp = new WeakMap<object, (Float64Array | undefined)[]>();
  private readonly scratchFactor: Float64Array;

  constructor(artifact: ModelArtifact) {
    this.version = artifact.version;
    this.priceYear = artifact.priceYear;
    this.n = artifact.spendingCategories;
    this.uMin = artifact.incomeGrid.uMin;
    this.uStep = artifact.incomeGrid.uStep;
    this.points = artifact.incomeGrid.points;
    this.income = Float64Array.from(artifact.income);
    this.ageMin = artifact.ageMin;
    this.ageMax = artifact.ageMax;
    this.age = Float64Array.from(artifact.age);
    this.sizeMax = artifact.sizeMax;
    this.size = Float64Array.from(artifact.size);
    this.ageMarginal = Float64Array.from(artifact.ageMarginal);
    this.sizeMarginal = Float64Array.from(artifact.sizeMarginal);
    this.ageSizeMarginal = Float64Array.from(artifact.ageSizeMarginal);
    this.ownerLogit = Float64Array.from(artifact.ownerLogit);
    this.mortgageLogit = Float64Array.from(artifact.mortgageLogit);
    this.ownerByIncome = Float64Array.from(artifact.ownerByIncome);
    this.mortgageByIncome = Float64Array.from(artifact.mortgageByIncome);
    this.region = Float64Array.from(artifact.region);
    this.area = Float64Array.from(artifact.area);
    this.rppComponent = Int32Array.from(artifact.rppComponent);
    this.rppElasticity = Float64Array.from(artifact.rppElasticity);
    this.scratchFactor = new Float64Array(this.n);
    this.geoFactor = this.scratchFactor;
  }

  predict(profile: Profile, geo: Geography, out: Float64Array): void {
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
    else ownerP = ageKnown ? logistic(this.ownerLogit, u, a) : lerp(this.ownerByIncome, 0, k, f);
    const mortgageP = ageKnown ? logistic(this.mortgageLogit, u, a) : lerp(this.mortgageByIncome, 0, k, f);
    const renterW = 1 - ownerP;
    const mortgageW = ownerP * mortgageP;
    const outrightW = ownerP - mortgageW;

    let ageRow = 0;
    let ageF = 0;
    if (ageKnown) {
      const x = Math.min(Math.max(age, this.ageMin), this.ageMax);
      ageRow = Math.min(Math.floor(x - this.ageMin), this.ageMax - this.ageMin - 1);
      ageF = x - this.ageMin - ageRow;
    }
    const members = profile.household_members;
    const sizeKnown = members !== undefined && Number.isFinite(members);
    let sizeRow = 0;
    let sizeF = 0;
    if (sizeKnown) {
      const x = Math.min(Math.max(members, 1), this.sizeMax);
      sizeRow = Math.min(Math.floor(x - 1), this.sizeMax - 2);
      sizeF = x - 1 - sizeRow;
    }
    if (geo !== this.lastGeo) this.updateGeo(geo);

    const ages = this.ageMax - this.ageMin + 1;
    const sizeMax = this.sizeMax;
    const tenureStride = n * points;
    const income = this.income;
    const ageTable = this.age;
    const sizeTable = this.size;
    const geoFactor = this.geoFactor;
    let total = 0;
    for (let c = 0; c < n; c++) {
      const row = c * points;
      const byIncome =
        renterW * lerp(income, row, k, f) +
        mortgageW * lerp(income, tenureStride + row, k, f) +
        outrightW * lerp(income, 2 * tenureStride + row, k, f);
      let demographic: number;
      if (ageKnown) {
        const ageFactor = lerp(ageTable, c * ages, ageRow, ageF);
        demographic =
          ageFactor *
          (sizeKnown ? lerp(sizeTable, c * sizeMax, sizeRow, sizeF) : lerp(this.sizeMarginal, row, k, f));
      } else if (sizeKnown) {
        demographic = lerp(this.ageMarginal, row, k, f) * lerp(sizeTable, c * sizeMax, sizeRow, sizeF);
      } else {
        demographic = lerp(this.ageSizeMarginal, row, k, f);
      }
      const value = byIncome * demographic * geoFactor[c]!;
      out[c] = value;
      total += value;
    }
    for (let c = n; c < CATEGORY_COUNT; c++) out[c] = 0;
    const left = takeHome - total;
    out[SAVINGS_INDEX] = Math.max(left, 0);
    out[OTHER_DEBT_INDEX] = 0;
  }

  private updateGeo(geo: Geography): void {
    let factors = this.factorsByGeo.get(geo);
    if (factors === undefined) {
      const regionSlot = geo.region === null ? UNKNOWN_REGION : (REGION_SLOT[geo.region] ?? UNKNOWN_REGION);
      const areaSlot = geo.urban === null ? UNKNOWN_AREA : geo.urban ? 1 : 0;
      const rpp = geo.rpp;
      if (Object.isFrozen(geo) && Object.isFrozen(rpp)) {
        // Cached only for immutable inputs (the resolver's interned objects), so a vector cannot go stale.
        let byPlace = this.factorsByRpp.get(rpp);
        if (byPlace === undefined) {
          byPlace = new Array<Float64Array | undefined>(REGION_SLOTS.length * AREA_SLOTS.length).fill(
            undefined,
          );
          this.factorsByRpp.set(rpp, byPlace);
        }
        const place = regionSlot * AREA_SLOTS.length + areaSlot;
        factors = byPlace[place] ?? this.computeFactors(rpp, regionSlot, areaSlot, new Float64Array(this.n));
        byPlace[place] = factors;
        this.factorsByGeo.set(geo, factors);
      } else {
        factors = this.computeFactors(rpp, regionSlot, areaSlot, this.scratchFactor);
      }
    }
    this.geoFactor = factors;
    this.lastGeo = geo;
  }

  private computeFactors(
    rpp: Geography['rpp'],
    regionSlot: number,
    areaSlot: number,
    factors: Float64Array,
  ): Float64Array {
    const logRpp = this.logRpp;
    logRpp[0] = Math.log(rpp.all / 100);
    logRpp[1] = Math.log(rpp.goods / 100);
    logRpp[2] = Math.log(rpp.housing / 100);
    logRpp[3] = Math.log(rpp.utilities / 100);
    logRpp[4] = Math.log(rpp.other / 100);
    for (let c = 0; c < this.n; c++) {
      const price = Math.exp(this.rppElasticity[c]! * logRpp[this.rppComponent[c]!]!);
      factors[c] =
        price *
        this.region[c * REGION_SLOTS.length + regionSlot]! *
        this.area[c * AREA_SLOTS.length + areaSlot]!;
    }
    return factors;
  }
}

function lerp(table: Float64Array, row: number, k: number, f: number): number {
  const lo = table[row + k]!;
  return lo + f * (table[row + k + 1]! - lo);
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
